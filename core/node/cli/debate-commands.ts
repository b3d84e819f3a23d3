import { costLine } from './cost-line';
import type { BaselineComparison } from '../../crux/live/baseline';
import type { DebateSubject } from '../../crux/live/subject';
import type { DebateRun } from '../debates/debate-service';
import { DebateService } from '../debates/debate-service';
import type { CruxConfigOverrides } from '../../crux/config';
import type { ProviderName } from '../debates/providers';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import { jsonOption, openWorkspace, providerOf, providerOption, seedOption, workspaceOption } from './common';
import { debateLine, debateRows, isArena, showArena } from './arena-debates';
import { debateView } from './debate-views';
import { controlProtocolRun } from './protocol-run-control';
import { controlDebate } from './debate-control';
import { CONFIG_FLAGS, debateConfigOf } from './debate-config';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

const json = jsonOption;
const DEBATES_ACTIONS = [
  'list',
  'show',
  'pause',
  'stop',
  'resume',
  'events',
  'progress',
  'map',
  'course',
  'baseline',
] as const;
const workspace = workspaceOption;
const open = openWorkspace;

function positiveNumber(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UserError(`--${name} must be a positive number, not "${String(value)}"`);
  return n;
}

function report(
  io: CliIo,
  run: DebateRun,
  asJson: boolean,
  estimate: { calls: number; usd: number } | null = null,
  baseline: BaselineComparison | null = null,
): number {
  if (asJson) {
    io.out(
      JSON.stringify(
        {
          id: run.id,
          provider: run.provider,
          simulated: run.provider === 'simulated',
          seed: run.seed,
          ...(estimate ? { estimate } : {}),
          status: run.outcome.status,
          reason: run.outcome.reason,
          degradedAgents: run.outcome.degradedAgents,
          notes: run.outcome.notes,
          log: run.logPath,
          transcript: run.transcriptPath,
          result: run.outcome.result,
          ...(baseline ? { baseline } : {}),
        },
        null,
        2,
      ),
    );
  } else {
    const r = run.outcome.result;
    io.out(
      [
        ...(run.provider === 'simulated'
          ? [
              `Simulated debate: every message was produced offline by the simulator (seed ${run.seed}), not by a model.`,
            ]
          : []),
        `Debate ${run.id}: ${run.outcome.status}${run.outcome.reason ? ` (${run.outcome.reason})` : ''}, regime ${r.regime}${r.confidence === 'LOW' ? ' (Confidence: LOW)' : ''}`,
        `${r.systemMetrics.messagesTotal} messages (${r.systemMetrics.messagesBlocked} refused), ${r.threads.length} thread(s), ${r.irreducibleCruxes.length} irreducible crux(es), cost $${r.systemMetrics.costUsd.toFixed(4)}`,
        ...r.threads.map((t) => `  ${t.id} ${t.status}: ${t.crux?.question ?? t.binaryQuestion ?? t.topic}`),
        ...run.outcome.notes,
        ...(baseline ? baselineLines(baseline) : []),
        `Transcript: ${run.transcriptPath}`,
      ].join('\n'),
    );
  }
  return 0;
}

/** The single pass beside the debate, agent by agent, and what each cost. */
export function baselineLines(b: BaselineComparison): string[] {
  const money = (usd: number) => `$${usd.toFixed(4)}`;
  return [
    `Single pass (one call per agent): ${b.cost.single.llmCalls} call(s), ${money(b.cost.single.costUsd)}; the debate: ${b.cost.debate.llmCalls} call(s), ${money(b.cost.debate.costUsd)}`,
    `  the debate's crux: ${b.debateCrux ?? '(none crystallized)'}`,
    ...b.agents.map((a) => {
      const single = a.single
        ? `${a.single.side} (${a.single.confidence}), would name: ${a.single.crux}`
        : `failed: ${a.error}`;
      const debate = a.debate ? `${a.debate.side} (${a.debate.confidence})` : '—';
      return `  ${a.agent}: alone ${single} · in the debate ${debate}`;
    }),
  ];
}

