import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import type Database from 'better-sqlite3';
import { safeWrite } from '../fs/atomic-write';
import { openExistingIndex } from '../sqlite/open';
import { acquireLease, confirmLease, liveLease, type RunLease, releaseLease, renewLease } from '../sqlite/run-leases';
import { UserError } from '../workspace/workspace';

/**
 * One writer per run, and control of a run from another process (the CLI's `debate` in one
 * terminal, `debates pause ID` in another; or the desktop app and the CLI on one workspace).
 *
 * The process that runs a debate or an evaluation holds its lease in the index (`run_leases`,
 * sqlite/run-leases.ts) from before its first write until it ends; a second process that tries to
 * start, resume or cancel the same run is refused while that lease is live, and every append to the
 * run's log first confirms the lease is still this process's, so a log is never written by two. A
 * lease whose process has gone (killed, crashed) or stopped refreshing it is stale: `runOwner`
 * ignores it, so the run is treated as interrupted and resumed or cancelled in the asking process.
 *
 * Another process asks for an action by writing `.crucible/runs/<id>.control`, which the runner
 * reads (and removes) every ~100 ms and applies through the same engine calls as the app's buttons.
 * What happened is then in the run's own log (a `paused` status line, a `stopped` checkpoint line),
 * which stays the authority: the asking process waits on that, never on the lease.
 */

/** `add_round`: an evaluation is granted one more round (`evaluations add-round ID`). */
export const RUN_ACTIONS = ['pause', 'resume', 'stop', 'approve', 'add_round'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];
/** A debate, an evaluation, or a run of any protocol the general run service starts. */
export type RunKind = 'debate' | 'evaluation' | 'run';

const POLL_MS = 100;
/** How often a running run refreshes its lease (well inside `LEASE_STALE_MS`). */
const HEARTBEAT_MS = 1_000;

function runsDir(root: string): string {
  return join(root, '.crucible', 'runs');
}

/** Ids are ULIDs; anything else never becomes a file name. */
function checkedId(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/.test(id)) throw new Error(`not a run id: ${JSON.stringify(id)}`);
  return id;
}

function controlPath(root: string, id: string): string {
  return join(runsDir(root), `${checkedId(id)}.control`);
}

/** Asks the process running `id` for an action (a later request replaces one not yet read). */
export function requestRun(root: string, id: string, action: RunAction): void {
  // The workspace's atomic write (a fresh temp name, never a link, then a rename), so the runner
  // never reads half a request.
  const rel = relative(root, controlPath(root, id));
  safeWrite(root, rel, `${JSON.stringify({ action, at: new Date().toISOString(), from: process.pid })}\n`, 'any');
}

function indexPath(root: string): string {
  return join(root, '.crucible', 'index.db');
}

/** How to stop a run from elsewhere, for the refusal. */
function controlHint(kind: RunKind, id: string): string {
  if (kind === 'run') return `\`runs pause|stop ${id}\``;
  return kind === 'debate' ? `\`debates pause|stop ${id}\`` : `\`evaluations stop ${id}\``;
}

function where(lease: RunLease): string {
  const host = lease.host === hostname() ? '' : ` on ${lease.host}`;
  return `process ${lease.pid}${host} (started ${lease.startedAt})`;
}

/** The live process running `id`, or null when none does (never started, ended, killed, or silent too long). */
export function runOwner(root: string, id: string): { pid: number; kind: RunKind; startedAt: string } | null {
  checkedId(id);
  const db = openExistingIndex(indexPath(root));
  if (!db) return null;
  try {
    const lease = liveLease(db, id);
    return lease ? { pid: lease.pid, kind: lease.kind, startedAt: lease.startedAt } : null;
  } catch (error) {
    // An index from before leases (no table yet) has no running run.
    if (/no such table/.test((error as Error).message)) return null;
    throw error;
  } finally {
    db.close();
  }
}

/** A run this process holds: the only one allowed to write its log until `release`. */
export interface HeldRun {
  readonly id: string;
  /** Throws (and writes nothing) when this process no longer holds the run: call before every append. */
  confirm(): void;
  /** Applies the actions other processes ask for (a request left from an earlier run is dropped). */
  follow(apply: (action: RunAction) => void): void;
  /** Gives the run up (when it ends, however it ends); once is enough, more is harmless. */
  release(): void;
}

/**
 * Takes `id` for this process before anything is written to its log, or refuses with a one-line
 * error naming the process that runs it. The lease is refreshed on an unref'd timer until released.
 */
export function claimRun(root: string, db: Database.Database, id: string, kind: RunKind): HeldRun {
  checkedId(id);
  const owner = randomUUID();
  const got = acquireLease(db, { runId: id, kind, owner, pid: process.pid });
  if (!got.acquired) {
    throw new UserError(
      `${kind} ${id} is running in ${where(got.holder)}; ${kind === 'evaluation' ? 'stop' : 'pause or stop'} it there, or with ${controlHint(kind, id)}`,
    );
  }
  let lost: string | null = null;
  let follower: ReturnType<typeof setInterval> | null = null;
  const heartbeat = setInterval(() => {
    try {
      // Taken over, released with its index, or the index closed: nothing left to keep alive.
      if (!db.open || !renewLease(db, id, owner)) clearInterval(heartbeat);
    } catch {
      // The index is busy or closing: the next beat tries again, and `confirm` decides before a write.
    }
  }, HEARTBEAT_MS);
  // A heartbeat is no reason to stay alive: the run's own work (or `follow`) keeps the process up.
  heartbeat.unref();
  let released = false;
  const control = controlPath(root, id);
  return {
    id,
    confirm() {
      if (lost === null) {
        const held = confirmLease(db, id, owner);
        if (held.held) return;
        lost = held.holder
          ? `${kind} ${id} was taken over by ${where(held.holder)} while this process ran it`
          : `${kind} ${id} is no longer held by this process (its lease is gone from the index)`;
      }
      throw new UserError(`${lost}; this process stopped without writing to its log`);
    },
    follow(apply) {
      mkdirSync(runsDir(root), { recursive: true });
      rmSync(control, { force: true });
      follower = setInterval(() => {
        if (!existsSync(control)) return;
        let action: unknown;
        try {
          action = (JSON.parse(readFileSync(control, 'utf8')) as { action?: unknown }).action;
        } catch {
          action = null;
        }
        rmSync(control, { force: true });
        if (RUN_ACTIONS.includes(action as RunAction)) apply(action as RunAction);
      }, POLL_MS);
      // Not unref'd: a debate paused in a CLI process waits on nothing else, and must keep the
      // process alive until it is resumed or stopped.
    },
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      if (follower) clearInterval(follower);
      if (follower) rmSync(control, { force: true });
      try {
        // Only our own lease: a process that took the run over keeps its own.
        if (db.open) releaseLease(db, id, owner);
      } catch {
        // Left to go stale: its pid is gone once this process ends.
      }
    },
  };
}
