import type { CallPlan } from '../engine/cost-plan';
import type { EvaluationConfig } from '../evaluation/config';
import type { Mode } from '../evaluation/vocabulary';
import type { ModelTier } from '../ports/llm';

/**
 * The call plans of the pipeline's own steps, priced like any protocol's (engine/cost-plan.ts).
 * Development and classification are one structured call each; the red team is one round of a
 * reopened evaluation. The evaluation step uses the evaluation's own plan (evaluation/plan.ts).
 */

export function planDevelopment(tier?: ModelTier): CallPlan {
  return {
    protocol: 'development',
    size: 'questions',
    calls: [{ kind: 'questions', likely: 1, worst: 1, ...(tier ? { tier } : {}) }],
    basis: 'one call: the development agent asks what the idea is missing',
  };
}

export function planClassification(tier?: ModelTier): CallPlan {
  return {
    protocol: 'classification',
    size: 'classify',
    calls: [{ kind: 'classification', likely: 1, worst: 1, ...(tier ? { tier } : {}) }],
    basis: 'one call: the classifier picks the type, tags and relationships',
  };
}

/**
 * What an evaluation let through the review gate has left: the narrative call that locks it (one
 * held where its budget or time ran out needs none: it locks from its figures).
 */
export function planLock(mode: Mode): CallPlan {
  return {
    protocol: 'evaluation',
    size: mode,
    calls: [{ kind: 'narrative', likely: 1, worst: 1 }],
    basis: 'one call: the narrative that locks the evaluation let through the review gate',
  };
}

/** Share of a round's challenge cap that is kept and debated (evaluation/plan.ts measured 0.95). */
const KEPT_SHARE = 0.95;

/**
 * One red-team round on one criterion: a challenge list per persona of the mode, a defence and a
 * ruling per kept challenge, the round's synthesis and the narrative that locks it.
 */
export function planRedTeamRound(input: { mode: Mode; config: EvaluationConfig; redTeam: number }): CallPlan {
  const cap = input.config.challengesPerRound;
  const calls: CallPlan['calls'] = [
    { kind: 'challenges', likely: input.redTeam, worst: input.redTeam },
    { kind: 'defense', likely: cap * KEPT_SHARE, worst: cap },
    { kind: 'ruling', likely: cap * KEPT_SHARE, worst: cap },
    { kind: 'round_synthesis', likely: 1, worst: 1 },
    { kind: 'narrative', likely: 1, worst: 1 },
  ];
  const worst = calls.reduce((s, c) => s + c.worst, 0);
  return {
    protocol: 'evaluation',
    size: input.mode,
    calls,
    basis: `one red-team round on the highest-scored criterion: ${input.redTeam} challenge lists, up to ${cap} challenges defended and ruled, a synthesis and a narrative; at most ${worst} calls`,
  };
}
