import type { RunEntry, runsChannels } from '../../contract';
import type { RunRequest } from '../runs/run-service';
import { listRuns, type RunListing, runListing } from '../sqlite/run-list-queries';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { LiveProtocolRuns } from './live-protocol-runs';
import type { RunControls } from './live-runs';
import { protocols } from '../../protocols';

/** A run no process of this app drives, as the index's copy of its log leaves it. */
function storedEntry(row: RunListing): RunEntry {
  return {
    id: row.id,
    protocol: row.protocol,
    ideaSlug: row.ideaSlug,
    topic: row.topic,
    status: row.status,
    reason: row.reason,
    live: false,
    stopRequested: false,
    provider: row.provider,
    costUsd: Math.round(row.costUsd * 1e6) / 1e6,
    startedAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const newestFirst = (a: RunEntry, b: RunEntry) =>
  a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/**
 * The handlers of the channels in core/contract/runs-channels.ts: runs of any protocol in one
 * vocabulary. Live runs come from LiveRuns (the one place that knows which runs this app drives),
 * the others from the index; pause, resume and cancel go to the host of the run's protocol, which
 * each protocol's area registered (`LiveRuns.serve`).
 */
export function runsHandlers(
  ctx: AppContext,
): AreaHandlers<keyof typeof runsChannels> & { start(request: RunRequest): Promise<RunEntry> } {
  const { ws, runs, open } = ctx;
  // Runs of the protocols registered in core/protocols.ts (crux and evaluation have their own areas).
  const protocolRuns = new LiveProtocolRuns({ ws, runs, registry: protocols, providers: ctx.providers, log: ctx.log });

  const entryOf = (id: string): RunEntry => {
    const live = runs.get(id);
    if (live) return live;
    const row = runListing(ws.db, id);
    if (!row) throw new UserError(`no run "${id}" (see: npm run cli -- runs list)`);
    return storedEntry(row);
  };

  /** Asks the run's protocol host, then answers where the run stands (a pause or stop lands later). */
  const act = async (id: string, action: keyof RunControls): Promise<RunEntry> => {
    open();
    const { protocol } = entryOf(id);
    await runs.controls(protocol)[action](id);
    return entryOf(id);
  };

  return {
    impl: {
      'runs:list': ({ protocol, status }) => {
        open();
        const live = runs.list();
        const held = new Set(live.map((r) => r.id));
        const stored = listRuns(ws.db).flatMap((row) => (held.has(row.id) ? [] : [storedEntry(row)]));
        const all = [...live, ...stored].filter(
          (r) => (protocol === undefined || r.protocol === protocol) && (status === undefined || r.status === status),
        );
        return { runs: all.sort(newestFirst) };
      },
      'runs:pause': ({ id }) => act(id, 'pause'),
      'runs:resume': ({ id }) => act(id, 'resume'),
      'runs:cancel': ({ id }) => act(id, 'cancel'),
      'runs:start': async ({ protocol, ideaSlug, topic, provider, seed, setup }) => {
        open();
        const about = topic ?? (ideaSlug === undefined ? undefined : ws.list().find((i) => i.slug === ideaSlug)?.title);
        if (about === undefined) throw new UserError('say what the run is about: a topic, or an idea');
        return protocolRuns.start({
          protocol,
          ...(ideaSlug !== undefined ? { ideaSlug } : {}),
          topic: about,
          provider,
          ...(seed !== undefined ? { seed } : {}),
          setup,
        });
      },
    },
    close: () => protocolRuns.close(),
    // A protocol with channels of its own (`arenas:start`) starts its runs here too, with its limits.
    start: (request) => protocolRuns.start(request),
  };
}
