import type { DebateRun } from '../debates/debate-service';
import { DebateService } from '../debates/debate-service';
import { UserError } from '../workspace/workspace';
import { jsonOption, openWorkspace, providerOf, providerOption, seedOption, workspaceOption } from './common';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

const json = jsonOption;
const workspace = workspaceOption;
const open = openWorkspace;

function positiveNumber(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UserError(`--${name} must be a positive number, not "${String(value)}"`);
  return n;
}

function report(io: CliIo, run: DebateRun, asJson: boolean, estimate: { calls: number; usd: number } | null = null): number {
  if (asJson) {
    io.out(JSON.stringify({ id: run.id, provider: run.provider, simulated: run.provider === 'simulated', seed: run.seed, ...(estimate ? { estimate } : {}), status: run.outcome.status, reason: run.outcome.reason, degradedAgents: run.outcome.degradedAgents, notes: run.outcome.notes, log: run.logPath, transcript: run.transcriptPath, result: run.outcome.result }, null, 2));
  } else {
    const r = run.outcome.result;
    io.out(
      [
        ...(run.provider === 'simulated' ? [`Simulated debate: every message was produced offline by the simulator (seed ${run.seed}), not by a model.`] : []),
        `Debate ${run.id}: ${run.outcome.status}${run.outcome.reason ? ` (${run.outcome.reason})` : ''}, regime ${r.regime}`,
        `${r.systemMetrics.messagesTotal} messages (${r.systemMetrics.messagesBlocked} refused), ${r.threads.length} thread(s), ${r.irreducibleCruxes.length} irreducible crux(es), cost $${r.systemMetrics.costUsd.toFixed(4)}`,
        ...r.threads.map((t) => `  ${t.id} ${t.status}: ${t.crux?.question ?? t.binaryQuestion ?? t.topic}`),
        ...run.outcome.notes,
        `Transcript: ${run.transcriptPath}`,
      ].join('\n'),
    );
  }
  return 0;
}

export const debateCommands: Command[] = [
  {
    spec: {
      name: 'debate',
      summary: 'Run a crux debate between personas on an idea or a topic.',
      usage: 'debate --workspace DIR (--idea SLUG | --topic T) --agents id,id,… --provider simulated|anthropic|openai [--json]',
      positionals: [],
      options: {
        workspace,
        idea: { type: 'string', value: 'SLUG', description: 'debate this idea (its title and summary are the topic)' },
        topic: { type: 'string', value: 'T', description: 'debate a free-standing topic' },
        agents: { type: 'string', value: 'a,b,…', description: '2 to 12 debater personas (see resources/personas)' },
        provider: providerOption,
        seed: seedOption,
        budget: { type: 'string', value: 'USD', description: 'stop cleanly before spending more than this (default 2)' },
        'max-messages': { type: 'string', value: 'N', description: 'stop after this many accepted messages (default 200)' },
        concurrency: { type: 'string', value: 'N', description: 'model calls in flight at once (default 4)' },
        json,
      },
    },
    async run(args, io) {
      const provider = providerOf(args);
      const agents = ((args.options.agents as string | undefined) ?? '').split(',').map((a) => a.trim()).filter(Boolean);
      const ws = open(args);
      try {
        const service = new DebateService(ws);
        const seed = positiveNumber(args.options.seed, 'seed');
        const budget = positiveNumber(args.options.budget, 'budget');
        const maxMessages = positiveNumber(args.options['max-messages'], 'max-messages');
        const concurrency = positiveNumber(args.options.concurrency, 'concurrency');
        let estimate: { calls: number; usd: number } | null = null;
        const run = await service.start({
          ...(args.options.idea ? { ideaSlug: args.options.idea as string } : {}),
          ...(args.options.topic ? { topic: args.options.topic as string } : {}),
          agents,
          provider,
          ...(seed !== undefined ? { seed: Math.floor(seed) } : {}),
          limits: {
            ...(budget !== undefined ? { budgetUsd: budget } : {}),
            ...(maxMessages !== undefined ? { maxMessages: Math.floor(maxMessages) } : {}),
            ...(concurrency !== undefined ? { concurrency: Math.floor(concurrency) } : {}),
          },
        }, {
          onEstimate: (e) => {
            estimate = e;
            if (!args.options.json) io.err(`Estimated cost: $${e.usd.toFixed(4)} (${e.basis}). Running…`);
          },
        });
        return report(io, run, args.options.json === true, estimate);
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'resume',
      summary: 'Continue an interrupted debate from its log.',
      usage: 'resume ID --workspace DIR [--json]',
      positionals: ['ID'],
      options: { workspace, json },
    },
    async run(args, io) {
      const ws = open(args);
      try {
        const run = await new DebateService(ws).resume(args.positionals[0] as string);
        return report(io, run, args.options.json === true);
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'debates',
      summary: 'List debates, or show one (debates list | debates show ID).',
      usage: 'debates (list | show ID) --workspace DIR [--json]',
      positionals: ['ACTION', 'ID?'],
      options: { workspace, json },
    },
    run(args, io) {
      const [action, id] = args.positionals;
      if (action !== 'list' && action !== 'show') throw new UserError('debates: the action is list or show');
      if (action === 'show' && !id) throw new UserError('debates show: which debate? (debates show ID)');
      const ws = open(args);
      try {
        const service = new DebateService(ws);
        if (action === 'list') {
          const rows = service.list();
          if (args.options.json) io.out(JSON.stringify({ debates: rows }, null, 2));
          else io.out(rows.length ? rows.map((r) => `${r.id}  ${r.status.padEnd(9)} ${(r.provider ?? '').padEnd(9)} $${r.costUsd.toFixed(4)}  ${r.topic}`).join('\n') : 'no debates yet');
          return 0;
        }
        const shown = service.show(id as string);
        if (args.options.json) io.out(JSON.stringify(shown, null, 2));
        else io.out(shown.transcript ?? `Debate ${id}: ${shown.status ?? 'running'} (no transcript yet; ${shown.records} log records)`);
        return 0;
      } finally {
        ws.close();
      }
    },
  },
];
