import type { cruxesChannels } from '../../contract';
import { crossCandidates } from '../../crux/cross-debate';
import { globalCruxGraph, type GraphDebate } from '../../crux/global-graph';
import { checkCrossDebate } from '../../crux/live/cross-debate-check';
import { addCrossRelations, readCrossRelations } from '../debates/cross-relations-file';
import { workspaceResources } from '../runs/run-resources';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import type { DebateReads } from './debate-view/debate-reads';

/** A pass asks at most this many pairs unless told otherwise, and spends at most this much. */
export const CHECK_MAX_PAIRS = 20;
export const CHECK_BUDGET_USD = 0.5;

/**
 * The check under way per workspace. A second one (another window, a double click) waits for it and
 * then finds the pairs it answered already asked, instead of paying for them again beside it.
 */
const checking = new Map<string, Promise<unknown>>();

function oneAtATime<T>(root: string, work: () => Promise<T>): Promise<T> {
  const mine = (checking.get(root) ?? Promise.resolve()).then(work, work);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  checking.set(root, settled);
  void settled.then(() => {
    if (checking.get(root) === settled) checking.delete(root);
  });
  return mine;
}

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
        return oneAtATime(ctx.ws.root, async () => {
          const { file, problem } = readCrossRelations(ctx.ws.root);
          // Answers already paid for are not written over because the file holding them is damaged.
          if (problem) throw new UserError(`${problem} (put it right or move it away, then ask again)`);
          const seed = input.seed ?? (input.provider === 'simulated' ? 1 : null);
          const provider = ctx.providers(input.provider, ctx.ws.root, seed);
          const crystallizer = workspaceResources(ctx.ws).persona('crystallizer');
          let written = { llmCalls: 0, costUsd: 0 };
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
            // Added to the file as it is on disk at each write, with what this pair cost since the last.
            onRecord: (record, usage) => {
              addCrossRelations(ctx.ws.root, [record], {
                llmCalls: usage.llmCalls - written.llmCalls,
                costUsd: usage.costUsd - written.costUsd,
              });
              written = usage;
            },
          });
          return {
            relations: outcome.records,
            llmCalls: outcome.usage.llmCalls,
            costUsd: outcome.usage.costUsd,
            left: outcome.left,
            stoppedBy: outcome.stoppedBy,
          };
        });
      },
    },
  };
}
