import { SIMULATED_LABEL } from '../sim/label';
import { pick, rngFor } from '../sim/prng';
import { protocolSimulator } from '../sim/registry';
import type { Taxonomy } from '../taxonomy/taxonomy';
import type { ArbiterAnswer, Narrative, RaisedChallenge, SynthesisAnswer } from './answers';
import type { Drive } from './drive';
import { driveEvaluation } from './drive';
import { overallScore } from './figures';
import type { EvaluationInput } from './inputs';
import type { EvaluationBrief } from './live/requests';
import type { EvaluationAsk, EvaluationSetup, EvaluationState } from './state';
import { createEvaluation, scoreMap } from './state';
import { positionsInPlay } from './step';
import type { Recommendation, RedTeamPersona, Severity } from './vocabulary';

/**
 * The offline evaluation simulator: deterministic, labelled and free. Given a seed, an ask and the
 * state, it plays every agent with a plausible valid answer: varied initial scores, challenges aimed
 * at the proposed targets (and, now and then, an earlier challenge repeated), mixed rulings that
 * cool down round by round, a synthesis that picks winners and grows more confident, and a
 * narrative built from the figures. Every text it writes starts with `[simulated]`.
 */

const say = (text: string): string => `${SIMULATED_LABEL} ${text}`;

const FACTS = [
  'the pilot with nine early users',
  'last quarter’s sign-up numbers',
  'two comparable tools that stalled',
  'the price survey of 120 researchers',
  'the maintenance cost of similar projects',
  'a regulator’s consultation paper',
  'the churn of the closest competitor',
  'an interview series with six practitioners',
];

const EDGES = [
  'the main data source changes its terms',
  'usage spikes tenfold',
  'the author has a month with no spare time',
  'a key dependency is deprecated',
];

const TEMPLATES: Readonly<Record<RedTeamPersona, (name: string, score: number, fact: string, edge: string) => string>> =
  {
    skeptic: (name, score, fact) =>
      `Where is the evidence that ${name} deserves ${score}/10? ${capital(fact)} does not show it.`,
    realist: (name, score, fact) => `In practice ${name} will be harder than ${score}/10 suggests; look at ${fact}.`,
    'first-principles': (name, score) =>
      `The ${score}/10 for ${name} reasons by analogy: what must be true, from the ground up, for it to hold?`,
    competitor: (name, _score, fact) =>
      `A well-funded incumbent could copy the strength behind ${name} within a year, judging by ${fact}.`,
    contrarian: (name, _score, fact) =>
      `Suppose the opposite is true for ${name}: ${fact} points that way just as well.`,
    'edge-case': (name, _score, _fact, edge) => `When ${edge}, ${name} breaks down, and the score ignores that case.`,
  };

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function nameOf(state: Readonly<EvaluationState>, id: string): string {
  return state.criteria.find((c) => c.id === id)?.name ?? id;
}

/** Odds that the red team wins an exchange: the debate cools as the rounds go by. */
export function redTeamOdds(round: number): number {
  return round <= 1 ? 0.4 : round === 2 ? 0.15 : 0;
}

/** The confidence the synthesis works toward after a round. */
function confidenceTarget(round: number): number {
  return Math.min(0.9, 0.6 + 0.1 * round);
}

const two = (n: number) => Math.round(n * 100) / 100;

function later(state: Readonly<EvaluationState>, rng: () => number): string {
  return new Date(Date.parse(state.clock) + 800 + Math.floor(rng() * 4200)).toISOString();
}

function severityFor(state: Readonly<EvaluationState>, criterion: string, rng: () => number): Severity {
  const score = state.scores[criterion]?.score ?? 5;
  const critical = state.criteria.find((c) => c.id === criterion)?.critical ?? false;
  if (score >= 7) return critical ? 'CRITICAL' : 'MAJOR';
  if (score >= 5) return rng() < 0.3 ? 'MAJOR' : 'MINOR';
  return rng() < 0.5 ? 'MINOR' : 'NOTE';
}

