import { memoryBlock } from '../../memory/relevance';
import type { LlmRequest, LlmTool, ModelTier } from '../../ports/llm';
import type { Taxonomy } from '../../taxonomy/taxonomy';
import {
  arbiterAnswerSchema,
  defenseAnswerSchema,
  evaluatorAnswerSchema,
  narrativeSchema,
  redTeamAnswerSchema,
  synthesisAnswerSchema,
} from '../answers';
import type { EvaluationAsk, EvaluationState } from '../state';
import { positionsInPlay } from '../step';

/**
 * The model request for each ask of an evaluation. The head of every request is, most shared first:
 * every answer shape of the evaluation (one tool set, so the cache prefix is the same whatever the
 * role), the idea's own text (README, development, research) with the rubric it is judged by, then
 * the persona's prompt; what this ask needs comes last, in the one message. Each request also carries the ask and the state as its `brief`, never sent to a model, so the
 * offline simulator can answer the same requests.
 */
export interface RolePrompt {
  systemPrompt: string;
  tier: ModelTier;
}

export interface EvaluationPrompts {
  /** `evaluator-<category>`, the red-team persona ids, `arbiter`, `synthesis`. */
  persona(id: string): RolePrompt;
  /** The idea's inputs as markdown. */
  ideaText: string;
  taxonomy: Taxonomy;
  /** Earlier runs' episodes (core/memory), carried after the rubric; none: the head reads as before. */
  memory?: readonly string[];
}

/**
 * The brief of an evaluation's request (see `LlmBrief`): the ask and the state it was asked in, one
 * kind per role; `core/evaluation/simulator.ts` answers them.
 */
export type EvaluationBrief = {
  [R in EvaluationAsk['role']]: {
    protocol: 'evaluation';
    kind: R;
    ask: Extract<EvaluationAsk, { role: R }>;
    state: EvaluationState;
  };
}[EvaluationAsk['role']];

export function evaluationBrief(ask: EvaluationAsk, state: EvaluationState): EvaluationBrief {
  // The kind is the ask's role, so the two always agree; the type cannot see that through a union.
  return { protocol: 'evaluation', kind: ask.role, ask, state } as EvaluationBrief;
}

/**
 * A criterion as an agent needs it to judge a score: what it measures, its scale with the direction
 * spelled out (a risk criterion scores 10 when the risk is low), and where it stands now.
 */
function criterionLines(
  state: EvaluationState,
  taxonomy: Taxonomy,
  ids: readonly string[],
  show: { scale?: boolean; reasoning?: boolean } = { scale: true },
): string {
  return ids
    .map((id) => {
      const c = taxonomy.criteria.find((k) => k.id === id);
      const s = state.scores[id];
      const now = s ? ` Now ${s.score}/10, confidence ${s.confidence}.` : '';
      const why = show.reasoning && s ? ` Reasoning behind it: "${s.reasoning}"` : '';
      if (!c) return `- ${id}:${now}${why}`;
      const scale = show.scale
        ? ` Scale (higher is always better for the idea): 1–2 = ${c.scale.low.replace(/\.$/, '')}; 9–10 = ${c.scale.high.replace(/\.$/, '')}.`
        : '';
      return `- ${id} — ${c.name}${c.critical ? ' [critical]' : ''}: ${c.description}${scale}${now}${why}`;
    })
    .join('\n');
}

/** What was already said about a criterion: earlier challenges, their defences and rulings. */
function historyOf(state: EvaluationState, criterion: string, except?: string): string {
  const lines = state.challenges
    .filter((c) => c.criterion === criterion && c.id !== except)
    .map((c) => {
      const ruling = c.ruling
        ? ` Ruling: ${c.ruling.winner}, adjustment ${c.ruling.scoreAdjustment} — ${c.ruling.reasoning}`
        : '';
      return `- round ${c.round}, ${c.persona} (${c.severity}): ${c.challenge}\n  Defence: ${c.defense ?? '—'}${ruling}`;
    });
  return lines.length > 0 ? lines.join('\n') : '- none';
}

