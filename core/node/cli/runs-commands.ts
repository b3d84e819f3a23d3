import type { RunEntry } from '../../contract';
import { RUN_STATUSES } from '../../engine/protocol';
import { recordIdProblem } from '../../idea/names';
import { runListing } from '../sqlite/run-list-queries';
import { UserError, Workspace } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import { jsonOption, runStatusOption, workspaceDir, workspaceOption } from './common';
import { controlCouncil } from './council-commands';
import { controlDebate } from './debate-control';
import { controlEvaluation } from './evaluations-commands';
import type { CliIo } from './io';
import { controlProtocolRun, showProtocolRun } from './protocol-run-control';
import type { Command } from './workspace-commands';

const ACTIONS = ['list', 'show', 'pause', 'resume', 'stop'] as const;
type Action = (typeof ACTIONS)[number];

function line(r: RunEntry): string {
  const state = `${r.status}${r.live ? ' (live)' : r.status === 'running' ? ' (interrupted)' : ''}`;
  return `${r.id}  ${r.protocol.padEnd(10)} ${state.padEnd(22)} $${r.costUsd.toFixed(4)}  ${r.topic}${r.reason ? ` (${r.reason})` : ''}`;
}

/** The protocol of run `id`, from the index (an unknown id is a one-line error). */
function protocolOf(args: ParsedArgs, id: string): string {
  const problem = recordIdProblem(id, 'run');
  if (problem !== null) throw new UserError(`"${id}" ${problem} (see: npm run cli -- runs list)`);
  const ws = Workspace.open(workspaceDir(args));
  try {
    const row = runListing(ws.db, id);
    if (!row) throw new UserError(`no run "${id}" (see: npm run cli -- runs list)`);
    return row.protocol;
  } finally {
    ws.close();
  }
}

/**
 * Pauses, resumes or stops a run of any protocol, wherever it runs: a crux debate and an evaluation
 * through their own hosts, a run of any other registered protocol through the general run service;
 * each asks the process running it (runs/run-control.ts) or runs it here. An evaluation pauses only
 * at its checkpoint: pausing one stops it there, resumable.
 */
function controlRun(args: ParsedArgs, io: CliIo, action: Exclude<Action, 'list' | 'show'>, id: string) {
  const protocol = protocolOf(args, id);
  if (protocol === 'crux') return controlDebate(args, io, action, id);
  if (protocol === 'evaluation') return controlEvaluation(args, io, action === 'resume' ? 'resume' : 'stop', id);
  if (protocol === 'council') return controlCouncil(args, io, action, id);
  return controlProtocolRun(args, io, action, id);
}

export const runsCommands: Command[] = [
  {
    spec: {
      name: 'runs',
      summary: 'List runs of every protocol with their status, or show, pause, resume or stop one.',
      usage:
        'runs (list [--protocol P] [--status S] | show ID | pause ID | resume ID | stop ID) --workspace DIR [--json]',
      positionals: ['ACTION', 'ID?'],
      options: {
        workspace: workspaceOption,
        protocol: { type: 'string', value: 'P', description: 'list: only runs of this protocol (crux, evaluation)' },
        status: { type: 'string', value: 'S', description: `list: only those ${RUN_STATUSES.join(', ')}` },
        json: jsonOption,
      },
    },
    run(args, io) {
      const [action, id] = args.positionals as [Action, string | undefined];
      if (!ACTIONS.includes(action)) throw new UserError(`runs: the action is one of ${ACTIONS.join(', ')}`);
      if (action !== 'list') {
        if (id === undefined) throw new UserError(`runs ${action}: which one? (runs ${action} ID)`);
        // Any run reads through its protocol's entry: a debate's and an evaluation's too (their own
        // `debates show` and `evaluations show` say more).
        return action === 'show' ? showProtocolRun(args, io, id) : controlRun(args, io, action, id);
      }
      if (id !== undefined) throw new UserError(`runs list: unexpected "${id}"`);
      const status = args.options.status as string | undefined;
      return withApp(args, async (app) => {
        const { runs } = await call(app, 'runs:list', {
          ...(args.options.protocol !== undefined ? { protocol: args.options.protocol as string } : {}),
          ...(status !== undefined ? { status: runStatusOption(status) } : {}),
        });
        io.out(args.options.json ? JSON.stringify({ runs }, null, 2) : runs.map(line).join('\n') || 'no runs yet');
        return 0;
      });
    },
  },
];