/** What the agents will read, said before the run so the researcher sees the debate is about the right thing. */
export function subjectLines(subject: DebateSubject): string {
  if (subject.kind === 'topic') return `Debating the topic: ${subject.text}`;
  const words = subject.body.split(/\s+/).filter(Boolean).length;
  return [
    `Debating the idea ${subject.slug}: ${subject.title}`,
    `  Summary: ${subject.summary || '(none)'}`,
    `  Every agent reads the summary and the README (${words} words).`,
  ].join('\n');
}

/** What `debate` asks for, from its options: the same request whether it is estimated or run. */
function debateRequest(
  args: ParsedArgs,
  agents: string[],
  provider: ProviderName,
  config: CruxConfigOverrides | undefined,
) {
  const seed = positiveNumber(args.options.seed, 'seed');
  const budget = positiveNumber(args.options.budget, 'budget');
  const maxMessages = positiveNumber(args.options['max-messages'], 'max-messages');
  const concurrency = positiveNumber(args.options.concurrency, 'concurrency');
  return {
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
    ...(config ? { config } : {}),
    // The single pass's calls are then in the estimate (it runs after the debate, below).
    ...(args.options.baseline ? { baseline: true } : {}),
  };
}

/** `debate --estimate`: the app's `debates:estimate`, with the settings' limits as the app applies them. */
function estimateDebate(
  args: ParsedArgs,
  io: CliIo,
  agents: string[],
  provider: ProviderName,
  config: CruxConfigOverrides | undefined,
): Promise<number> {
  const request = debateRequest(args, agents, provider, config);
  return withApp(args, async (app) => {
    const estimate = await call(app, 'debates:estimate', request);
    io.out(args.options.json ? JSON.stringify(estimate, null, 2) : costLine(estimate));
    return 0;
  });
}

/**
 * `debates baseline ID`: the app's `debates:baseline` on an ended debate (with `--estimate`, its
 * `debates:baselineEstimate`), the same single pass `debate --baseline` sets beside a new one.
 */
function baselineOf(args: ParsedArgs, io: CliIo, id: string): Promise<number> {
  return withApp(args, async (app) => {
    if (args.options.estimate) {
      const estimate = await call(app, 'debates:baselineEstimate', { id });
      io.out(args.options.json ? JSON.stringify(estimate, null, 2) : costLine(estimate));
      return 0;
    }
    const comparison = await call(app, 'debates:baseline', { id });
    io.out(args.options.json ? JSON.stringify(comparison, null, 2) : baselineLines(comparison).join('\n'));
    return 0;
  });
}

