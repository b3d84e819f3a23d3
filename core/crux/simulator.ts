import { SIMULATED_LABEL } from '../sim/label';
import { pick, rngFor } from '../sim/prng';
import { protocolSimulator } from '../sim/registry';
import type { AnalysisOutput } from './analysis';
import { questionHorizon } from './horizons';
import { jaccard, keywords } from './keywords';
import type { AgentMove } from './live/answer';
import type { BaselineAnswer, BaselineBrief } from './live/baseline';
import type { AnalysisBrief, CruxBrief, TurnBrief } from './live/brief';
import type { LabelsAnswer, LabelsBrief } from './live/labels-request';
import type { CruxCheckAnswer, CruxCheckBrief, ReviewAnswer, ReviewBrief } from './live/review-request';
import { CRUX_CHALLENGES } from './vocabulary';
import type {
  RelationAnswer,
  RelationBrief,
  RelationCheckAnswer,
  RelationCheckBrief,
} from './live/relation-request';

/**
 * The crux debate's offline simulator: deterministic, labelled, and free. It plays every agent from
 * the turn brief in the request, making valid moves most of the time and, on purpose, the mistakes
 * the protocol must handle (a move in the wrong stage, a question without "?", a vague falsifier,
 * an incomplete steelman grade), so a new user sees the whole protocol work without a key. Every
 * text it writes starts with SIMULATED_LABEL.
 */

const FACTS = [
  'the 2024 pilot data',
  'three comparable deployments',
  'the survey of 400 practitioners',
  'last year’s cost figures',
  'a randomized trial in 12 sites',
  'the regional adoption curve',
  'two failed predecessors',
  'the maintenance logs',
];

function topicWords(topic: string): string {
  const words = keywords(topic).slice(0, 4);
  return words.length > 0 ? words.join(' ') : 'the proposal';
}

function say(text: string): string {
  return `${SIMULATED_LABEL} ${text}`;
}

