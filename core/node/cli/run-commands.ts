import type { ProtocolRegistry } from '../../engine/registry';
import { protocols } from '../../protocols';
import { RunService } from '../runs/run-service';
import { UserError } from '../workspace/workspace';
import { jsonOption, openWorkspace, providerOf, providerOption, seedOf, workspaceOption } from './common';
import { readConfigFile } from './config-file';
import { printRun } from './protocol-run-control';
import type { Command } from './workspace-commands';

/**
 * `run`: start a run of any protocol registered in `core/protocols.ts` (crux and evaluation have
 * their own commands, `debate` and `evaluate`); `runs` lists, shows, pauses, resumes and stops runs
 * of every protocol. The registry is a parameter so that a protocol that lives
 * only in the tests runs through exactly this command.
 */
export function runCommands(registry: ProtocolRegistry = protocols): Command[] {
  return [
    {
      spec: {
        name: 'run',
        summary: 'Start a run of a registered protocol (runs shows, pauses, resumes and stops it).',
        usage:
          'run PROTOCOL --workspace DIR (--idea SLUG | --topic T) [--setup FILE] [--provider P] [--seed N] [--budget USD] [--json]',
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
          json: jsonOption,
        },
      },
      async run(args, io) {
        const ws = openWorkspace(args);
        try {
          const service = new RunService(ws, registry);
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
          return printRun(io, args, report);
        } finally {
          ws.close();
        }
      },
    },
  ];
}