export const debateCommands: Command[] = [
  {
    spec: {
      name: 'debate',
      summary: 'Run a crux debate between personas on an idea or a topic.',
      usage:
        'debate --workspace DIR (--idea SLUG | --topic T) --agents id,id,… --provider simulated|anthropic|openai [--config FILE] [--lock-budget N] [--lock-attempts N] [--evidence-budget N] [--steelman-rule RULE] [--baseline] [--estimate] [--json]',
      positionals: [],
      options: {
        workspace,
        idea: {
          type: 'string',
          value: 'SLUG',
          description: 'debate this idea: every agent reads its summary and README',
        },
        topic: {
          type: 'string',
          value: 'T',
          description: 'debate a free-standing topic: a line or a whole paragraph, read by every agent',
        },
        agents: { type: 'string', value: 'a,b,…', description: '2 to 12 debater personas (see resources/personas)' },
        provider: providerOption,
        seed: seedOption,
        budget: {
          type: 'string',
          value: 'USD',
          description: 'stop cleanly before spending more than this (default 2)',
        },
        'max-messages': {
          type: 'string',
          value: 'N',
          description: 'stop after this many accepted messages (default 200)',
        },
        concurrency: { type: 'string', value: 'N', description: 'model calls in flight at once (default 4)' },
        config: {
          type: 'string',
          value: 'FILE',
          description:
            'protocol config, JSON or YAML (stage budgets, lock attempts, steelman rule …; see docs/crux-protocol.md); the flags below win over it',
        },
        ...Object.fromEntries(Object.entries(CONFIG_FLAGS).map(([flag, { spec }]) => [flag, spec])),
        estimate: { type: 'boolean', description: 'only say what it would likely cost; start nothing' },
        baseline: {
          type: 'boolean',
          description:
            'after the debate, ask each agent once, alone (side, confidence, the crux it would name) and show that single pass and its cost beside the result',
        },
        json,
      },
    },
    async run(args, io) {
      const provider = providerOf(args);
      const agents = ((args.options.agents as string | undefined) ?? '')
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const config = debateConfigOf(args);
      if (args.options.estimate) return estimateDebate(args, io, agents, provider, config);
      const ws = open(args);
      try {
        const service = new DebateService(ws);
        let estimate: { calls: number; usd: number } | null = null;
        const run = await service.start(debateRequest(args, agents, provider, config), {
          onSubject: (subject) => {
            if (!args.options.json) io.err(subjectLines(subject));
          },
          onEstimate: (e) => {
            estimate = e;
            if (!args.options.json) io.err(`${costLine(e)}${e.cannotRun ? '' : '\nRunning…'}`);
          },
        });
        const baseline = args.options.baseline ? (await service.baseline(run.id)).comparison : null;
        return report(io, run, args.options.json === true, estimate, baseline);
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'resume',
      summary: 'Continue an interrupted debate (or arena) from its log.',
      usage: 'resume ID --workspace DIR [--json]',
      positionals: ['ID'],
      options: { workspace, json },
    },
    async run(args, io) {
      const id = args.positionals[0] as string;
      if (isArena(args, id)) return controlProtocolRun(args, io, 'resume', id);
      const ws = open(args);
      try {
        const run = await new DebateService(ws).resume(id);
        return report(io, run, args.options.json === true);
      } finally {
        ws.close();
      }
    },
  },
  {
    spec: {
      name: 'debates',
      summary:
        "List debates and arenas, show one, pause, stop or resume a running one, read a debate's events, progress, crux map or course, or set a single pass beside an ended one.",
      usage:
        'debates (list | show ID | pause ID | stop ID | resume ID | events ID [--from N] | progress ID | map ID | course ID | baseline ID [--estimate]) --workspace DIR [--json]',
      positionals: ['ACTION', 'ID?'],
      options: {
        workspace,
        from: {
          type: 'string',
          value: 'N',
          description: "events: from this index of the debate's event sequence (default 0)",
        },
        estimate: {
          type: 'boolean',
          description: 'baseline: only say what the single pass would cost; ask nothing',
        },
        json,
      },
    },
    run(args, io) {
      const [action, id] = args.positionals;
      if (!DEBATES_ACTIONS.includes(action as (typeof DEBATES_ACTIONS)[number])) {
        throw new UserError(`debates: the action is one of ${DEBATES_ACTIONS.join(', ')}`);
      }
      if (action !== 'list' && !id) throw new UserError(`debates ${action}: which debate? (debates ${action} ID)`);
      const arena = action !== 'list' && isArena(args, id as string);
      if (action === 'pause' || action === 'stop' || action === 'resume')
        return arena
          ? controlProtocolRun(args, io, action, id as string)
          : controlDebate(args, io, action, id as string);
      if (action === 'events' || action === 'progress' || action === 'map' || action === 'course') {
        if (arena)
          throw new UserError(
            `debates ${action}: ${id} is an arena, which has no ${action === 'map' ? 'crux map' : action} (a crux debate's); see: debates show ${id}`,
          );
        return debateView(args, io, action, id as string);
      }
      if (action === 'baseline') {
        if (arena)
          throw new UserError(`debates baseline: ${id} is an arena; a single pass is set beside a crux debate`);
        return baselineOf(args, io, id as string);
      }
      if (arena) return showArena(args, io, id as string);
      const ws = open(args);
      try {
        const service = new DebateService(ws);
        if (action === 'list') {
          const rows = debateRows(ws, service.list());
          if (args.options.json) io.out(JSON.stringify({ debates: rows }, null, 2));
          else io.out(rows.length ? rows.map(debateLine).join('\n') : 'no debates yet');
          return 0;
        }
        const shown = service.show(id as string);
        if (args.options.json) io.out(JSON.stringify(shown, null, 2));
        else
          io.out(
            shown.transcript ??
              `Debate ${id}: ${shown.status ?? 'running'} (no transcript yet; ${shown.records} log records)`,
          );
        return 0;
      } finally {
        ws.close();
      }
    },
  },
];
