import type { councilChannels } from '../../contract';
import { CouncilInputError } from '../../council/errors';
import { nodeCouncilFiles } from '../council/council-files';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { previewActions } from './council-preview';
import { councilEstimate } from '../council/council-estimate';
import { councilFigures } from '../council/council-figures';
import { LiveCouncils } from './live-councils';

/** The council's refusals (a proposal never executed, …) are the researcher's to read, not bugs. */
function inWords<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof CouncilInputError) throw new UserError(error.message);
    throw error;
  }
}

const EXECUTED = new Set(['EXECUTING', 'CHECKING', 'RECORDED', 'FAILED', 'REVERTED']);

/**
 * The handlers of core/contract/council-channels.ts: council tasks started and followed in the
 * background (LiveCouncils), read from their logs and the files under `council/` (CouncilReads),
 * the researcher's decisions and reverts, and the preview of a proposal's effect on every file.
 */
export function councilHandlers(ctx: AppContext): AreaHandlers<keyof typeof councilChannels> {
  const { ws, open } = ctx;
  const councils = new LiveCouncils({
    ws,
    runs: ctx.runs,
    emitter: ctx.emitter,
    providers: ctx.providers,
    log: ctx.log,
  });
  // The preview reads the workspace as execution would, and writes nothing (see council-preview.ts).
  const files = nodeCouncilFiles(ws.root, {
    stages: [...ws.taxonomy.stageIds],
    search: (query) => ws.search(query).map((hit) => hit.slug),
  });

  return {
    impl: {
      'council:estimate': ({ provider }) => {
        open();
        return councilEstimate(ws.root, provider, ctx.providers);
      },
      'council:run': ({ task, idea, provider, seed }) => {
        open();
        return councils.start({
          task,
          provider,
          ...(idea !== undefined ? { idea } : {}),
          ...(seed !== undefined ? { seed } : {}),
        });
      },
      'council:list': () => {
        open();
        return { tasks: councils.reads.list(), waiting: councils.reads.waitingCount() };
      },
      'council:get': ({ id }) => {
        open();
        return councils.reads.get(id);
      },
      'council:approvals': () => {
        open();
        return { proposals: councils.reads.approvals() };
      },
      'council:preview': ({ id }) => {
        open();
        // The version the council voted on, as its run log has it: what an approval executes, even
        // when the proposal's file was edited by hand.
        const p = councils.reads.proposal(id);
        if (p.reverted || EXECUTED.has(p.status) || p.executed)
          throw new UserError(
            `${id} has been executed: what it did is in its results${p.reverted ? ', and it was reverted' : ''}`,
          );
        const last = p.versions[p.versions.length - 1];
        if (!last) throw new UserError(`${id} has no version to preview`);
        return previewActions(files, id, last.n, last.output.actions);
      },
      'council:approve': ({ id, note }) => {
        open();
        return councils.decide(id, 'approve', note);
      },
      'council:reject': ({ id, note }) => {
        open();
        return councils.decide(id, 'reject', note);
      },
      'council:revert': ({ id, note }) => {
        open();
        return inWords(() => councils.revert(id, note));
      },
      'council:resume': ({ id }) => {
        open();
        return councils.resume(id);
      },
      'council:weights': () => {
        open();
        return councils.reads.weights();
      },
      'council:figures': () => {
        open();
        return councilFigures(ws.root);
      },
    },
    close: () => councils.close(ctx.options.shutdownTimeoutMs ?? 5_000),
  };
}
