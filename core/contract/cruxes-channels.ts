import { z } from 'zod';
import { crossRelationSchema } from '../crux/cross-debate';
import { globalCruxGraphSchema } from '../crux/global-graph';
import { count } from '../crux/schema-parts';
import { PROVIDERS } from './entities';
import { strictCopy } from './strict-copy';

/**
 * `cruxes:*`: the cruxes of every debate of the workspace taken together (core/crux/global-graph.ts):
 * duplicates merged and dependencies between cruxes (confirmed by a second call within a debate, and
 * across debates once `cruxes:check` has asked; until then the same question by wording), root
 * cruxes, cruxes shared by several ideas and the questions worth debating next.
 * Spread into `channels` of core/contract.ts.
 */

/** The global crux graph as the crux map's workspace mode draws it. */
export const globalCruxGraphViewSchema = strictCopy(globalCruxGraphSchema);
export type GlobalCruxGraphView = z.infer<typeof globalCruxGraphViewSchema>;

/** What one pass of the cross-debate analysis asked and what it cost. */
export const crossCheckViewSchema = z.strictObject({
  /** Each pair asked, as recorded (first call, and second call where the first passed its thresholds). */
  relations: z.array(strictCopy(crossRelationSchema)),
  llmCalls: count,
  costUsd: z.number().nonnegative(),
  /** Pairs the first pass found that this pass did not ask (beyond maxPairs or the budget). */
  left: count,
  stoppedBy: z.enum(['budget', 'maxPairs']).nullable(),
});
export type CrossCheckView = z.infer<typeof crossCheckViewSchema>;

export const cruxesChannels = {
  /** The global crux graph over every debate's log (folded, never the index's copy of a result). */
  'cruxes:graph': { input: z.strictObject({}), output: globalCruxGraphViewSchema },
  /**
   * Asks a model about the pairs of cruxes of different debates the words pick out (most similar
   * first): a first call, and a second to confirm what passes the thresholds; kept in the workspace.
   */
  'cruxes:check': {
    input: z.strictObject({
      provider: z.enum(PROVIDERS),
      seed: z.number().int().nonnegative().optional(),
      maxPairs: z.number().int().positive().max(200).optional(),
      budgetUsd: z.number().positive().max(20).optional(),
    }),
    output: crossCheckViewSchema,
  },
} as const;
