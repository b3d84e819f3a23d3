import type { RunStatus } from '../../engine/protocol';
import { ENDED_STATUSES } from '../../engine/protocol';
import { requestRun, runOwner } from '../runs/run-control';
import { UserError } from '../workspace/workspace';

/** How long a command waits for another process to log what it asked (a call in flight finishes first). */
const WAIT_MS = 120_000;

/**
 * Asks the process that runs `id` (a `debate`, an `evaluate`, a `run` in another terminal, or the
 * desktop app) to pause, resume or stop it through its control file, and waits until the run's log
 * says it happened: the log is the authority, whoever writes it. Null when no process runs it, for
 * the caller to act here instead.
 */
export async function askOwner(
  root: string,
  what: string,
  id: string,
  action: 'pause' | 'stop' | 'resume',
  loggedStatus: () => RunStatus | null,
  /** The command that continues it after a pause, said with the pause. */
  resumeWith: string,
): Promise<{ status: RunStatus; pid: number; note: string } | null> {
  const owner = runOwner(root, id);
  if (!owner) return null;
  const status = loggedStatus();
  if (action === 'pause' && status === 'paused') return { status, pid: owner.pid, note: '(already)' };
  if (action === 'resume' && status !== 'paused')
    return { status: status ?? 'running', pid: owner.pid, note: '(it is not paused)' };
  requestRun(root, id, action);
  const done = (s: RunStatus | null): s is RunStatus =>
    s !== null &&
    (ENDED_STATUSES.has(s) || (action === 'pause' && s === 'paused') || (action === 'resume' && s === 'running'));
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = loggedStatus();
    if (done(now))
      return {
        status: now,
        pid: owner.pid,
        note: `(in process ${owner.pid}${action === 'pause' ? `; continue it with: ${resumeWith}` : ''})`,
      };
    if (!runOwner(root, id))
      throw new UserError(`the process running ${what} ${id} (${owner.pid}) ended before it could ${action}`);
    if (Date.now() > deadline)
      throw new UserError(`gave up waiting for ${what} ${id} to ${action} after ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