function redTeamAnswer(
  seed: number,
  ask: Extract<EvaluationAsk, { role: 'redteam' }>,
  state: Readonly<EvaluationState>,
): RaisedChallenge[] {
  const rng = rngFor(seed, 'redteam', ask.round, ask.persona);
  const index = Math.max(0, state.personas.indexOf(ask.persona));
  const targets = ask.targets.length > 0 ? ask.targets : state.criteria.map((c) => c.id);
  const out: RaisedChallenge[] = [];
  for (let k = 0; k < ask.suggestedCount; k++) {
    const criterion = targets[(index + k * state.personas.length) % targets.length] ?? targets[0] ?? '';
    const score = state.scores[criterion]?.score ?? 5;
    const text = TEMPLATES[ask.persona](nameOf(state, criterion), score, pick(rng, FACTS), pick(rng, EDGES));
    out.push({ criterion, severity: severityFor(state, criterion, rng), challenge: say(text) });
  }
  // Now and then a persona raises one of its earlier challenges again: the protocol drops it.
  const earlier = state.challenges.filter((c) => c.persona === ask.persona && c.round < ask.round);
  if (earlier.length > 0 && rng() < 0.35) {
    const again = pick(rng, earlier);
    if (ask.focus === null || again.criterion === ask.focus) {
      out.push({ criterion: again.criterion, severity: again.severity, challenge: again.challenge });
    }
  }
  return out;
}

function arbiterAnswer(seed: number, challengeId: string, state: Readonly<EvaluationState>): ArbiterAnswer {
  const rng = rngFor(seed, 'arbiter', challengeId);
  const c = state.challenges.find((x) => x.id === challengeId);
  const score = c ? (state.scores[c.criterion]?.score ?? 5) : 5;
  const range = state.config.scoreAdjustmentRange;
  const bonus = rng() < 0.35;
  const roll = rng();
  if (c && roll < redTeamOdds(c.round) && score > 1) {
    const adjustment = -Math.min(range, score >= 8 ? 2 : 1);
    return {
      winner: 'RED_TEAM',
      scoreAdjustment: adjustment,
      firstPrinciplesBonus: bonus,
      fallacies: rng() < 0.4 ? [say('reasoning from analogy')] : [],
      reasoning: say(
        `The defense did not answer the point about ${c ? nameOf(state, c.criterion) : 'the criterion'}; the score drops by ${-adjustment}.`,
      ),
    };
  }
  const minor = c?.severity === 'MINOR' || c?.severity === 'NOTE';
  if (minor && rng() < 0.35) {
    return {
      winner: 'DRAW',
      scoreAdjustment: 0,
      firstPrinciplesBonus: bonus,
      fallacies: [],
      reasoning: say('Both sides have a point and neither settles it; the score stands.'),
    };
  }
  return {
    winner: 'EVALUATOR',
    scoreAdjustment: 0,
    firstPrinciplesBonus: bonus,
    fallacies: [],
    reasoning: say('The defense answers the challenge with evidence; the score holds.'),
  };
}

