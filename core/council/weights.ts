import { z } from 'zod';
import {
  agentSchema,
  COUNCIL_AGENTS,
  type CouncilAgent,
  type CouncilValue,
  DIVERSITY_FLOOR,
  MAX_DELTA,
  round,
  valueSchema,
  WEIGHT_MAX,
  WEIGHT_MIN,
  type Weights,
} from './values';

export const weightAdjustmentSchema = z.strictObject({
  agent: agentSchema,
  value: valueSchema,
  delta: z.number().min(-1).max(1),
});
export type WeightAdjustment = z.infer<typeof weightAdjustmentSchema>;

export interface AppliedAdjustment extends WeightAdjustment {
  from: number;
  to: number;
}

export interface RefusedAdjustment extends WeightAdjustment {
  reason: string;
}

/** Population standard deviation of one value's weight across the three agents. */
export function spread(weights: Weights, value: CouncilValue): number {
  const xs = COUNCIL_AGENTS.map((a) => weights[a][value]);
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
}

/** Why `adjustment` may not be applied to `weights`, or null when it may. */
export function refusal(weights: Weights, adjustment: WeightAdjustment): string | null {
  const { agent, value, delta } = adjustment;
  // Compared after rounding: 0.05 written in a file is 0.05, not a hair above it.
  if (round(Math.abs(delta)) > MAX_DELTA) return `a weight moves by at most ${MAX_DELTA} at a time`;
  const from = weights[agent][value];
  const to = round(from + delta);
  if (to < WEIGHT_MIN || to > WEIGHT_MAX)
    return `${agent}'s ${value} would be ${to}, outside [${WEIGHT_MIN}, ${WEIGHT_MAX}]`;
  const before = round(spread(weights, value));
  const after = round(spread(withWeight(weights, agent, value, to), value));
  // The floor protects a diversity the council has; a value that never had it may still move.
  if (before >= DIVERSITY_FLOOR && after < DIVERSITY_FLOOR)
    return `the spread of ${value} across the agents would fall from ${round(before, 3)} to ${round(after, 3)}, below ${DIVERSITY_FLOOR}`;
  return null;
}

function withWeight(weights: Weights, agent: CouncilAgent, value: CouncilValue, to: number): Weights {
  return { ...weights, [agent]: { ...weights[agent], [value]: to } };
}

/**
 * Applies adjustments in order, each judged against the weights the ones before it left; the
 * refused ones change nothing and say why.
 */
export function applyAdjustments(
  weights: Weights,
  adjustments: readonly WeightAdjustment[],
): { weights: Weights; applied: AppliedAdjustment[]; refused: RefusedAdjustment[] } {
  let current = weights;
  const applied: AppliedAdjustment[] = [];
  const refused: RefusedAdjustment[] = [];
  for (const adjustment of adjustments) {
    const reason = refusal(current, adjustment);
    if (reason !== null) {
      refused.push({ ...adjustment, reason });
      continue;
    }
    const from = current[adjustment.agent][adjustment.value];
    const to = round(from + adjustment.delta);
    current = withWeight(current, adjustment.agent, adjustment.value, to);
    applied.push({ ...adjustment, from, to });
  }
  return { weights: current, applied, refused };
}