/**
 * The rubric every agent of the evaluation judges by: each criterion with its scale and direction.
 * It is the same for every request, so it sits in the shared head, read from the cache after the
 * first call of each model.
 */
function rubric(state: EvaluationState, taxonomy: Taxonomy): string {
  const lines = state.criteria.map((info) => {
    const c = taxonomy.criteria.find((k) => k.id === info.id);
    if (!c) return `- ${info.id} — ${info.name}`;
    return `- ${c.id} — ${c.name} (${c.category})${c.critical ? ' [critical]' : ''}: ${c.description} 1–2 = ${c.scale.low.replace(/\.$/, '')}; 9–10 = ${c.scale.high.replace(/\.$/, '')}.`;
  });
  return `# The rubric

Every criterion is scored 1 to 10, and higher is always better for the idea (a risk criterion scores 10 when the risk is low).
${lines.join('\n')}`;
}

/** The head shared by every agent of the evaluation: the idea under evaluation, the rubric, the memory. */
function sharedHead(prompts: EvaluationPrompts, state: EvaluationState): string {
  const memory = prompts.memory?.length ? `\n\n${memoryBlock(prompts.memory)}` : '';
  return `# The idea under evaluation: "${state.idea.title}"

${prompts.ideaText.trim()}

${rubric(state, prompts.taxonomy)}${memory}`;
}

/** Every answer shape of an evaluation, in one order: each request offers them all (see `LlmRequest.toolset`). */
export function evaluationToolset(state: EvaluationState): LlmTool[] {
  return [
    {
      name: 'criterion_scores',
      description: 'Your scores for the criteria you were given.',
      schema: evaluatorAnswerSchema,
    },
    { name: 'challenges', description: 'Your challenges to the scores.', schema: redTeamAnswerSchema },
    { name: 'defense', description: 'Your defence of the score against the challenge.', schema: defenseAnswerSchema },
    {
      name: 'ruling',
      description: 'Your ruling on the exchange.',
      schema: arbiterAnswerSchema(state.config.scoreAdjustmentRange),
    },
    { name: 'round_synthesis', description: "The round's synthesis.", schema: synthesisAnswerSchema },
    { name: 'narrative', description: "The evaluation's narrative.", schema: narrativeSchema },
  ] as LlmTool[];
}

/**
 * What the researcher's debate options add to the arbiter's ask (nothing at the defaults, so a
 * default evaluation sends what it always sent).
 */
const ARBITER_OPTION_WORDS = {
  firstPrinciples: {
    lenient:
      ' Hold the sides to first principles leniently: a sourced analogy or a cited authority is acceptable evidence; name a fallacy only when it decides the exchange.',
    moderate: '',
    strict:
      ' Hold both sides strictly to first principles: name every appeal to authority, analogy, circular argument, unexamined assumption and survivorship bias; an exchange in which you name one earns no first-principles bonus.',
  },
  passive: (range: number) =>
    ` You rule at the end of the round: the scores move once, by the sum of your adjustments on a criterion, never more than ${range} either way in the round.`,
} as const;

function base(
  prompts: EvaluationPrompts,
  persona: string,
  state: EvaluationState,
): Pick<LlmRequest<unknown>, 'system' | 'systemParts' | 'toolset' | 'messages' | 'stablePrefix' | 'tier'> {
  const p = prompts.persona(persona);
  const systemParts = [sharedHead(prompts, state), p.systemPrompt];
  return {
    system: systemParts.join('\n\n'),
    systemParts,
    toolset: evaluationToolset(state),
    tier: p.tier,
    messages: [],
    stablePrefix: 0,
  };
}

/** The evaluation's own clock, as a date: deadlines and "within 18 months" are read from it. */
function today(state: EvaluationState): string {
  return state.clock.slice(0, 10);
}

