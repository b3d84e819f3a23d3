import type { CouncilTaskSummary, ProposalStatusView } from '../../contract';
import { findProposal, type ProposalFile } from '../../council/recorder';
import { lastVersion } from '../../council/state';
import type { DebateRecord } from '../../engine/debate-record';
import type { LlmRequest } from '../../ports/llm';
import type { Log } from '../../ports/log';
import { type CouncilDecision, type CouncilRunReport, CouncilRuns } from '../council/council-runs';
import type { Provider, ProviderFactory, ProviderName } from '../debates/providers';
import { readDebateLog } from '../debates/journal';
import { runOwner } from '../runs/run-control';
import { listRuns } from '../sqlite/run-list-queries';
import { runRow } from '../sqlite/run-queries';
import { UserError, type Workspace } from '../workspace/workspace';
import { changesOf, CouncilReads } from './council-reads';
import type { LiveRun, LiveRuns } from './live-runs';
import type { PushEmitter } from './push-emitter';

/**
 * Council tasks driven in this app, in the background. The council's host (`CouncilRuns`) does the
 * work — the runner, the log, executing approved actions, stopping where the researcher is needed —
 * and answers only when its drive ends; this starts it without waiting, follows it, and tells the
 * pages: `run:status` through LiveRuns like any run, and `proposal:changed` whenever a proposal of
 * the task moved (seen after every model answer and when the drive ends), with the inbox's count.
 *
 * The host gives no hook for its start, so a new task's id is read from the index right after the
 * start's synchronous part has begun its log (claim, header, first line all happen before the
 * host's first await); the model calls are observed through the provider it is given.
 */

interface Driving {
  taskId: string;
  live: LiveRun;
  /** Records of its log already handed to LiveRuns. */
  seen: number;
  done: Promise<void>;
}

/** What a proposal looked like when last pushed: a new version, review, result or status differs. */
function fingerprint(record: ProposalFile): string {
  const p = record.proposal;
  const v = lastVersion(p);
  return [
    record.reverted ? 'REVERTED' : p.status,
    p.versions.length,
    Object.keys(v.reviews).length,
    p.results.length,
    p.decision ?? '',
  ].join('|');
}

export class LiveCouncils {
  private readonly driving = new Map<string, Driving>();
  /** Proposals whose decision the researcher gave and this app is carrying out. */
  private readonly deciding = new Set<string>();
  private readonly errors = new Map<string, string>();
  /** What each proposal looked like when last pushed. */
  private readonly pushed = new Map<string, string>();
  readonly reads: CouncilReads;
  /** The council's host on this workspace, for reading its files and proposals. */
  private readonly reader: CouncilRuns;

  constructor(
    private readonly deps: {
      ws: Workspace;
      runs: LiveRuns;
      emitter: PushEmitter;
      providers: ProviderFactory;
      log: Log;
    },
  ) {
    this.reader = new CouncilRuns(deps.ws, deps.providers);
    this.reads = new CouncilReads(deps.ws, this.reader.files, () => this.reader.list(), {
      driving: (taskId) => this.driving.has(taskId),
      deciding: (fileId) => this.deciding.has(fileId),
      error: (taskId) => this.errors.get(taskId) ?? null,
    });
    // What was there before this app started is the baseline: only later moves are pushed.
    for (const { record } of this.reader.list()) this.pushed.set(record.id, fingerprint(record));
    deps.runs.serve('council', {
      pause: () => {
        throw new UserError(
          'a council task is not paused: it stops by itself where it needs you (reject the waiting proposal to end it)',
        );
      },
      cancel: () => {
        throw new UserError(
          'a council task is not cancelled: it stops by itself where it needs you (reject the waiting proposal to end it)',
        );
      },
      resume: async (id) => {
        await this.resume(id);
      },
    });
  }

