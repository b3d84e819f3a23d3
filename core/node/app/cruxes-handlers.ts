import type { cruxesChannels } from '../../contract';
import { type CrossRelation, crossCandidates, withRelations } from '../../crux/cross-debate';
import { globalCruxGraph, type GraphDebate } from '../../crux/global-graph';
import { checkCrossDebate } from '../../crux/live/cross-debate-check';
import { readCrossRelations, writeCrossRelations } from '../debates/cross-relations-file';
import { workspaceResources } from '../runs/run-resources';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import type { DebateReads } from './debate-view/debate-reads';

/** A pass asks at most this many pairs unless told otherwise, and spends at most this much. */
export const CHECK_MAX_PAIRS = 20;
export const CHECK_BUDGET_USD = 0.5;

/**
 * The handlers of core/contract/cruxes-channels.ts: the global crux graph, a fold over every debate's
 * log (through the digests the other debate views share) and the workspace's record of the
 * cross-debate analysis; and that analysis itself, asked of a model. A log that cannot be folded is
 * logged and left out rather than failing the view, as the ledger does.
 */
export function cruxesHandlers(ctx: AppContext, reads: DebateReads): AreaHandlers<keyof typeof cruxesChannels> {
  const debates = (): GraphDebate[] =>
    ctx.service.list().flatMap((row) => {
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
  return {
    impl: {
      'cruxes:graph': () => {
        ctx.open();
        const { file, problem } = readCrossRelations(ctx.ws.root);
        // A damaged record costs the graph its checked pairs, not the view.
        if (problem) ctx.log.warn(`the cross-debate analysis could not be read: ${problem}`);
        return globalCruxGraph(debates(), file.relations);
      },
      'cruxes:check': async (input) => {
        ctx.open();
        const { file, problem } = readCrossRelations(ctx.ws.root);
        // Answers already paid for are not written over because the file holding them is damaged.
        if (problem) throw new UserError(`${problem} (put it right or move it away, then ask again)`);
        const seed = input.seed ?? (input.provider === 'simulated' ? 1 : null);
        const provider = ctx.providers(input.provider, ctx.ws.root, seed);
        const crystallizer = workspaceResources(ctx.ws).persona('crystallizer');
        const answered: CrossRelation[] = [];
        const outcome = await checkCrossDebate(provider.llm, {
          pairs: crossCandidates(debates(), file.relations),
          persona: crystallizer
            ? { systemPrompt: crystallizer.systemPrompt, tier: crystallizer.tier }
            : { systemPrompt: 'You crystallize debates.', tier: 'standard' },
          provider: input.provider,
          now: () => Date.now(),
          maxPairs: input.maxPairs ?? CHECK_MAX_PAIRS,
          budgetUsd: input.budgetUsd ?? CHECK_BUDGET_USD,
          estimate: provider.estimate,
          // Written after each pair: a pass cut short keeps every answer it paid for.
          onRecord: (record, usage) => {
            answered.push(record);
            writeCrossRelations(ctx.ws.root, withRelations(file, answered, usage));
          },
        });
        return {
          relations: outcome.records,
          llmCalls: outcome.usage.llmCalls,
          costUsd: outcome.usage.costUsd,
          left: outcome.left,
          stoppedBy: outcome.stoppedBy,
        };
      },
    },
  };
}