/** The move an agent makes for a brief; a pure function of the seed and the brief. */
export function simulateMove(seed: number, brief: TurnBrief): AgentMove {
  const rng = rngFor(
    seed,
    brief.thread.id,
    brief.agent.id,
    brief.thread.stage,
    brief.thread.messagesInStage,
    brief.attempt,
    brief.recent.map((r) => r.id).join(','),
  );
  const subject = topicWords(brief.thread.topic || brief.topic);
  const fact = pick(rng, FACTS);
  const firstTry = brief.attempt === 0;
  // Only a message the agent's attention took in is one it answers (core/crux/attention.ts).
  const lastOther = [...brief.recent]
    .reverse()
    .find((r) => r.author !== null && r.author !== brief.agent.id && r.seen !== false);
  const side = brief.agent.side ?? brief.topClaim?.side ?? (brief.agent.id.length % 2 === 0 ? 'YES' : 'NO');
  // A commitment answers the question as asked: one "within 18 months" is about 12-18mo whatever
  // the persona's usual horizon, or the crux would show a horizon its question does not name.
  const horizon = (questionHorizon(brief.thread.binaryQuestion) ??
    brief.defaultHorizon ??
    '5y') as AgentMove['meta']['horizon'];
  const falsifier = {
    metric: `share of ${subject} deployments meeting their stated target`,
    threshold: side === 'NO' ? 'at least 60%' : 'below 40%',
    deadline: '2027-12-31',
    reasoning: `If ${fact} is representative, that share decides it.`,
  };

  switch (brief.ask.kind) {
    case 'DISCUSS': {
      // Someone offered a separate question: take it up so it can become its own thread.
      const offer = brief.recent[brief.recent.length - 1];
      if (offer && offer.move === 'REFRAME' && offer.author !== brief.agent.id && rng() < 0.6) {
        return {
          move: 'CLAIM',
          replyTo: offer.id,
          content: say(`That reframing deserves its own thread; ${fact} bears on it directly.`),
          meta: {},
        };
      }
      if (firstTry && rng() < 0.08) {
        // Too early to commit: the protocol refuses this in DISCOVERY.
        return {
          move: 'COMMIT_POSITION',
          content: say(`I already know where I stand on ${subject}.`),
          meta: { side, confidence: 0.7, horizon, falsifier },
        };
      }
      if (brief.thread.id === 't1' && brief.thread.messagesInStage === 2 && rng() < 0.7) {
        return {
          move: 'REFRAME',
          content: say(`But what about the cost side of ${subject}? That is a separate question.`),
          meta: { spawnQuestion: `Will the running costs of ${subject} fall by 20% within 5 years?` },
        };
      }
      const move = pick(rng, ['CLAIM', 'CHALLENGE', 'CLARIFY', 'CLAIM'] as const);
      const text =
        move === 'CHALLENGE'
          ? `${fact} does not support that reading of ${subject}.`
          : move === 'CLARIFY'
            ? `By ${subject} I mean the version that ships to real users, not the prototype.`
            : `${fact} suggests ${subject} ${side === 'NO' ? 'will not deliver' : 'will deliver'} within ${horizon}.`;
      return {
        move,
        content: say(text),
        ...(move === 'CHALLENGE' && lastOther ? { replyTo: lastOther.id } : {}),
        meta: {},
      };
    }
    case 'PROPOSE_CRUX': {
      // A thread spawned with its question keeps it; a thread without one takes up the open question
      // the agenda puts forward; otherwise the simulator frames one.
      const agenda = brief.agenda && brief.agenda.source !== 'topic' ? brief.agenda.question : null;
      const question = (
        brief.thread.binaryQuestion ?? agenda ?? `Will ${subject} meet its stated target within 18 months?`
      ).replace(/\?$/, '');
      // A question without its "?" is refused as invalidMove; the re-ask fixes it.
      return {
        move: 'PROPOSE_CRUX',
        content: say(`The crux is whether ${subject} meets its target.`),
        meta: { question: firstTry && rng() < 0.25 ? question : `${question}?` },
      };
    }
    case 'COMMIT_POSITION': {
      const vague = firstTry && rng() < 0.2;
      return {
        move: 'COMMIT_POSITION',
        content: say(`I commit to ${side} on the binary question.`),
        meta: {
          side,
          confidence: Math.round((brief.topClaim?.confidence ?? 0.6 + rng() * 0.3) * 100) / 100,
          horizon,
          ...(side === 'UNCERTAIN'
            ? {}
            : {
                falsifier: vague
                  ? { metric: 'adoption probably improves', threshold: 'a lot', deadline: 'soon' }
                  : falsifier,
              }),
        },
      };
    }
    case 'DECLARE_FALSIFIER':
      return { move: 'DECLARE_FALSIFIER', content: say('This is what would prove me wrong.'), meta: { falsifier } };
    case 'STEELMAN':
      return {
        move: 'STEELMAN',
        content: say(
          `The strongest case for ${brief.ask.target}'s view: ${fact} points their way and the downside is bounded.`,
        ),
        meta: {
          steelmanTarget: brief.ask.target,
          claimRepresented: say(`${brief.ask.target} holds that ${subject} ${side === 'NO' ? 'will deliver' : 'will not deliver'}.`),
          strongestReason: say(`${fact} points their way and the downside is bounded.`),
          falsifierRepresented: {
            metric: `share of ${subject} deployments meeting their stated target`,
            threshold: side === 'NO' ? 'below 40%' : 'at least 60%',
            deadline: '2027-12-31',
          },
        },
      };
    case 'GRADE_STEELMAN': {
      // Only a first attempt is ever found wanting, so a retried steelman always lands.
      const grade = brief.ask.attempts === 1 && rng() < 0.15 ? 'INCOMPLETE' : 'ACCURATE';
      return {
        move: 'GRADE_STEELMAN',
        content: say(
          grade === 'ACCURATE' ? 'That is my view, fairly put.' : 'Close, but it leaves out my main reason.',
        ),
        meta: {
          steelmanGrade: grade,
          ...(grade === 'ACCURATE' ? {} : { corrections: say('It leaves out my main reason: the cost of running it.') }),
        },
      };
    }
    case 'CLARIFY':
      return {
        move: 'CLARIFY',
        content: say(`To be precise about ${subject}: the target is the one stated in the plan.`),
        meta: {},
      };
    case 'PROVIDE_EVIDENCE': {
      const roll = rng();
      // A concession or a change of confidence names the message that moved it, as a live agent must.
      if (roll < 0.1 && brief.agent.committed && lastOther) {
        return {
          move: 'CONCEDE',
          replyTo: lastOther.id,
          content: say(`I concede that ${fact} cuts against part of my case.`),
          meta: { concededProposition: `${fact} weakens part of my case`, topClaimChanged: false },
        };
      }
      if (roll < 0.14 && brief.agent.side && brief.agent.side !== 'UNCERTAIN' && lastOther) {
        return {
          move: 'UPDATE_POSITION',
          replyTo: lastOther.id,
          content: say(`Given ${fact}, I am less sure than I was.`),
          meta: {
            priorPosition: brief.agent.side,
            newPosition: brief.agent.side,
            topClaimChanged: false,
            confidence: 0.55,
          },
        };
      }
      return {
        move: 'PROVIDE_EVIDENCE',
        content: say(
          `Evidence: ${fact} shows ${Math.round(20 + rng() * 60)}% of cases ${side === 'NO' ? 'missing' : 'meeting'} the target.`,
        ),
        meta: {
          ...(brief.ask.targetFalsifierOf ? { targetFalsifierOf: brief.ask.targetFalsifierOf } : {}),
          // Never a link: a made-up address is the pattern a model would copy. Its figures are its own.
          evidenceSource: 'ESTIMATE',
        },
      };
    }
    case 'CHALLENGE_EVIDENCE':
      return {
        move: 'CHALLENGE_EVIDENCE',
        replyTo: brief.ask.replyTo,
        content: say(`That evidence does not generalize: ${fact} comes from a self-selected sample.`),
        meta: {},
      };
  }
}