  /** A host whose every model answer is followed by a look at the task's proposals. */
  private host(taskId: () => string | null): CouncilRuns {
    const providers: ProviderFactory = (name, root, seed) => {
      const provider: Provider = this.deps.providers(name, root, seed);
      return {
        ...provider,
        llm: {
          provider: provider.llm.provider,
          call: async <T>(request: LlmRequest<T>) => {
            try {
              return await provider.llm.call(request);
            } finally {
              // The runner applies the answer (and records it under council/) before its next
              // await; a macrotask later, the files say what the answer did.
              setImmediate(() => {
                const id = taskId();
                if (id) this.look(id);
              });
            }
          },
        },
      };
    };
    return new CouncilRuns(this.deps.ws, providers);
  }

  /** Starts a task; answers once its log is begun. */
  async start(request: {
    task: string;
    idea?: string;
    provider: ProviderName;
    seed?: number;
  }): Promise<CouncilTaskSummary> {
    const { ws } = this.deps;
    const before = new Set(listRuns(ws.db, { protocol: 'council' }).map((r) => r.id));
    let id: string | null = null;
    const drive = this.host(() => id).start(request);
    id = listRuns(ws.db, { protocol: 'council' }).find((r) => !before.has(r.id))?.id ?? null;
    if (id === null) {
      // Refused before its log began (an unknown idea, a missing key): the caller hears why.
      await drive;
      throw new Error('the council task started without a log');
    }
    this.follow(id, drive);
    return this.summary(id);
  }

  /** Continues a task that stopped without its end; with a decision, the researcher's. */
  async resume(taskId: string, decision: CouncilDecision | null = null): Promise<CouncilTaskSummary> {
    if (this.driving.has(taskId)) throw new UserError(`council task ${taskId} is running in this app now`);
    if (!runRow(this.deps.ws.db, taskId))
      throw new UserError(`no council task "${taskId}" with a run log in this workspace`);
    const owner = runOwner(this.deps.ws.root, taskId);
    // Held by another process (the CLI's council run): refused now, rather than failing in the background.
    if (owner) throw new UserError(`council task ${taskId} is running in process ${owner.pid}; wait for it to stop`);
    const drive = this.host(() => taskId).resume(taskId, decision);
    this.follow(taskId, drive);
    return this.summary(taskId);
  }

  /** The researcher's decision on a waiting proposal; the task goes on in the background. */
  async decide(fileId: string, decision: 'approve' | 'reject', note: string) {
    const found = findProposal(this.reader.files, fileId);
    if (!found) throw new UserError(`no council proposal "${fileId}" (see: npm run cli -- council list)`);
    const { record } = found;
    // Where the proposal stands as its task's log has it (its file may have been edited by hand).
    const status = this.reads.proposal(fileId).status;
    if (status !== 'AWAITING_RESEARCHER')
      throw new UserError(`${fileId} does not wait for your decision (it is ${status})`);
    if (this.deciding.has(fileId)) throw new UserError(`your decision on ${fileId} is already being carried out`);
    this.deciding.add(fileId);
    this.errors.delete(record.taskId);
    try {
      await this.resume(record.taskId, { proposal: record.proposal.id, decision, note });
    } catch (error) {
      this.deciding.delete(fileId);
      throw error;
    }
    // The inbox's count drops at once: the decision is under way, whatever the task does next.
    this.emit(record, this.reads.waitingCount());
    return this.reads.proposal(fileId);
  }

  /** Undoes an executed proposal (the council's own revert), then says so. */
  revert(fileId: string, note: string) {
    const found = findProposal(this.reader.files, fileId);
    if (!found) throw new UserError(`no council proposal "${fileId}" (see: npm run cli -- council list)`);
    if (found.record.reverted) throw new UserError(`${fileId} was already reverted (${found.record.reverted.at})`);
    if (['EXECUTING', 'CHECKING'].includes(found.record.proposal.status))
      throw new UserError(`${fileId} is being executed now; revert it once its checks are done`);
    const out = this.reader.revert(fileId, note) as { changes: unknown[]; conflicts: string[] };
    this.deps.ws.sync();
    this.look(found.record.taskId);
    return { proposal: this.reads.proposal(fileId), changes: changesOf(out.changes), conflicts: out.conflicts };
  }