const EVIDENCE_RULE =
  'Rely on the idea text above (quote it) and on general knowledge stated as such; label any figure that is not in the idea "unverified", and never invent a source or a link.';

export function requestFor(
  ask: EvaluationAsk,
  state: EvaluationState,
  prompts: EvaluationPrompts,
): LlmRequest<unknown> {
  const brief = evaluationBrief(ask, state);
  const t = prompts.taxonomy;
  const ask1 = (persona: string, text: string) => {
    const b = base(prompts, persona, state);
    return {
      ...b,
      messages: [...b.messages, { role: 'user' as const, content: `Today is ${today(state)}.\n${text}` }],
      brief,
    };
  };
  switch (ask.role) {
    case 'evaluator':
      return {
        ...ask1(
          `evaluator-${ask.category}`,
          `Score the idea on each of these criteria, 1 to 10 (10 is always good for the idea), with your reasoning from first principles first, then the score and your confidence (0 to 1). ${EVIDENCE_RULE}\n${criterionLines(state, t, ask.criteria)}`,
        ),
        schema: evaluatorAnswerSchema,
        schemaName: 'criterion_scores',
        maxTokens: 2000,
      };
    case 'redteam': {
      // Earlier challenges with how they ended, so a lost point is not raised again unchanged.
      const earlier =
        state.challenges
          .map(
            (c) => `- ${c.criterion}: ${c.challenge}${c.ruling ? ` → ${c.ruling.winner}: ${c.ruling.reasoning}` : ''}`,
          )
          .join('\n') || '- none yet';
      const where = ask.focus
        ? `Challenge only ${ask.focus}; the researcher disputes its score.\n${criterionLines(state, t, [ask.focus], { scale: true, reasoning: true })}`
        : `The criteria most worth attacking (high scores, low confidence), best first, each with the evaluator's reasoning to quote:\n${criterionLines(state, t, ask.targets, { scale: true, reasoning: true })}`;
      return {
        ...ask1(
          ask.persona,
          `Round ${ask.round}. Raise up to ${ask.suggestedCount} challenge(s), each aimed at one criterion, with a severity (CRITICAL, MAJOR, MINOR or NOTE). Quote the part of the evaluator's reasoning you attack. ${EVIDENCE_RULE} ${where}\nDo not repeat earlier challenges:\n${earlier}`,
        ),
        schema: redTeamAnswerSchema,
        schemaName: 'challenges',
        maxTokens: 1200,
      };
    }
    case 'defense': {
      const c = state.challenges.find((x) => x.id === ask.challengeId);
      return {
        ...ask1(
          `evaluator-${ask.category}`,
          `Defend your score on ${ask.criterion} against this ${c?.severity} challenge from ${c?.persona}: "${c?.challenge}". Concede what is true. ${EVIDENCE_RULE}\n` +
            `The criterion, its scale and your reasoning:\n${criterionLines(state, t, [ask.criterion], { scale: true, reasoning: true })}\n` +
            `Earlier challenges on it, your defences and the rulings:\n${historyOf(state, ask.criterion, ask.challengeId)}`,
        ),
        schema: defenseAnswerSchema,
        schemaName: 'defense',
        maxTokens: 800,
      };
    }
    case 'arbiter': {
      const c = state.challenges.find((x) => x.id === ask.challengeId);
      const range = state.config.scoreAdjustmentRange;
      return {
        ...ask1(
          'arbiter',
          `Rule on this exchange about ${ask.criterion}.\n` +
            `The criterion, its scale and the evaluator's reasoning:\n${criterionLines(state, t, [ask.criterion], { scale: true, reasoning: true })}\n` +
            `Earlier exchanges on it and their rulings:\n${historyOf(state, ask.criterion, ask.challengeId)}\n` +
            `Challenge (${c?.persona}, ${c?.severity}): ${c?.challenge}\nDefence: ${c?.defense ?? '—'}\n` +
            `Give your reasoning first, then the winner (EVALUATOR, RED_TEAM or DRAW), a whole-number score adjustment between −${range} and +${range} (negative lowers the score, which is always worse for the idea), ` +
            'firstPrinciplesBonus (true when the winning side — either side on a DRAW — reasoned from fundamentals, stated a falsifiable claim, quantified its uncertainty or steelmanned the other; false when neither did), and any fallacies. A majority or an unsourced number is not evidence.' +
            ARBITER_OPTION_WORDS.firstPrinciples[state.config.firstPrinciples] +
            (state.config.arbiter === 'passive' ? ARBITER_OPTION_WORDS.passive(range) : ''),
        ),
        schema: arbiterAnswerSchema(range),
        schemaName: 'ruling',
        maxTokens: 800,
      };
    }
    case 'synthesis': {
      const lines = ask.touched
        .map((id) => {
          const rulings = state.challenges
            .filter((c) => c.round === ask.round && c.criterion === id && c.ruling)
            .map(
              (c) =>
                `  - ${c.persona}: ${c.challenge} → ${c.ruling?.winner} (${c.scoreBefore} → ${c.scoreAfter}): ${c.ruling?.reasoning}`,
            )
            .join('\n');
          const s = state.scores[id];
          const now = s ? ` (current score ${s.score}/10, confidence ${s.confidence})` : '';
          return `- ${id}${now}: positions in play ${positionsInPlay(state, ask.round, id).join(', ')}\n${rulings}`;
        })
        .join('\n');
      return {
        ...ask1(
          'synthesis',
          `Round ${ask.round} is over. For each criterion below give why first, then the position that prevailed in words, the score of that position (one of the positions in play; do not average), your confidence, and the questions still open. The current confidences decide whether the evaluation has converged: raise one only when this round settled something. List any genuinely new insights of this round.\n${lines}`,
        ),
        schema: synthesisAnswerSchema,
        schemaName: 'round_synthesis',
        maxTokens: 2000,
      };
    }
    case 'narrative': {
      const reasons = state.criteria
        .map((c) => {
          const s = state.scores[c.id];
          return s
            ? `- ${c.id} — ${c.name}${c.critical ? ' [critical]' : ''}: ${s.score}/10, confidence ${s.confidence}. Why: ${s.reasoning}`
            : `- ${c.id} — ${c.name}: not scored`;
        })
        .join('\n');
      const insights = state.rounds.flatMap((r) => r.newInsights);
      return {
        ...ask1(
          'synthesis',
          `The evaluation is locked. Write its narrative: an executive summary, key strengths, key weaknesses, critical assumptions, unresolved questions, and your reasoning before a recommendation (PURSUE, REFINE, PAUSE or ABANDON). Final scores, each with the reason it stands:\n${reasons}\nInsights of the rounds:\n${insights.map((i) => `- ${i}`).join('\n') || '- none'}`,
        ),
        schema: narrativeSchema,
        schemaName: 'narrative',
        maxTokens: 1500,
      };
    }
  }
}

/** The input that carries a model's answer to an ask. */
export function inputFor(ask: EvaluationAsk, answer: unknown, at: string) {
  switch (ask.role) {
    case 'evaluator':
      return { kind: 'evaluator' as const, category: ask.category, at, answer: answer as never };
    case 'redteam':
      return { kind: 'redteam' as const, persona: ask.persona, round: ask.round, at, answer: answer as never };
    case 'defense':
      return { kind: 'defense' as const, challengeId: ask.challengeId, at, answer: answer as never };
    case 'arbiter':
      return { kind: 'arbiter' as const, challengeId: ask.challengeId, at, answer: answer as never };
    case 'synthesis':
      return { kind: 'synthesis' as const, round: ask.round, at, answer: answer as never };
    case 'narrative':
      return { kind: 'narrative' as const, at, answer: answer as never };
  }
}
