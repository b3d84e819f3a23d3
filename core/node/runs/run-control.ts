import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Control of a debate or an evaluation running in another process (the CLI's `debate` in one
 * terminal, `debates pause ID` in another; or the desktop app and the CLI on one workspace).
 *
 * The process that runs it keeps a marker, `.crucible/runs/<id>.json` (its pid and the kind), for as
 * long as it runs; another process asks for an action by writing `.crucible/runs/<id>.control`, which
 * the runner reads (and removes) every ~100 ms and applies through the same engine calls as the
 * app's buttons. What happened is then in the run's own log (a `paused` status line, a `stopped`
 * checkpoint line), which stays the authority: the asking process waits on that, never on the marker.
 *
 * A marker whose process has gone (killed, crashed) is stale: `runOwner` ignores it, so the run is
 * treated as interrupted and resumed or cancelled in the asking process instead.
 */

export const RUN_ACTIONS = ['pause', 'resume', 'stop', 'approve'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];
export type RunKind = 'debate' | 'evaluation';

const POLL_MS = 100;

function runsDir(root: string): string {
  return join(root, '.crucible', 'runs');
}

/** Ids are ULIDs; anything else never becomes a file name. */
function checkedId(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/.test(id)) throw new Error(`not a run id: ${JSON.stringify(id)}`);
  return id;
}

function markerPath(root: string, id: string): string {
  return join(runsDir(root), `${checkedId(id)}.json`);
}

function controlPath(root: string, id: string): string {
  return join(runsDir(root), `${checkedId(id)}.control`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else; only ESRCH means gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process running `id`, or null when none does (never started here, ended, or killed). */
export function runOwner(root: string, id: string): { pid: number; kind: RunKind } | null {
  let marker: { pid?: unknown; kind?: unknown };
  try {
    marker = JSON.parse(readFileSync(markerPath(root, id), 'utf8')) as typeof marker;
  } catch {
    return null;
  }
  if (typeof marker.pid !== 'number' || (marker.kind !== 'debate' && marker.kind !== 'evaluation')) return null;
  return alive(marker.pid) ? { pid: marker.pid, kind: marker.kind } : null;
}

/** Asks the process running `id` for an action (a later request replaces one not yet read). */
export function requestRun(root: string, id: string, action: RunAction): void {
  mkdirSync(runsDir(root), { recursive: true });
  const path = controlPath(root, id);
  // Written whole and renamed, so the runner never reads half a request.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ action, at: new Date().toISOString(), from: process.pid })}\n`);
  renameSync(tmp, path);
}

/**
 * Marks `id` as run by this process and applies the actions other processes ask for until the
 * returned function is called (when the run ends). A request left from an earlier run is dropped.
 */
export function followRun(root: string, id: string, kind: RunKind, apply: (action: RunAction) => void): () => void {
  const marker = markerPath(root, id);
  const control = controlPath(root, id);
  mkdirSync(runsDir(root), { recursive: true });
  rmSync(control, { force: true });
  writeFileSync(marker, `${JSON.stringify({ pid: process.pid, kind, startedAt: new Date().toISOString() })}\n`);
  const timer = setInterval(() => {
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
  // Not unref'd: a debate paused in a CLI process waits on nothing else, and must keep the process
  // alive until it is resumed or stopped.
  let released = false;
  return () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    // Only our own marker: a later run of the same id (a resume elsewhere) keeps its own.
    try {
      const current = JSON.parse(readFileSync(marker, 'utf8')) as { pid?: unknown };
      if (current.pid === process.pid) rmSync(marker, { force: true });
    } catch {
      // already gone
    }
    rmSync(control, { force: true });
  };
}
