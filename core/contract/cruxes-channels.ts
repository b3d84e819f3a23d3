import { z } from 'zod';
import { globalCruxGraphSchema } from '../crux/global-graph';
import { strictCopy } from './strict-copy';

/**
 * `cruxes:*`: the cruxes of every debate of the workspace taken together (core/crux/global-graph.ts):
 * duplicates merged (confirmed within a debate, the same question across debates), dependencies
 * between cruxes, root cruxes, cruxes shared by several ideas and the questions worth debating next.
 * Spread into `channels` of core/contract.ts.
 */

/** The global crux graph as the crux map's workspace mode draws it. */
export const globalCruxGraphViewSchema = strictCopy(globalCruxGraphSchema);
export type GlobalCruxGraphView = z.infer<typeof globalCruxGraphViewSchema>;

export const cruxesChannels = {
  /** The global crux graph over every debate's log (folded, never the index's copy of a result). */
  'cruxes:graph': { input: z.strictObject({}), output: globalCruxGraphViewSchema },
} as const;