  summary(taskId: string): CouncilTaskSummary {
    const found = this.reads.list().find((t) => t.id === taskId);
    if (!found) throw new UserError(`no council task "${taskId}" in this workspace`);
    return found;
  }

  private follow(taskId: string, drive: Promise<CouncilRunReport>): void {
    const row = runRow(this.deps.ws.db, taskId);
    const seen = this.logRecords(taskId).length;
    const live = this.deps.runs.follow({
      id: taskId,
      protocol: 'council',
      ideaSlug: row?.ideaSlug ?? null,
      topic: row?.topic ?? '',
      provider: row?.provider ?? null,
      startedAt: row?.createdAt ?? new Date().toISOString(),
      costUsd: row?.costUsd ?? 0,
    });
    const driving: Driving = {
      taskId,
      live,
      seen,
      done: drive.then(
        () => this.ended(taskId, null),
        (error: unknown) => this.ended(taskId, error instanceof Error ? error.message : String(error)),
      ),
    };
    this.driving.set(taskId, driving);
  }

  private ended(taskId: string, failure: string | null): void {
    try {
      this.settle(taskId, failure);
    } catch (error) {
      // The app closed under a drive it had stopped waiting for: nothing is left to tell.
      this.deps.log.warn('a council task ended after the app closed', {
        id: taskId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private settle(taskId: string, failure: string | null): void {
    const driving = this.driving.get(taskId);
    if (!driving) return;
    this.driving.delete(taskId);
    for (const id of [...this.deciding]) if (id.startsWith(`${taskId}-p`)) this.deciding.delete(id);
    if (failure !== null) {
      this.errors.set(taskId, failure);
      this.deps.log.warn('a council task ended with an error', { id: taskId, error: failure });
    }
    // LiveRuns hears the log's records now (its cost, and an end the log recorded), then the end.
    try {
      driving.live.records(this.logRecords(taskId).slice(driving.seen));
    } catch (error) {
      this.deps.log.warn('a council log could not be read after its drive', {
        id: taskId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    driving.live.end(failure ?? undefined);
    this.look(taskId, true);
  }

  private logRecords(taskId: string): DebateRecord[] {
    const rel = runRow(this.deps.ws.db, taskId)?.logPath;
    return rel ? readDebateLog(this.deps.ws.root, rel).records : [];
  }

  /**
   * Pushes `proposal:changed` for every proposal of the task that moved since it was last pushed;
   * once its drive has stopped (`stopped`), the ones waiting for the researcher too, standing still.
   */
  private look(taskId: string, stopped = false): void {
    let records: ProposalFile[];
    try {
      records = this.reader
        .list()
        .map((r) => r.record)
        .filter((r) => r.taskId === taskId);
    } catch (error) {
      this.deps.log.warn('the council proposals could not be read', {
        error: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    const moved = records.filter(
      (r) =>
        this.pushed.get(r.id) !== fingerprint(r) ||
        (stopped && r.proposal.status === 'AWAITING_RESEARCHER' && !r.reverted),
    );
    if (moved.length === 0) return;
    const waiting = this.reads.waitingCount();
    for (const record of moved) this.emit(record, waiting);
  }

  private emit(record: ProposalFile, waiting: number): void {
    this.pushed.set(record.id, fingerprint(record));
    const p = record.proposal;
    this.deps.emitter.emit('proposal:changed', {
      id: record.id,
      taskId: record.taskId,
      task: record.task,
      status: (record.reverted ? 'REVERTED' : p.status) as ProposalStatusView,
      stakes: lastVersion(p).stakes,
      waitReason: p.awaiting?.kind === 'researcher' ? p.awaiting.reason : null,
      waiting,
      taskLive: this.driving.has(record.taskId),
    });
  }

  /** When the app closes: the tasks driven now are given a moment to reach their next stop. */
  async close(timeoutMs = 5_000): Promise<void> {
    const drives = [...this.driving.values()].map((d) => d.done);
    if (drives.length === 0) return;
    await Promise.race([Promise.all(drives), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }
}
