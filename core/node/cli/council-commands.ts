import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CouncilInputError, councilRecorder, replayCouncil } from '../../council';
import { findProposal } from '../../council/recorder';
import { ScriptError } from '../../text/script-lines';
import { nodeCouncilFiles } from '../council/council-files';
import { councilFigures } from '../council/council-figures';
import { type CouncilRunReport, CouncilRuns } from '../council/council-runs';
import { UserError, type Workspace } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { providerFor } from '../debates/providers';
import { councilEstimate } from '../council/council-estimate';
import {
  jsonOption,
  openWorkspace,
  providerOf,
  providerOption,
  seedOf,
  seedOption,
  workspaceDir,
  workspaceOption,
} from './common';
import { costLine } from './cost-line';
import { COUNCIL_VIEWS_USAGE, councilView } from './council-views';
import type { CliIo } from './io';
import { ScriptFileError } from './crux-commands';
import type { Command } from './workspace-commands';

const USAGE = [
  'council run --task T [--idea SLUG] [--provider P] [--seed N]   start a task (simulated by default)',
  '       council list | show ID                                         the proposals, waiting ones first',
  '       council approve|reject ID [--note N]                           decide on a waiting proposal',
  '       council revert ID [--note N]                                   undo an executed proposal, byte for byte',
  '       council resume TASK                                            continue a task that was stopped',
  '       council figures [--json]                                       rounds, dissent, conflict, memory use, weights, cost per task',
  '       council --replay FILE --workspace DIR [--json]                 replay a script on the workspace',
  ...COUNCIL_VIEWS_USAGE,
].join('\n');

function withWorkspace<T>(args: ParsedArgs, body: (ws: Workspace) => Promise<T> | T): Promise<T> {
  const ws = openWorkspace(args);
  return Promise.resolve()
    .then(() => body(ws))
    .finally(() => ws.close());
}

function printRun(io: CliIo, args: ParsedArgs, report: CouncilRunReport): void {
  if (args.options.json) {
    io.out(JSON.stringify(report, null, 2));
    return;
  }
  io.out(`council task ${report.id}: ${report.result.status} (run ${report.status}); waits for ${report.waitsFor}`);
  for (const p of report.result.proposals)
    io.out(
      `  ${report.id}-${p.id}  ${p.stakes.padEnd(6)} ${String(p.decision ?? '…').padEnd(19)} ladder ${p.ladder}${p.flags.length ? `  flags ${p.flags.join(' ')}` : ''}${p.executed ? `  executed${p.checked ? ', checked' : ', CHECK FAILED'}` : ''}`,
    );
}

function printFigures(io: CliIo, figures: ReturnType<typeof councilFigures>): void {
  const n = (x: number | null, digits = 2) => (x === null ? '—' : x.toFixed(digits));
  if (figures.tasks.length === 0)
    io.out('no council tasks yet (start one with: npm run cli -- council run --task "…")');
  for (const t of figures.tasks)
    io.out(
      `${t.startedAt.slice(0, 10)}  ${t.taskId}  ${t.status.padEnd(19)} ${t.complexity.padEnd(7)} proposals ${t.proposals}  rounds/proposal ${n(t.roundsPerProposal)}  dissent ${n(t.dissentRate)}  productive ${t.productiveConflicts}/${t.conflicts}  memory ${t.memory.citingProposals}/${t.proposals}  min σ ${n(t.minWeightDiversity, 3)}  calls ${t.calls}  $${t.costUsd.toFixed(4)}`,
    );
  const o = figures.overall;
  io.out(
    `overall: ${o.tasks} task(s), ${o.proposals} proposal(s); rounds/proposal ${n(o.roundsPerProposal)}, dissent ${n(o.dissentRate)}, productive conflict ${n(o.productiveConflictRate)}, memory use ${n(o.memoryUseRate)}, calls/task ${n(o.callsPerTask, 1)}, $/task simple ${n(o.costPerTask.simple, 4)} complex ${n(o.costPerTask.complex, 4)}`,
  );
  for (const p of figures.problems) io.err(`${p.file}: ${p.reason}`);
}

function replay(args: ParsedArgs, io: CliIo): number {
  const file = resolve(args.options.replay as string);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`cannot read ${file}`);
  }
  const ws = openWorkspace(args);
  try {
    const files = nodeCouncilFiles(ws.root, {
      stages: [...ws.taxonomy.stageIds],
      search: (query) => ws.search(query).map((hit) => hit.slug),
    });
    const taskId = files.newId().toLowerCase();
    let out: ReturnType<typeof replayCouncil>;
    try {
      out = replayCouncil(text, files, { taskId, observer: councilRecorder(files, taskId) });
    } catch (error) {
      if (error instanceof ScriptError) throw new ScriptFileError(`${file}: ${error.message}`);
      throw error;
    } finally {
      // What the actions wrote goes into the index like any edit of the folder.
      ws.sync();
    }
    io.out(JSON.stringify(out.result, null, 2));
  } finally {
    ws.close();
  }
  return 0;
}

/**
 * `runs pause|resume|stop ID` for a council task: it resumes through its own host (which executes
 * and asks the researcher); it is never paused or stopped from outside — it stops by itself where
 * it needs the researcher, as in the app.
 */