function synthesisAnswer(seed: number, round: number, state: Readonly<EvaluationState>): SynthesisAnswer {
  const rng = rngFor(seed, 'synthesis', round);
  const target = confidenceTarget(round);
  const criteria = state.criteria.map((info) => {
    const standing = state.scores[info.id];
    const current = standing?.score ?? 5;
    const confidence = standing?.confidence ?? 0.5;
    const debated = state.challenges.filter((c) => c.round === round && c.criterion === info.id && c.ruling);
    if (debated.length === 0) {
      return {
        criterion: info.id,
        score: current,
        confidence: two(Math.max(confidence, target - 0.05)),
        prevailingPosition: say('Unchallenged this round: the evaluator’s score stands.'),
        resolutionReasoning: say('Nothing new was raised against it.'),
        openQuestions: [...(standing?.openQuestions ?? [])],
      };
    }
    // The synthesis sides with the last ruling: a winner, never a middle value.
    const positions = positionsInPlay(state as EvaluationState, round, info.id);
    const lost = debated.some((c) => c.ruling?.winner === 'RED_TEAM');
    const open = debated.some((c) => c.ruling?.winner !== 'EVALUATOR');
    const score = positions.includes(current) ? current : (positions[0] ?? current);
    return {
      criterion: info.id,
      score,
      confidence: two(Math.min(0.95, Math.max(confidence, lost ? target - 0.05 : target + 0.02))),
      prevailingPosition: say(lost ? 'The red team’s position prevails.' : 'The evaluator’s position prevails.'),
      resolutionReasoning: say(
        lost
          ? `The challenge on ${info.name} was not answered with evidence.`
          : `The defense of ${info.name} rests on first principles.`,
      ),
      openQuestions: open ? [say(`What evidence would settle ${info.name}?`)] : [],
    };
  });
  const insightCount = round <= 1 ? 3 : round === 2 ? 1 : 0;
  const newInsights = Array.from({ length: insightCount }, (_, i) =>
    say(
      `Round ${round} insight ${i + 1}: ${pick(rng, FACTS)} matters more than expected for ${nameOf(state, state.criteria[(i * 7 + round) % state.criteria.length]?.id ?? '')}.`,
    ),
  );
  return { criteria, newInsights };
}

/**
 * What the identity of an idea draws on: its id and the hash of its notes, so two ideas (or one idea
 * after its notes change) score differently while one idea under one seed always scores the same.
 */
function ideaKey(state: Readonly<EvaluationState>): string {
  return `${state.idea.id}\u0002${state.contentHash}`;
}

/** A draw in [-1, 1] that clusters near 0 (the mean of two uniforms), so extreme scores stay rare. */
function centred(rng: () => number): number {
  return rng() + rng() - 1;
}

/**
 * An evaluator's first score for a criterion: the idea's overall standing (3.5–7.5), a lean for the
 * category (±1.2, an idea is strong on market and weak on execution, say) and the criterion's own
 * noise (±2.5), rounded and kept on the 1–10 scale. Ideas thus differ as wholes and in shape.
 */
export function initialScore(
  seed: number,
  state: Readonly<EvaluationState>,
  category: string,
  criterion: string,
): { score: number; confidence: number } {
  const idea = ideaKey(state);
  const standing = 3.5 + rngFor(seed, 'standing', idea)() * 4;
  const lean = 1.2 * centred(rngFor(seed, 'lean', idea, category));
  const rng = rngFor(seed, 'score', idea, criterion);
  const score = Math.min(10, Math.max(1, Math.round(standing + lean + 2.5 * centred(rng))));
  return { score, confidence: two(0.55 + rng() * 0.3) };
}

function recommend(overall: number): Recommendation {
  return overall >= 7 ? 'PURSUE' : overall >= 5.5 ? 'REFINE' : overall >= 4 ? 'PAUSE' : 'ABANDON';
}

function narrativeAnswer(state: Readonly<EvaluationState>): Narrative {
  const scores = scoreMap(state as EvaluationState);
  const overall = overallScore(scores, state.categories);
  const ids = state.criteria.map((c) => c.id);
  const lost = new Set(state.challenges.filter((c) => c.ruling?.winner === 'RED_TEAM').map((c) => c.criterion));
  const ranked = [...ids].sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || ids.indexOf(a) - ids.indexOf(b));
  const recommendation = recommend(overall);
  return {
    executiveSummary: say(
      `${state.idea.title} scores ${overall.toFixed(2)} of 10 after ${state.round} round${state.round === 1 ? '' : 's'} of debate. Its strongest ground held under challenge; its weakest points are named below.`,
    ),
    keyStrengths: ranked
      .filter((id) => !lost.has(id))
      .slice(0, 3)
      .map((id) => say(`${nameOf(state, id)} (${scores[id]}/10) survived every challenge.`)),
    keyWeaknesses: [...ranked]
      .reverse()
      .slice(0, 3)
      .map((id) =>
        say(`${nameOf(state, id)} is weak at ${scores[id]}/10${lost.has(id) ? ' and lost a challenge' : ''}.`),
      ),
    criticalAssumptions: state.criteria
      .filter((c) => c.critical)
      .map((c) => say(`${c.name} holds at ${scores[c.id]}/10.`)),
    unresolvedQuestions: ids.flatMap((id) => state.scores[id]?.openQuestions ?? []).slice(0, 5),
    recommendation,
    recommendationReasoning: say(`An overall score of ${overall.toFixed(2)} points to ${recommendation}.`),
  };
}

