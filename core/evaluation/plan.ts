import type { CallPlan } from '../engine/cost-plan';
import type { EvaluationConfig } from './config';
import type { Mode } from './vocabulary';

/**
 * How many calls an evaluation makes, before it starts: one score per category, then each round a
 * challenge list per red-team persona, a defence and a ruling per kept challenge and a synthesis, and a
 * narrative at the end. The worst case runs every round the mode allows with every challenge kept.
 */

export interface EvaluationPlanInput {
  mode: Mode;
  config: EvaluationConfig;
  /** Categories of the taxonomy: one evaluator call each. */
  categories: number;
  /** Red-team personas of the mode: one challenge call each per round. */
  redTeam: number;
}

/**
 * Rounds past the first that scores take to settle: convergence needs `stability.rounds` stable rounds
 * in a row, and on the fake it comes at the third or fourth round.
 */
const SETTLING_ROUNDS = 1.5;

/** A round keeps nearly its full share of challenges (4.7 of 5 on the fake). */
const KEPT_SHARE = 0.95;

export function planEvaluation(input: EvaluationPlanInput): CallPlan {
  const { config } = input;
  const maxRounds = config.maxRounds;
  const rounds = Math.min(maxRounds, config.stability.rounds + SETTLING_ROUNDS);
  const kept = config.challengesPerRound * KEPT_SHARE;
  const calls: CallPlan['calls'] = [
    { kind: 'criterion_scores', likely: input.categories, worst: input.categories },
    { kind: 'challenges', likely: rounds * input.redTeam, worst: maxRounds * input.redTeam },
    { kind: 'defense', likely: rounds * kept, worst: maxRounds * config.challengesPerRound },
    { kind: 'ruling', likely: rounds * kept, worst: maxRounds * config.challengesPerRound },
    { kind: 'round_synthesis', likely: rounds, worst: maxRounds },
    { kind: 'narrative', likely: 1, worst: 1 },
  ];
  const likely = Math.round(calls.reduce((s, c) => s + c.likely, 0));
  const worst = calls.reduce((s, c) => s + c.worst, 0);
  return {
    protocol: 'evaluation',
    size: input.mode,
    calls,
    basis:
      `about ${likely} calls: ${input.categories} category scores, ${rounds} round${rounds === 1 ? '' : 's'} of ` +
      `${input.redTeam} red-team challenge lists with ${config.challengesPerRound} challenges defended and ruled, ` +
      `a synthesis per round and a narrative; at most ${worst} calls over ${maxRounds} round${maxRounds === 1 ? '' : 's'}`,
  };
}

/**
 * One more debate round, as "Add round" grants it: a challenge list per red-team persona, a defence
 * and a ruling per kept challenge, and the round's synthesis (the narrative is in the plan already).
 */
export function planRound(input: Omit<EvaluationPlanInput, 'categories'>): CallPlan {
  const cap = input.config.challengesPerRound;
  const calls: CallPlan['calls'] = [
    { kind: 'challenges', likely: input.redTeam, worst: input.redTeam },
    { kind: 'defense', likely: cap * KEPT_SHARE, worst: cap },
    { kind: 'ruling', likely: cap * KEPT_SHARE, worst: cap },
    { kind: 'round_synthesis', likely: 1, worst: 1 },
  ];
  const worst = calls.reduce((s, c) => s + c.worst, 0);
  return {
    protocol: 'evaluation',
    size: input.mode,
    calls,
    basis: `one more round: ${input.redTeam} red-team challenge lists, up to ${cap} challenges defended and ruled, and its synthesis; at most ${worst} calls`,
  };
}