export async function controlCouncil(
  args: ParsedArgs,
  io: CliIo,
  action: 'pause' | 'resume' | 'stop',
  id: string,
): Promise<number> {
  if (action !== 'resume')
    throw new UserError(
      `a council task is not ${action === 'pause' ? 'paused' : 'stopped'}: it stops by itself where it needs you (council reject ID ends it)`,
    );
  const report = await withWorkspace(args, (ws) => new CouncilRuns(ws).resume(id));
  printRun(io, args, report);
  return 0;
}

/** `council …`: the council of executor, verifier and integrator acting on the workspace. */
export const councilCommands: Command[] = [
  {
    spec: {
      name: 'council',
      summary: 'The council (executor, verifier, integrator) acting on the workspace, with your approval.',
      usage: USAGE,
      positionals: ['SUBCOMMAND?', 'ID?'],
      options: {
        replay: {
          type: 'string',
          value: 'FILE',
          description: 'a council replay script (JSONL): its actions really run on the workspace',
        },
        task: { type: 'string', value: 'T', description: 'what the council should do (run)' },
        idea: { type: 'string', value: 'SLUG', description: 'the idea the task is about (run)' },
        note: {
          type: 'string',
          value: 'TEXT',
          description: 'your reason, kept as a precedent (approve, reject, revert)',
        },
        provider: providerOption,
        estimate: { type: 'boolean', description: 'run: only say what the task would likely cost, and at worst' },
        seed: seedOption,
        workspace: workspaceOption,
        json: jsonOption,
      },
    },
    async run(args, io) {
      const [sub, id] = args.positionals;
      if (args.options.replay !== undefined) {
        if (sub !== undefined) throw new UserError('council: --replay takes no subcommand');
        return replay(args, io);
      }
      const needId = () => {
        if (!id) throw new UserError(`council ${sub}: give the id (see: npm run cli -- council list)`);
        return id;
      };
      const note = (args.options.note as string | undefined) ?? '';
      const viewed = await councilView(sub, id, args, io);
      if (viewed !== null) return viewed;
      try {
        switch (sub) {
          case 'run': {
            const task = args.options.task as string | undefined;
            if (!task?.trim()) throw new UserError('council run: give --task "what to do"');
            const idea = args.options.idea as string | undefined;
            const seed = seedOf(args);
            // Its cost is said before any model is called, and --estimate stops there.
            const estimate = councilEstimate(workspaceDir(args), providerOf(args), providerFor);
            if (args.options.estimate) {
              io.out(args.options.json ? JSON.stringify(estimate, null, 2) : costLine(estimate));
              return 0;
            }
            if (estimate.cannotRun !== null) throw new UserError(estimate.cannotRun);
            if (!args.options.json) io.err(costLine(estimate));
            const report = await withWorkspace(args, (ws) =>
              new CouncilRuns(ws).start({
                task,
                provider: providerOf(args),
                ...(idea ? { idea } : {}),
                ...(seed !== undefined ? { seed } : {}),
              }),
            );
            printRun(io, args, report);
            return 0;
          }
          case 'resume': {
            const report = await withWorkspace(args, (ws) => new CouncilRuns(ws).resume(needId()));
            printRun(io, args, report);
            return 0;
          }
          case 'approve':
          case 'reject': {
            const decision = sub;
            const report = await withWorkspace(args, (ws) => new CouncilRuns(ws).decide(needId(), decision, note));
            printRun(io, args, report);
            return 0;
          }
          case 'revert': {
            const out = await withWorkspace(args, (ws) => new CouncilRuns(ws).revert(needId(), note));
            if (args.options.json) io.out(JSON.stringify(out, null, 2));
            else {
              io.out(`reverted ${id}: ${out.changes.length} file change(s) undone`);
              for (const c of out.conflicts) io.out(`  kept: ${c}`);
            }
            return 0;
          }
          case 'list': {
            const rows = await withWorkspace(args, (ws) => new CouncilRuns(ws).list());
            const order = { pending: 0, approved: 1, rejected: 2 };
            rows.sort((a, b) => order[a.folder] - order[b.folder] || a.record.id.localeCompare(b.record.id));
            if (args.options.json) {
              io.out(
                JSON.stringify(
                  rows.map(({ folder, record }) => ({
                    id: record.id,
                    folder,
                    status: record.proposal.status,
                    task: record.task,
                    idea: record.idea,
                  })),
                  null,
                  2,
                ),
              );
              return 0;
            }
            if (rows.length === 0)
              io.out('no council proposals yet (start one with: npm run cli -- council run --task "…")');
            for (const { record } of rows) io.out(`${record.id}  ${record.proposal.status.padEnd(19)} ${record.task}`);
            return 0;
          }
          case 'show': {
            const found = await withWorkspace(args, (ws) => findProposal(new CouncilRuns(ws).files, needId()));
            if (!found) throw new UserError(`no council proposal "${id}" (see: npm run cli -- council list)`);
            io.out(JSON.stringify(found.record, null, 2));
            return 0;
          }
          case 'figures': {
            const figures = await withWorkspace(args, (ws) => councilFigures(ws.root));
            if (args.options.json) io.out(JSON.stringify(figures, null, 2));
            else printFigures(io, figures);
            return 0;
          }
          case undefined:
            throw new UserError(`council: say what to do\nusage: npm run cli -- ${USAGE}`);
          default:
            throw new UserError(
              `council: unknown subcommand "${sub}" (run, list, show, task, inbox, preview, weights, approve, reject, revert, resume, figures)`,
            );
        }
      } catch (error) {
        if (error instanceof CouncilInputError) throw new UserError(error.message);
        throw error;
      }
    },
  },
];
