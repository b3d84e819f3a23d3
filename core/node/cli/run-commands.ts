import type { ProtocolRegistry } from '../../engine/registry';
import { protocols } from '../../protocols';
import { requestRun, runOwner } from '../runs/run-control';
import { type RunReport, RunService } from '../runs/run-service';
import { UserError } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { jsonOption, openWorkspace, providerOf, providerOption, seedOf, workspaceDir, workspaceOption } from './common';
import { readConfigFile } from './config-file';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

/**
 * `run`: start, resume, show or stop a run of any protocol registered in `core/protocols.ts` (crux
 * and evaluation have their own commands). The registry is a parameter so that a protocol that lives
 * only in the tests runs through exactly this command.
 */
export function runCommands(registry: ProtocolRegistry = protocols): Command[] {
  return [
    {
      spec: {
        name: 'run',
        summary: 'Start, resume, show or stop a run of a registered protocol.',
        usage:
          'run PROTOCOL --workspace DIR (--idea SLUG | --topic T) [--setup FILE] [--provider P] [--seed N] [--budget USD] [--json] | run (--resume | --show | --stop) ID --workspace DIR [--json]',
        positionals: ['PROTOCOL?'],
        options: {
          workspace: workspaceOption,
          idea: { type: 'string', value: 'SLUG', description: 'run it on this idea (its log goes beside the idea)' },
          topic: { type: 'string', value: 'T', description: 'what the run is about (default: the idea title)' },
          setup: { type: 'string', value: 'FILE', description: "the protocol's setup, JSON or YAML" },
          provider: providerOption,
          seed: { type: 'string', value: 'N', description: 'seed of the simulator (default 1)' },
          budget: {
            type: 'string',
            value: 'USD',
            description: 'stop cleanly before spending more than this (default 2)',
          },
          resume: { type: 'string', value: 'ID', description: 'continue an interrupted run from its log' },
          show: { type: 'string', value: 'ID', description: 'what a run has done, from its log' },
          stop: { type: 'string', value: 'ID', description: 'ask the process running it to stop (resumable)' },
          json: jsonOption,
        },
      },
      async run(args, io) {
        const stop = args.options.stop as string | undefined;
        if (stop !== undefined) return stopRun(args, io, stop);
        const ws = openWorkspace(args);
        try {
          const service = new RunService(ws, registry);
          const resume = args.options.resume as string | undefined;
          const show = args.options.show as string | undefined;
          if (resume !== undefined) return print(io, args, await service.resume(resume));
          if (show !== undefined) return print(io, args, service.show(show));
          const protocol = args.positionals[0];
          if (!protocol)
            throw new UserError(`run: which protocol? (registered: ${registry.names.join(', ') || 'none'})`);
          const idea = args.options.idea as string | undefined;
          const topic = (args.options.topic as string | undefined) ?? ws.list().find((i) => i.slug === idea)?.title;
          if (!topic) throw new UserError('run: say what it is about (--topic T, or --idea SLUG)');
          const budget = args.options.budget === undefined ? undefined : Number(args.options.budget);
          if (budget !== undefined && !(budget >= 0))
            throw new UserError(`--budget must be a number of USD, not "${args.options.budget}"`);
          const seed = seedOf(args);
          const report = await service.start({
            protocol,
            ...(idea !== undefined ? { ideaSlug: idea } : {}),
            topic,
            provider: providerOf(args),
            ...(seed !== undefined ? { seed } : {}),
            setup: args.options.setup === undefined ? {} : readConfigFile(args.options.setup as string),
            ...(budget !== undefined ? { limits: { budgetUsd: budget } } : {}),
          });
          return print(io, args, report);
        } finally {
          ws.close();
        }
      },
    },
  ];
}

function print(io: CliIo, args: ParsedArgs, report: RunReport): number {
  if (args.options.json) io.out(JSON.stringify(report, null, 2));
  else {
    io.out(`${report.protocol} run ${report.id}: ${report.status}${report.reason ? ` (${report.reason})` : ''}`);
    for (const line of report.transcript) io.out(`  ${line.author}: ${line.text}`);
    io.out(`log: ${report.log} · $${report.costUsd.toFixed(4)}`);
  }
  return report.status === 'completed' ? 0 : 1;
}

function stopRun(args: ParsedArgs, io: CliIo, id: string): number {
  const root = workspaceDir(args);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new UserError(`"${id}" is not a run id`);
  const owner = runOwner(root, id);
  if (!owner) throw new UserError(`run ${id} is not running in any process (resume it with run --resume ${id})`);
  requestRun(root, id, 'stop');
  io.out(`asked process ${owner.pid} to stop run ${id}`);
  return 0;
}
