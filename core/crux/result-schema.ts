import { z } from 'zod';
import { commonGroundItemSchema } from './analysis';
import { coalitionSchema } from './coalitions';
import { conformitySchema } from './conformity';
import { systemMetricsSchema } from './counters';
import { cruxRecordSchema, cruxRelationSchema } from './record-schemas';
import { count } from './schema-parts';
import { REGIMES, THREAD_STATUSES } from './vocabulary';

// The debate's outcome as `buildResult` (./result.ts) makes it: the shape the CLI prints, the
// checks compare and the contract hands the UI (core/contract/crux.ts derives its strict copy).
// Objects strip unknown keys here; the result's own test parses real results with the strict copy,
// so a field `buildResult` adds without adding it here fails there.

/** A crux as the result reports it: a crystallized crux with its numbers rounded. */
export const cruxSummarySchema = cruxRecordSchema;
export type CruxSummary = z.infer<typeof cruxSummarySchema>;

export const threadResultSchema = z.object({
  id: z.string(),
  topic: z.string(),
  status: z.enum(THREAD_STATUSES),
  binaryQuestion: z.string().nullable(),
  participants: z.array(z.string()),
  stages: z.object({
    discovery: z.object({ messages: count }),
    cruxLock: z.object({ messages: count, lockAttempts: count }),
    evidence: z.object({ messages: count }),
  }),
  lockFailures: z.array(z.string()),
  crux: cruxSummarySchema.nullable(),
  /**
   * Only on a MERGED thread: the thread it was merged into (its crux a confirmed duplicate, or the
   * same crux while both were open).
   */
  mergedInto: z.string().optional(),
});
export type ThreadResult = z.infer<typeof threadResultSchema>;

/** What a crux debate found (mid-debate it says `partial`). */
export const cruxResultSchema = z.object({
  topic: z.string(),
  regime: z.enum(REGIMES),
  primaryCrux: z.string().nullable(),
  irreducibleCruxes: z.array(z.string()),
  commonGround: z.array(commonGroundItemSchema),
  coalitions: z.array(coalitionSchema),
  threads: z.array(threadResultSchema),
  systemMetrics: systemMetricsSchema,
  /**
   * Present only when a position changed: which changes followed a new argument and which only the
   * majority (./conformity.ts). Left out otherwise, so a result without one reads as before.
   */
  conformity: conformitySchema.optional(),
  /**
   * Present only when the cross-thread analysis looked at a pair of cruxes (./relations.ts): each
   * relation proposed, dismissed, confirmed or rejected, in the order proposed.
   */
  relations: z.array(cruxRelationSchema).optional(),
  /**
   * Only on a partial result (a limit or a stop rule ended the debate with threads open): its open
   * threads are work in progress, so what it says is said with low confidence.
   */
  confidence: z.literal('LOW').optional(),
});
export type CruxResult = z.infer<typeof cruxResultSchema>;
