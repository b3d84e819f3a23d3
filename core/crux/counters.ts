import { z } from 'zod';
import { count, countsOf } from './schema-parts';
import { BLOCK_REASONS, INTERVENTION_KINDS, SPAWN_REJECTIONS } from './vocabulary';

// What a debate counts as it goes (`CruxCounters`, in the state) and what its result reports of
// them (`SystemMetrics`). The result reports most counts as they are; it turns the two steelman
// grading counts into a rate and adds the model usage. Every count is defined once here, and the
// two shapes are put together from the same fields, in the order the result has always listed them.

/** Counts the result reports as they are, before the steelman grading ones… */
const leadingCounts = {
  messagesTotal: count,
  messagesBlocked: count,
  reasonsBlocked: countsOf(BLOCK_REASONS),
  moderatorInterventions: countsOf(INTERVENTION_KINDS),
  cruxLockAttempts: count,
  cruxLockSuccesses: count,
  cruxLockFailures: count,
  steelmanAttempts: count,
  steelmanRetries: count,
};

/** …and after them. */
const trailingCounts = {
  cheapConcessions: count,
  horizonMismatches: count,
  dcgPromotions: count,
  threadsSpawned: count,
  threadSpawnRejections: countsOf(SPAWN_REJECTIONS),
};

export const cruxCountersSchema = z.object({
  ...leadingCounts,
  /** Steelman attempts graded (replaced ones included) and those graded ACCURATE: the rate's terms. */
  steelmanGraded: count,
  steelmanAccurate: count,
  ...trailingCounts,
});
export type CruxCounters = z.infer<typeof cruxCountersSchema>;

/** Model usage, filled in by a live driver; a replay makes no model calls. */
export const llmUsageSchema = z.object({
  llmCalls: count,
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  costUsd: z.number().nonnegative(),
});
export type LlmUsage = z.infer<typeof llmUsageSchema>;

export const NO_LLM_USAGE: LlmUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 };

export const systemMetricsSchema = z.object({
  ...leadingCounts,
  /** ACCURATE grades over graded attempts, to four decimals; 0 before any grade. */
  steelmanAccuracyRate: z.number(),
  ...trailingCounts,
  ...llmUsageSchema.shape,
});
export type SystemMetrics = z.infer<typeof systemMetricsSchema>;

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of keys) out[k] = 0;
  return out;
}

export function emptyCounters(): CruxCounters {
  return {
    messagesTotal: 0,
    messagesBlocked: 0,
    reasonsBlocked: zeroes(BLOCK_REASONS),
    moderatorInterventions: zeroes(INTERVENTION_KINDS),
    cruxLockAttempts: 0,
    cruxLockSuccesses: 0,
    cruxLockFailures: 0,
    steelmanAttempts: 0,
    steelmanRetries: 0,
    steelmanGraded: 0,
    steelmanAccurate: 0,
    cheapConcessions: 0,
    horizonMismatches: 0,
    dcgPromotions: 0,
    threadsSpawned: 0,
    threadSpawnRejections: zeroes(SPAWN_REJECTIONS),
  };
}
