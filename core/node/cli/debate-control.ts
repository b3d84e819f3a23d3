import type { DebateStatus } from '../../engine/debate-record';
import { ENDED_STATUSES } from '../../engine/protocol';
import { DebateService } from '../debates/debate-service';
import { lastStatus, readDebateLog } from '../debates/journal';
import { UserError, Workspace } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import { askOwner } from './ask-owner';
import { workspaceDir } from './common';
import type { CliIo } from './io';

/**
 * The debate's status as its log says now (the log is the authority, whoever runs it). A damaged
 * log is refused like everywhere else: one line naming the file and the line.
 */
function loggedStatus(root: string, rel: string): DebateStatus | null {
  return lastStatus(readDebateLog(root, rel).records);
}

function logPathOf(args: ParsedArgs, id: string): string {
  const ws = Workspace.open(workspaceDir(args));
  try {
    return new DebateService(ws).logPathOf(id);
  } finally {
    ws.close();
  }
}

function report(
  io: CliIo,
  args: ParsedArgs,
  id: string,
  status: DebateStatus,
  pid: number | null,
  note: string,
): number {
  if (args.options.json) io.out(JSON.stringify({ id, status, process: pid }, null, 2));
  else io.out(`Debate ${id}: ${status}${note ? ` ${note}` : ''}`);
  return 0;
}

/**
 * Runs a debate here to its end through the app's own handler (`debates:resume` or `debates:cancel`)
 * and answers with how it ended: a debate no process runs (paused by a quit, interrupted by a kill).
 */
async function runHere(args: ParsedArgs, id: string, channel: 'debates:resume' | 'debates:cancel') {
  return withApp(args, async (app) => {
    let settle: (value: { status: DebateStatus; reason: string | null }) => void = () => {};
    const ended = new Promise<{ status: DebateStatus; reason: string | null }>((resolve) => {
      settle = resolve;
    });
    const off = app.events.on('run:status', (payload) => {
      if (payload.id === id && ENDED_STATUSES.has(payload.status)) settle(payload);
    });
    try {
      await call(app, channel, { id });
      return await ended;
    } finally {
      off();
    }
  });
}

/**
 * `debates pause|stop|resume ID`. A debate running in another process (a `debate` in another
 * terminal, the desktop app) is asked through runs/run-control.ts and this waits until its log says
 * it happened; a debate no process runs is resumed or stopped here, through the app's handlers.
 */
export async function controlDebate(
  args: ParsedArgs,
  io: CliIo,
  action: 'pause' | 'stop' | 'resume',
  id: string,
): Promise<number> {
  const root = workspaceDir(args);
  const rel = logPathOf(args, id); // an unknown debate is a one-line error here
  const status = loggedStatus(root, rel);
  if (status !== null && ENDED_STATUSES.has(status)) {
    throw new UserError(`cannot ${action} debate ${id}: it has already ended (${status})`);
  }
  const asked = await askOwner(root, 'debate', id, action, () => loggedStatus(root, rel), `debates resume ${id}`);
  if (asked) return report(io, args, id, asked.status, asked.pid, asked.note);
  if (action === 'pause') {
    throw new UserError(
      `cannot pause debate ${id}: no process is running it (${status ?? 'interrupted'}); resume it with: debates resume ${id}`,
    );
  }
  if (action === 'resume' && !args.options.json) io.err(`Resuming debate ${id} here…`);
  const end = await runHere(args, id, action === 'resume' ? 'debates:resume' : 'debates:cancel');
  return report(io, args, id, end.status, process.pid, end.reason ? `(${end.reason})` : '');
}