/** The simulated answer to one ask, stamped a few seconds after the evaluation's clock. */
export function simulateAnswer(seed: number, ask: EvaluationAsk, state: Readonly<EvaluationState>): EvaluationInput {
  const key =
    ask.role === 'evaluator'
      ? ask.category
      : ask.role === 'redteam'
        ? `${ask.persona}:${ask.round}`
        : ask.role === 'defense' || ask.role === 'arbiter'
          ? ask.challengeId
          : ask.role === 'synthesis'
            ? ask.round
            : '';
  const at = later(state, rngFor(seed, 'clock', ask.role, key, state.retries));
  switch (ask.role) {
    case 'evaluator':
      return {
        kind: 'evaluator',
        category: ask.category,
        at,
        answer: {
          scores: ask.criteria.map((criterion) => {
            const { score, confidence } = initialScore(seed, state, ask.category, criterion);
            return {
              criterion,
              score,
              confidence,
              reasoning: say(`${nameOf(state, criterion)} earns ${score}/10 on what the idea's notes show so far.`),
            };
          }),
        },
      };
    case 'redteam':
      return {
        kind: 'redteam',
        persona: ask.persona,
        round: ask.round,
        at,
        answer: { challenges: redTeamAnswer(seed, ask, state) },
      };
    case 'defense':
      return {
        kind: 'defense',
        challengeId: ask.challengeId,
        at,
        answer: {
          response: say(
            `The ${ask.category} evaluator answers: the ${state.scores[ask.criterion]?.score ?? 5}/10 for ${nameOf(state, ask.criterion)} rests on what the notes record, not on analogy.`,
          ),
        },
      };
    case 'arbiter':
      return { kind: 'arbiter', challengeId: ask.challengeId, at, answer: arbiterAnswer(seed, ask.challengeId, state) };
    case 'synthesis':
      return { kind: 'synthesis', round: ask.round, at, answer: synthesisAnswer(seed, ask.round, state) };
    case 'narrative':
      return { kind: 'narrative', at, answer: narrativeAnswer(state) };
  }
}

/** Drives an evaluation (fresh, reopened or resumed) to its lock with simulated answers. */
export function runSimulated(state: EvaluationState, seed: number): Drive {
  return driveEvaluation(state, (ask, s) => simulateAnswer(seed, ask, s));
}

/** A whole simulated evaluation from its setup. */
export function simulateEvaluation(setup: EvaluationSetup, taxonomy: Taxonomy, seed: number): Drive {
  return runSimulated(createEvaluation(setup, taxonomy), seed);
}

/** The answer a brief asks for: what a model would return for its ask. */
function answerTo(seed: number, brief: EvaluationBrief): unknown {
  // Every input the simulator makes answers its ask; the union of inputs also holds ones that do not.
  return (simulateAnswer(seed, brief.ask, brief.state) as { answer?: unknown }).answer;
}

/** The evaluation briefs' answers, one kind per role, registered in `core/sim/simulators.ts`. */
export const evaluationSimulator = protocolSimulator<EvaluationBrief>('evaluation', {
  evaluator: answerTo,
  redteam: answerTo,
  defense: answerTo,
  arbiter: answerTo,
  synthesis: answerTo,
  narrative: answerTo,
});