/** The crystallizer's output for an analysis brief. */
export function simulateAnalysis(seed: number, brief: AnalysisBrief): AnalysisOutput {
  const rng = rngFor(seed, 'analysis', brief.thread.id, Object.keys(brief.commitments).join(','));
  const question =
    brief.thread.binaryQuestion ?? `Will ${topicWords(brief.thread.topic)} meet its stated target within 18 months?`;
  const positions: AnalysisOutput['positions'] = {};
  const counterfactual: AnalysisOutput['counterfactual'] = {};
  for (const [agent, c] of Object.entries(brief.commitments)) {
    const side = c.side as 'YES' | 'NO' | 'UNCERTAIN';
    const falsifier = brief.falsifiers[agent];
    positions[agent] = {
      side,
      statement: say(c.statement.replace(`${SIMULATED_LABEL} `, '')),
      confidence: c.confidence,
      ...(falsifier ? { falsifier } : {}),
    };
    counterfactual[agent] = {
      wouldFlip: side !== 'UNCERTAIN',
      why: say(
        side === 'UNCERTAIN'
          ? 'No single result would settle it for me.'
          : 'The falsifier result would reverse my decision.',
      ),
    };
  }
  const first = Object.values(brief.falsifiers)[0];
  return {
    question,
    positions,
    resolutionCriteria: [
      first ? `${first.metric} measured by ${first.deadline}` : 'Target met in the first 18 months of operation',
      'Independent replication in at least 3 sites by 2027-12-31',
    ],
    counterfactual,
    commonGround: [{ statement: say('Both sides accept the pilot data as the relevant evidence'), type: 'empirical' }],
    confidence: Math.round((0.6 + rng() * 0.3) * 100) / 100,
  };
}

/** An agent's single pass: its top claim's side and confidence, and the question a debate would start from. */
export function simulateBaseline(seed: number, brief: BaselineBrief): BaselineAnswer {
  const rng = rngFor(seed, 'baseline', brief.agent.id);
  const subject = topicWords(brief.topic);
  const side = brief.topClaim?.side ?? (brief.agent.id.length % 2 === 0 ? 'YES' : 'NO');
  return {
    side,
    confidence: brief.topClaim?.confidence ?? Math.round((0.5 + rng() * 0.4) * 100) / 100,
    crux: `Will ${subject} meet its stated target within 18 months?`,
    reason: say(`${pick(rng, FACTS)} is what my view of ${subject} rests on.`),
  };
}

/** How much two cruxes' questions share, by the keywords the spawn gate compares. */
function overlap(brief: RelationBrief | RelationCheckBrief): { similarity: number; shared: number } {
  const a = new Set(keywords(brief.a.question));
  const b = new Set(keywords(brief.b.question));
  return { similarity: jaccard(a, b), shared: [...a].filter((w) => b.has(w)).length };
}

/**
 * The first call of the cross-thread analysis: questions that share most of their words are the
 * same question; questions every shared agent answers oppositely contradict; questions on the same
 * subject support one another (the later one, usually a reframe's deeper question, the deeper), with
 * a confidence that sometimes falls short of the threshold; anything else is no relation.
 */
