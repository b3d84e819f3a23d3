import type { cruxesChannels } from '../../contract';
import { globalCruxGraph, type GraphDebate } from '../../crux/global-graph';
import type { AppContext, AreaHandlers } from './app-context';
import type { DebateReads } from './debate-view/debate-reads';

/**
 * The handler of core/contract/cruxes-channels.ts: the global crux graph, a fold over every debate's
 * log (through the digests the other debate views share). A log that cannot be folded is logged and
 * left out rather than failing the view, as the ledger does.
 */
export function cruxesHandlers(ctx: AppContext, reads: DebateReads): AreaHandlers<keyof typeof cruxesChannels> {
  return {
    impl: {
      'cruxes:graph': () => {
        ctx.open();
        const debates: GraphDebate[] = ctx.service.list().flatMap((row) => {
          try {
            const { header, state } = reads.digests.get(row.id);
            return [{ id: header.id, topic: header.topic, ideaSlug: header.ideaSlug, createdAt: header.createdAt, state }];
          } catch (error) {
            ctx.log.warn(`debate ${row.id} could not be read for the crux graph`, {
              error: error instanceof Error ? error.message : String(error),
            });
            return [];
          }
        });
        return globalCruxGraph(debates);
      },
    },
  };
}
