import type { LlmRequest, ModelTier } from '../../ports/llm';
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
 * The model request for each ask of an evaluation. The idea's own text (README, development,
 * research) and the persona's prompt are the stable head of every request; what this ask needs comes
 * last. Each request also carries the ask and the state as its `brief`, never sent to a model, so the
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
}

export interface EvaluationBrief {
  kind: 'evaluation_ask';
  ask: EvaluationAsk;
  state: EvaluationState;
}

function criterionLines(state: EvaluationState, taxonomy: Taxonomy, ids: readonly string[]): string {
  return ids
    .map((id) => {
      const c = taxonomy.criteria.find((k) => k.id === id);
      const s = state.scores[id];
      const now = s ? ` (now ${s.score}/10, confidence ${s.confidence})` : '';
      return c ? `- ${id} — ${c.name}${c.critical ? ' [critical]' : ''}: ${c.description} 1–2: ${c.scale.low} 9–10: ${c.scale.high}${now}` : `- ${id}${now}`;
    })
    .join('\n');
}

function base(prompts: EvaluationPrompts, persona: string, state: EvaluationState): Pick<LlmRequest<unknown>, 'system' | 'messages' | 'stablePrefix' | 'tier'> {
  const p = prompts.persona(persona);
  return {
    system: p.systemPrompt,
    tier: p.tier,
    messages: [{ role: 'user', content: `The idea under evaluation: "${state.idea.title}".\n\n${prompts.ideaText}` }],
    stablePrefix: 1,
  };
}

export function requestFor(ask: EvaluationAsk, state: EvaluationState, prompts: EvaluationPrompts): LlmRequest<unknown> {
  const brief: EvaluationBrief = { kind: 'evaluation_ask', ask, state };
  const t = prompts.taxonomy;
  const ask1 = (persona: string, text: string) => {
    const b = base(prompts, persona, state);
    return { ...b, messages: [...b.messages, { role: 'user' as const, content: text }], brief };
  };
  switch (ask.role) {
    case 'evaluator':
      return {
        ...ask1(
          `evaluator-${ask.category}`,
          `Score the idea on each of these criteria, 1 to 10 (10 is always good for the idea), with your confidence (0 to 1) and your reasoning from first principles:\n${criterionLines(state, t, ask.criteria)}`,
        ),
        schema: evaluatorAnswerSchema,
        schemaName: 'criterion_scores',
        maxTokens: 2000,
      };
    case 'redteam': {
      const earlier = state.challenges.map((c) => `- ${c.criterion}: ${c.challenge}`).join('\n') || '- none yet';
      const where = ask.focus
        ? `Challenge only ${ask.focus}; the researcher disputes its score.`
        : `The criteria most worth attacking (high scores, low confidence), best first:\n${criterionLines(state, t, ask.targets)}`;
      return {
        ...ask1(
          ask.persona,
          `Round ${ask.round}. Raise up to ${ask.suggestedCount} challenge(s), each aimed at one criterion, with a severity (CRITICAL, MAJOR, MINOR or NOTE). ${where}\nDo not repeat earlier challenges:\n${earlier}`,
        ),
        schema: redTeamAnswerSchema,
        schemaName: 'challenges',
        maxTokens: 1200,
      };
    }
    case 'defense': {
      const c = state.challenges.find((x) => x.id === ask.challengeId);
      const s = state.scores[ask.criterion];
      return {
        ...ask1(
          `evaluator-${ask.category}`,
          `Defend your score of ${s?.score}/10 on ${ask.criterion} (your reasoning was: ${s?.reasoning ?? '—'}) against this ${c?.severity} challenge from ${c?.persona}: "${c?.challenge}". Concede what is true.`,
        ),
        schema: defenseAnswerSchema,
        schemaName: 'defense',
        maxTokens: 800,
      };
    }
    case 'arbiter': {
      const c = state.challenges.find((x) => x.id === ask.challengeId);
      const s = state.scores[ask.criterion];
      const range = state.config.scoreAdjustmentRange;
      return {
        ...ask1(
          'arbiter',
          `Rule on this exchange about ${ask.criterion} (score now ${s?.score}/10).\nChallenge (${c?.persona}, ${c?.severity}): ${c?.challenge}\nDefence: ${c?.defense ?? '—'}\nName the winner (EVALUATOR, RED_TEAM or DRAW), a whole-number score adjustment between −${range} and +${range}, whether the winning side argued from first principles, any fallacies, and your reasoning.`,
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
            .map((c) => `  - ${c.persona}: ${c.challenge} → ${c.ruling?.winner} (${c.scoreBefore} → ${c.scoreAfter})`)
            .join('\n');
          return `- ${id}: positions in play ${positionsInPlay(state, ask.round, id).join(', ')}\n${rulings}`;
        })
        .join('\n');
      return {
        ...ask1(
          'synthesis',
          `Round ${ask.round} is over. For each criterion below pick the position that prevailed (one of the positions in play; do not average), with your confidence, the prevailing position in words, why, and the questions still open. List any genuinely new insights of this round.\n${lines}`,
        ),
        schema: synthesisAnswerSchema,
        schemaName: 'round_synthesis',
        maxTokens: 2000,
      };
    }
    case 'narrative':
      return {
        ...ask1(
          'synthesis',
          `The evaluation is locked. Write its narrative: an executive summary, key strengths, key weaknesses, critical assumptions, unresolved questions, and a recommendation (PURSUE, REFINE, PAUSE or ABANDON) with its reasoning. Final scores:\n${criterionLines(state, t, state.criteria.map((c) => c.id))}`,
        ),
        schema: narrativeSchema,
        schemaName: 'narrative',
        maxTokens: 1500,
      };
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
