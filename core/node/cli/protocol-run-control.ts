import type { RunStatus } from '../../engine/protocol';
import { ENDED_STATUSES } from '../../engine/protocol';
import { lastStatus, readDebateLog } from '../debates/journal';
import { type RunReport, RunService } from '../runs/run-service';
import { UserError, Workspace } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { askOwner } from './ask-owner';
import { workspaceDir } from './common';
import type { CliIo } from './io';

/** A run as `run` and `runs show|resume|stop` print it. */
export function printRun(io: CliIo, args: ParsedArgs, report: RunReport): number {
  if (args.options.json) io.out(JSON.stringify(report, null, 2));
  else {
    io.out(`${report.protocol} run ${report.id}: ${report.status}${report.reason ? ` (${report.reason})` : ''}`);
    for (const line of report.transcript) io.out(`  ${line.author}: ${line.text}`);
    io.out(`log: ${report.log} · $${report.costUsd.toFixed(4)}`);
  }
  return report.status === 'completed' ? 0 : 1;
}

function printStatus(io: CliIo, args: ParsedArgs, id: string, status: RunStatus, pid: number, note: string): number {
  if (args.options.json) io.out(JSON.stringify({ id, status, process: pid }, null, 2));
  else io.out(`Run ${id}: ${status} ${note}`);
  return 0;
}

/**
 * `runs pause|resume|stop ID` for a run of a protocol registered in core/protocols.ts (crux and
 * evaluation have their own hosts): a run another process drives is asked through its control file;
 * one no process drives is resumed here to its end, or stopped for good.
 */
export async function controlProtocolRun(
  args: ParsedArgs,
  io: CliIo,
  action: 'pause' | 'resume' | 'stop',
  id: string,
): Promise<number> {
  const root = workspaceDir(args);
  const ws = Workspace.open(root);
  try {
    const service = new RunService(ws);
    const rel = service.logPathOf(id);
    const status = () => lastStatus(readDebateLog(root, rel).records);
    const now = status();
    if (now !== null && ENDED_STATUSES.has(now))
      throw new UserError(`cannot ${action} run ${id}: it has already ended (${now})`);
    const asked = await askOwner(root, 'run', id, action, status, `runs resume ${id}`);
    if (asked) return printStatus(io, args, id, asked.status, asked.pid, asked.note);
    if (action === 'pause')
      throw new UserError(
        `cannot pause run ${id}: no process is running it (${now ?? 'interrupted'}); resume it with: runs resume ${id}`,
      );
    if (action === 'stop') return printRun(io, args, service.stopIdle(id));
    if (!args.options.json) io.err(`Resuming run ${id} here…`);
    return printRun(io, args, await service.resume(id));
  } finally {
    ws.close();
  }
}

/** `runs show ID`: what a run of a registered protocol has done, from its log. */
export function showProtocolRun(args: ParsedArgs, io: CliIo, id: string): number {
  const ws = Workspace.open(workspaceDir(args));
  try {
    const report = new RunService(ws).show(id);
    printRun(io, args, report);
    return 0;
  } finally {
    ws.close();
  }
}
