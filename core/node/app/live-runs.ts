import type { RunEntry } from '../../contract';
import type { DebateRecord } from '../../engine/debate-record';
import { ENDED_STATUSES, type RunStatus } from '../../engine/protocol';
import { UserError } from '../workspace/workspace';
import type { PushEmitter } from './push-emitter';

export { ENDED_STATUSES } from '../../engine/protocol';

/** What a protocol's host does when `runs:*` asks it; a run it cannot act on is its error to say. */
export interface RunControls {
  pause(id: string): void | Promise<void>;
  resume(id: string): void | Promise<void>;
  cancel(id: string): void | Promise<void>;
}

/** What a protocol's host tells of a run it starts driving. */
export interface RunStart {
  id: string;
  protocol: string;
  ideaSlug: string | null;
  topic: string;
  provider: string | null;
  startedAt: string;
  /** USD already spent on it (a resumed run's earlier runs). */
  costUsd: number;
}

/** A run as the host that drives it holds it. */
export interface LiveRun {
  readonly id: string;
  /** The records its log appended, in order: the log's `onAppend`. */
  records(records: readonly DebateRecord[]): void;
  /** A pause or stop was asked (true; only a running run takes it), or a resume took it back (false). */
  stopAsked(asked: boolean): void;
  /**
   * The run's drive is over and what it leaves (a transcript, a record) is written: an end its log
   * recorded is pushed now. `failure`: it threw without logging an end. Once only; later calls do nothing.
   */
  end(failure?: string): void;
}

interface Followed {
  /** As last pushed (an end is held in `ending` until the run's outputs are written). */
  entry: RunEntry;
  ending: { status: RunStatus; reason: string | null } | null;
  /** Woken on every status change and at the end (see `until`). */
  waiters: Set<() => void>;
}

const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * The one place that knows which runs this app drives, of any protocol, and where each stands:
 * each protocol's host (LiveDebates, LiveEvaluations) registers a run when it starts driving it and
 * hands this the records its log appends. Status follows those records, never a timer: a `status`
 * record is pushed as `run:status` at once (a pause lands when the calls in flight return, and is
 * pushed then); an end (completed, partial, cancelled, failed) is pushed when the host says the
 * run's outputs are written, so a view that reloads on it finds them. Each change is pushed once.
 * The hosts also register how they pause, resume and cancel, so `runs:*` reaches any protocol.
 */
export class LiveRuns {
  private readonly live = new Map<string, Followed>();
  private readonly hosts = new Map<string, RunControls>();

  constructor(
    private readonly emitter: PushEmitter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The host of `protocol`'s runs: how `runs:pause|resume|cancel` act on one. */
  serve(protocol: string, controls: RunControls): void {
    this.hosts.set(protocol, controls);
  }

  controls(protocol: string): RunControls {
    const controls = this.hosts.get(protocol);
    if (!controls) throw new UserError(`this app cannot drive runs of the ${protocol} protocol`);
    return controls;
  }

  /** Starts following a run its host now drives: it is running, and that is pushed. */
  follow(start: RunStart): LiveRun {
    // A run is driven by one host at a time (the lease sees to that across processes); a stale entry
    // of a run whose host lost track of it is replaced.
    this.live.delete(start.id);
    const followed: Followed = {
      entry: {
        ...start,
        status: 'running',
        reason: null,
        live: true,
        stopRequested: false,
        updatedAt: this.now().toISOString(),
      },
      ending: null,
      waiters: new Set(),
    };
    this.live.set(start.id, followed);
    this.push(followed);
    const current = () => this.live.get(start.id) === followed;
    return {
      id: start.id,
      records: (records) => {
        if (current()) this.take(followed, records);
      },
      stopAsked: (asked) => {
        if (!current()) return;
        followed.entry.stopRequested = asked && followed.entry.status === 'running' && followed.ending === null;
      },
      end: (failure) => {
        if (current()) this.end(followed, failure);
      },
    };
  }

  get(id: string): RunEntry | null {
    const followed = this.live.get(id);
    return followed ? this.view(followed) : null;
  }

  list(): RunEntry[] {
    return [...this.live.values()].map((f) => this.view(f));
  }

  /** Resolves once the run's status passes `test` or it is no longer followed; woken by its records, not a timer. */
  until(id: string, test: (status: RunStatus) => boolean): Promise<void> {
    const followed = this.live.get(id);
    if (!followed || test(followed.entry.status)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.live.get(id) === followed && !test(followed.entry.status)) return;
        followed.waiters.delete(check);
        resolve();
      };
      followed.waiters.add(check);
    });
  }

  private take(followed: Followed, records: readonly DebateRecord[]): void {
    const { entry } = followed;
    // Content first (an answer applied), then any status the same records carry.
    const last = records[records.length - 1];
    if (last && records.some((r) => r.type === 'input'))
      this.emitter.emit('run:progress', {
        id: entry.id,
        protocol: entry.protocol,
        records: last.seq + 1,
        costUsd: roundUsd(entry.costUsd + records.reduce((n, r) => n + (r.type === 'llm_call' ? r.call.costUsd : 0), 0)),
      });
    for (const record of records) {
      entry.updatedAt = record.at;
      if (record.type === 'llm_call') entry.costUsd += record.call.costUsd;
      if (record.type !== 'status') continue;
      const reason = record.reason ?? null;
      if (ENDED_STATUSES.has(record.status)) {
        followed.ending = { status: record.status, reason };
        continue;
      }
      entry.stopRequested = false;
      this.change(followed, record.status, reason);
    }
  }

  private change(followed: Followed, status: RunStatus, reason: string | null): void {
    if (followed.entry.status === status) return;
    followed.entry.status = status;
    followed.entry.reason = reason;
    this.push(followed);
  }

  private end(followed: Followed, failure: string | undefined): void {
    const { entry } = followed;
    this.live.delete(entry.id);
    entry.live = false;
    entry.stopRequested = false;
    const ending = failure !== undefined ? { status: 'failed' as const, reason: failure } : followed.ending;
    if (ending) this.change(followed, ending.status, ending.reason);
    this.wake(followed);
  }

  private push(followed: Followed): void {
    this.emitter.emit('run:status', this.view(followed));
    this.wake(followed);
  }

  private wake(followed: Followed): void {
    for (const waiter of [...followed.waiters]) waiter();
  }

  private view(followed: Followed): RunEntry {
    return { ...followed.entry, costUsd: roundUsd(followed.entry.costUsd) };
  }
}