export function simulateRelation(seed: number, brief: RelationBrief): RelationAnswer {
  const rng = rngFor(seed, 'relation', brief.a.thread, brief.b.thread);
  const { similarity, shared } = overlap(brief);
  const both = Object.keys(brief.a.positions).filter(
    (agent) => brief.a.positions[agent] !== 'UNCERTAIN' && (brief.b.positions[agent] ?? 'UNCERTAIN') !== 'UNCERTAIN',
  );
  const A = `"${brief.a.question}"`;
  const B = `"${brief.b.question}"`;
  if (similarity > 0.5)
    return { relation: 'DUPLICATE', confidence: 0.9, sketch: say(`${A} and ${B} ask the same thing in other words.`) };
  if (both.length >= 2 && both.every((agent) => brief.a.positions[agent] !== brief.b.positions[agent]))
    return {
      relation: 'CONTRADICTS',
      confidence: 0.85,
      sketch: say(`Every agent who answers both answers ${A} and ${B} oppositely.`),
    };
  if (shared >= 2)
    return {
      relation: 'SUPPORTS',
      deeper: 'B',
      confidence: Math.round((0.6 + rng() * 0.35) * 100) / 100,
      sketch: say(`If ${B} resolves YES, the case for ${A} is stronger: both turn on the same subject.`),
    };
  return { relation: 'NONE', confidence: 0.5, sketch: '' };
}

/** The second call: a duplicate by wording always stands; any other relation is turned down one time in four. */
export function simulateRelationCheck(seed: number, brief: RelationCheckBrief): RelationCheckAnswer {
  const rng = rngFor(seed, 'relation_check', brief.a.thread, brief.b.thread);
  const agrees = (brief.proposal.relation === 'DUPLICATE' && overlap(brief).similarity > 0.5) || rng() >= 0.25;
  return {
    agrees,
    note: say(agrees ? 'The reasoning holds for both questions as asked.' : 'The two questions can be answered apart.'),
  };
}

/**
 * The coalitions' labels: a camp that answers YES to most of its cruxes backs the idea, one that
 * answers NO doubts it; the subject's first words say on what.
 */
export function simulateLabels(_seed: number, brief: LabelsBrief): LabelsAnswer {
  const subject = keywords(brief.topic)[0] ?? 'idea';
  return {
    labels: brief.coalitions.map((c) => {
      const yes = c.positions.filter((p) => p.side === 'YES').length;
      const no = c.positions.length - yes;
      const word = yes > no ? 'backers' : no > yes ? 'doubters' : 'hedgers';
      return { members: [...c.members], label: say(`${subject.charAt(0).toUpperCase()}${subject.slice(1)} ${word}`) };
    }),
  };
}

/**
 * An agent asked whether a crystallized crux stands: now and then (one time in eight, on its first
 * version only) it challenges it, NOT_BINARY when the question has no "?", otherwise for a reason
 * drawn at random; otherwise it lets it stand.
 */
export function simulateCruxCheck(seed: number, brief: CruxCheckBrief): CruxCheckAnswer {
  const rng = rngFor(seed, 'crux_check', brief.thread.id, brief.agent.id, brief.thread.version);
  if (brief.thread.version > 0 || rng() >= 0.125)
    return { challenge: false, content: say('The crux states my position and the question fairly.') };
  const reason = brief.thread.question.trim().endsWith('?') ? pick(rng, CRUX_CHALLENGES) : 'NOT_BINARY';
  const why = {
    MIS_STATED: 'It records my position as firmer than I put it.',
    NOT_BINARY: 'It asks how much, not whether: it cannot be answered yes or no.',
    NOT_DECISION_RELEVANT: 'Either answer leaves the decision where it is.',
  }[reason];
  return { challenge: true, reason, content: say(why) };
}

/**
 * The crystallizer's review of a challenge: a crux challenged as not decision-relevant needs the
 * decision clarified first; any other is re-extracted from the thread, its question sharpened.
 */
export function simulateReview(seed: number, brief: ReviewBrief): ReviewAnswer {
  if (brief.challenge.reason === 'NOT_DECISION_RELEVANT')
    return { reextracted: null, needsClarification: say('Which decision the answer would change: the launch or the budget?') };
  const analysis = simulateAnalysis(seed, {
    protocol: 'crux',
    kind: 'analysis',
    topic: brief.topic,
    thread: { id: brief.thread.id, topic: brief.thread.topic, binaryQuestion: brief.thread.binaryQuestion },
    commitments: brief.commitments,
    falsifiers: brief.falsifiers,
  });
  const question = brief.thread.question.replace(/\??\s*$/, '');
  return { reextracted: { ...analysis, question: `${question}, as the resolution criteria measure it?` }, needsClarification: null };
}

/** The crux briefs' answers, registered in `core/sim/simulators.ts`. */
export const cruxSimulator = protocolSimulator<CruxBrief>('crux', {
  turn: simulateMove,
  analysis: simulateAnalysis,
  baseline: simulateBaseline,
  relation: simulateRelation,
  relation_check: simulateRelationCheck,
  labels: simulateLabels,
  crux_check: simulateCruxCheck,
  review: simulateReview,
});
