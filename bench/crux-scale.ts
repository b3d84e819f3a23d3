/**
 * Crux scale benchmark: does a debate of many agents converge as readily as one of a few?
 *
 *   npm run bench:crux-scale -- [--json] [--seeds S] [--sizes 2,3,5,8,12] [--fixed]
 *
 * For each number of agents, simulated debates over seeds 1..S (default 10) run in-process through
 * the real service (DebateService on a temporary workspace, the engine, the simulated provider),
 * exactly as `npm run cli -- debate --provider simulated` starts them. Per size it reports:
 * - lockedShare: debates with at least one locked crux (target ≥ 0.8 at every size);
 * - inconclusiveShare: debates whose regime is "inconclusive" (and every regime's count);
 * - messages and calls per debate (mean and median), and the median wall time of one debate.
 *
 * `--fixed` runs every debate with the design page's defaults given explicitly, so the budgets do not
 * grow with the number of agents: the figures from before the scaling rule (docs/crux-protocol.md).
 *
 * Progress goes to stderr; stdout carries only the result (one JSON object with --json).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG } from '../core/crux/config';
import { DebateService } from '../core/node/debates/debate-service';
import { type ProviderFactory, providerFor } from '../core/node/debates/providers';
import { Workspace } from '../core/node/workspace/workspace';
import type { Llm } from '../core/ports/llm';
import { estimateWorkspace } from '../tests/helpers/estimate-runs';
import { median, round, sum } from './engine/stats';

const TOPIC = 'Adopting a four-day work week for software teams';
const TARGET = { lockedShare: 0.8 };

/** The design page's defaults for every knob the scaling rule moves, given as a debate's own config. */
const FIXED_CONFIG = {
  budgets: DEFAULT_CONFIG.budgets,
  earlyExitMinMessages: DEFAULT_CONFIG.earlyExitMinMessages,
  discoveryExtensionBudget: DEFAULT_CONFIG.discoveryExtensionBudget,
  lockRetryBudget: DEFAULT_CONFIG.lockRetryBudget,
  evidenceStability: DEFAULT_CONFIG.evidenceStability,
  threadHardCap: DEFAULT_CONFIG.threadHardCap,
};

interface Options {
  json: boolean;
  seeds: number;
  sizes: number[];
  fixed: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      json: { type: 'boolean', default: false },
      seeds: { type: 'string' },
      sizes: { type: 'string' },
      fixed: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const seeds = values.seeds === undefined ? 10 : Number(values.seeds);
  if (!Number.isInteger(seeds) || seeds < 1) throw new Error(`--seeds wants a whole number ≥ 1, got "${values.seeds}"`);
  const sizes = (values.sizes ?? '2,3,5,8,12').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 2 || n > 12))
    throw new Error(`--sizes wants numbers of agents from 2 to 12, got "${values.sizes}"`);
  return { json: values.json === true, seeds, sizes, fixed: values.fixed === true };
}

const progress = (message: string) => process.stderr.write(`[bench:crux-scale] ${message}\n`);

interface DebateFigures {
  seed: number;
  regime: string;
  locked: number;
  threads: number;
  messages: number;
  calls: number;
  ms: number;
}

/** The simulated provider, counting the calls made through it. */
function countingProviders(counter: { calls: number }): ProviderFactory {
  return (name, workspace, seed) => {
    const provider = providerFor(name, workspace, seed);
    const llm: Llm = {
      provider: provider.llm.provider,
      call(request) {
        counter.calls++;
        return provider.llm.call(request);
      },
    };
    return { ...provider, llm };
  };
}

async function debate(
  service: DebateService,
  counter: { calls: number },
  agents: string[],
  seed: number,
  fixed: boolean,
) {
  counter.calls = 0;
  const started = performance.now();
  const run = await service.start({
    topic: TOPIC,
    agents,
    provider: 'simulated',
    seed,
    ...(fixed ? { config: FIXED_CONFIG } : {}),
  });
  const ms = performance.now() - started;
  const { result } = run.outcome;
  return {
    seed,
    regime: result.regime,
    locked: result.systemMetrics.cruxLockSuccesses,
    threads: result.threads.length,
    messages: result.systemMetrics.messagesTotal,
    calls: counter.calls,
    ms,
  } satisfies DebateFigures;
}

function summary(agents: number, runs: DebateFigures[]) {
  const share = (test: (r: DebateFigures) => boolean) => round(runs.filter(test).length / runs.length, 2);
  const regimes: Record<string, number> = {};
  for (const r of runs) regimes[r.regime] = (regimes[r.regime] ?? 0) + 1;
  const lockedShare = share((r) => r.locked > 0);
  return {
    agents,
    debates: runs.length,
    lockedShare,
    inconclusiveShare: share((r) => r.regime === 'inconclusive'),
    regimes,
    messagesPerDebate: {
      mean: round(sum(runs.map((r) => r.messages)) / runs.length, 1),
      median: median(runs.map((r) => r.messages)),
    },
    callsPerDebate: {
      mean: round(sum(runs.map((r) => r.calls)) / runs.length, 1),
      median: median(runs.map((r) => r.calls)),
    },
    locksPerDebate: round(sum(runs.map((r) => r.locked)) / runs.length, 2),
    threadsPerDebate: round(sum(runs.map((r) => r.threads)) / runs.length, 2),
    msPerDebateMedian: round(median(runs.map((r) => r.ms)), 1),
    met: lockedShare >= TARGET.lockedShare,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const ws = estimateWorkspace();
  const counter = { calls: 0 };
  const workspace = Workspace.open(ws.root);
  try {
    const service = new DebateService(workspace, countingProviders(counter));
    // Warm-up: the first debate pays for loading modules and personas; it is not counted.
    await debate(service, counter, ws.agents(2), 1, options.fixed);
    const sizes = [];
    for (const agents of options.sizes) {
      const runs: DebateFigures[] = [];
      for (let seed = 1; seed <= options.seeds; seed++) {
        runs.push(await debate(service, counter, ws.agents(agents), seed, options.fixed));
        const last = runs[runs.length - 1] as DebateFigures;
        progress(`${agents} agents, seed ${seed}: ${last.regime}, ${last.locked} locked, ${last.messages} messages`);
      }
      sizes.push(summary(agents, runs));
    }
    const result = {
      config: options.fixed ? 'fixed (the design defaults at every size)' : 'default',
      seeds: options.seeds,
      target: TARGET,
      met: sizes.every((s) => s.met),
      sizes,
      node: process.version,
    };
    if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      console.table(
        sizes.map((s) => ({
          agents: s.agents,
          lockedShare: s.lockedShare,
          inconclusiveShare: s.inconclusiveShare,
          messages: s.messagesPerDebate.mean,
          calls: s.callsPerDebate.mean,
          msMedian: s.msPerDebateMedian,
        })),
      );
      process.stdout.write(
        `target lockedShare ≥ ${TARGET.lockedShare} at every size: ${result.met ? 'met' : 'not met'}\n`,
      );
    }
  } finally {
    workspace.close();
    ws.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[bench:crux-scale] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
