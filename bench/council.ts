import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../core/node/app-root';
import { CouncilRuns } from '../core/node/council/council-runs';
import type { Provider } from '../core/node/debates/providers';
import { createAnthropicLlm } from '../core/node/llm/anthropic';
import { loadModelsConfig } from '../core/node/llm/prices-loader';
import { workspaceMemory } from '../core/node/memory/workspace-memory';
import { Workspace } from '../core/node/workspace/workspace';
import { FakeAnthropic, modelLike } from '../tests/fakes/fake-anthropic';
import { simulatorResponder } from '../tests/fakes/simulator-responder';
import { jitteredLatency } from './engine/latency';
import { RoundTimer } from './engine/round-timer';
import { median, round } from './engine/stats';
import { councilLengths } from './lib/council-lengths';
import { parseMisbehave, type SweepRow, summarise } from './lib/slip-sweep';
import { misbehavingCouncil } from '../tests/helpers/misbehaving-council';

/**
 * `npm run bench:council -- [--runs N] [--json]` (or `-- --misbehave RATE [--seeds N]`): council tasks through the real Anthropic adapter
 * against the fake server, answered by the council's simulator with answers grown to a model's
 * length (bench/lib/council-lengths.ts), tokens counted like a tokenizer and the prompt cache kept
 * as the API keeps it (`modelLike`), 300 ± 100 ms per call, priced with the model table
 * (resources/models.md). Each run is a fresh copy of one sample idea whose memory already holds
 * five long episodes of that idea, so every brief carries a full memory block (the dearest case).
 *
 * - simple: the executor's note agreed at once (simulator seed 3: 1 proposal, 2 reviews, the outcome
 *   review, "done", the episode);
 * - complex: the same note rejected three times by the verifier and settled by the integrator's
 *   compromise (seed 1: 5 rounds).
 *
 * Figures are medians of N runs (default 3) after one warm-up run of each. `wallOverCriticalPath` is
 * the task's wall time over the sum, per round, of its slowest call (the council asks one call at a
 * time, so that is every call): what the runner, the journal, the files under council/ and the
 * execution add around the model's answers.
 *
 * `--misbehave RATE [--seeds 10]`: a sweep instead — over the seeds, a note task and an archive task
 * (high stakes, approved by the researcher when it waits) against a fake that slips like a model on
 * RATE of its answers; one JSON object with how each task ended and what the slips cost. Every task
 * must end by itself (completed, or partial with its reason), never with an exception.
 */
const IDEA = 'soil-moisture-lora';
const TASK = 'Write down the open questions of the idea';
const SEEDS = { simple: 3, complex: 1 } as const;
const TARGETS = { callsPerSimpleTask: 8, costUsdSimple: 0.1, costUsdComplex: 0.5, wallOverCriticalPath: 1.2 };

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const runsArg = argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(argv[runsArg + 1]) : 3;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs N: a whole number, 1 or more');

const progress = (message: string) => process.stderr.write(`[bench:council] ${message}\n`);

interface TaskRun {
  kind: keyof typeof SEEDS;
  status: string;
  calls: number;
  costUsd: number;
  wallMs: number;
  criticalPathMs: number;
  inputTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
}

function seedMemory(root: string): void {
  const memory = workspaceMemory(root);
  for (let i = 1; i <= 5; i++)
    memory.record('crux', `bench-${i}`, {
      task: `Low-cost soil-moisture sensing over LoRaWAN, debate ${i}`,
      idea: IDEA,
      outcome: 'polarized, 2 cruxes crystallized, 1 irreducible',
      cruxes: [
        'Will a volunteer-maintained gateway stay up through a whole growing season?',
        'Do capacitive probes at this price hold their calibration for more than a year in clay soil?',
      ],
      keyLearnings: Array.from(
        { length: 6 },
        (_, j) =>
          `Agreed ${j + 1}: the allotment committee decides on the gateway site, and the battery budget rules out readings more often than every fifteen minutes.`,
      ),
    });
}

async function runTask(kind: keyof typeof SEEDS, run: number): Promise<TaskRun> {
  const root = mkdtempSync(join(tmpdir(), 'crucible-bench-council-'));
  const latency = jitteredLatency(100 + run, 300, 100);
  const responder = simulatorResponder(SEEDS[kind]);
  const fake = new FakeAnthropic({
    ...modelLike(),
    responder: (request) => {
      const step = responder(request);
      return step.kind === 'answer' ? { kind: 'answer', input: councilLengths(step.input) } : step;
    },
    latencyMs: latency.next,
  });
  await fake.start();
  mkdirSync(join(root, 'ideas'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  seedMemory(root);
  const ws = Workspace.open(root);
  try {
    ws.sync();
    const prices = loadModelsConfig(null);
    const timer = new RoundTimer();
    const provider = (): Provider => ({
      llm: timer.wrap(
        createAnthropicLlm({ apiKey: 'test-key', baseURL: fake.baseURL, prices, maxRetries: 0, sendBriefHeader: true }),
      ),
      estimate: () => 0,
      likely: () => 0,
    });
    const started = performance.now();
    const report = await new CouncilRuns(ws, provider).start({ task: TASK, idea: IDEA, provider: 'anthropic' });
    const wallMs = performance.now() - started;
    const usage = fake.requests.map((r) => r.usage).filter((u) => u !== undefined);
    return {
      kind,
      status: report.result.status,
      calls: timer.spans.length,
      costUsd: report.costUsd,
      wallMs,
      criticalPathMs: timer.rounds().reduce((sum, r) => sum + r.longestCallMs, 0),
      inputTokens: usage.reduce(
        (s, u) => s + u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
        0,
      ),
      cacheReadTokens: usage.reduce((s, u) => s + u.cache_read_input_tokens, 0),
      outputTokens: usage.reduce((s, u) => s + u.output_tokens, 0),
    };
  } finally {
    ws.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const SWEEP_TASKS = { note: TASK, archive: 'Archive this idea' } as const;

async function sweep(rate: number, seeds: number): Promise<void> {
  const rows: SweepRow[] = [];
  const started = performance.now();
  for (let seed = 1; seed <= seeds; seed++)
    for (const [shape, task] of Object.entries(SWEEP_TASKS)) {
      const {
        calls: _c,
        requests: _r,
        records: _l,
        result,
        ...run
      } = await misbehavingCouncil({
        seed,
        rate,
        task,
        approve: true,
      });
      rows.push({ shape, seed, ...run });
      progress(
        `misbehave ${rate}: ${shape}, seed ${seed}: ${run.ended} ${result ?? ''} (${run.reason}), ${run.reasks} re-asks`,
      );
    }
  process.stdout.write(`${JSON.stringify(summarise(rate, rows, performance.now() - started))}\n`);
}

async function main(): Promise<void> {
  const misbehave = parseMisbehave(argv);
  if (misbehave) return sweep(misbehave.rate, misbehave.seeds);
  const runs: TaskRun[] = [];
  for (let run = 0; run <= RUNS; run++)
    for (const kind of ['simple', 'complex'] as const) {
      const done = await runTask(kind, run);
      progress(
        `${run === 0 ? 'warm-up' : `run ${run}`}, ${kind}: ${done.status}, ${done.calls} calls, $${done.costUsd.toFixed(4)}, ${Math.round(done.wallMs)} ms over ${Math.round(done.criticalPathMs)} ms of calls`,
      );
      if (run > 0) runs.push(done);
    }
  const of = (kind: TaskRun['kind']) => runs.filter((r) => r.kind === kind);
  const med = (kind: TaskRun['kind'], f: (r: TaskRun) => number, digits: number) =>
    round(median(of(kind).map(f)), digits);
  const ratio = (r: TaskRun) => r.wallMs / r.criticalPathMs;
  const result = {
    callsPerSimpleTask: med('simple', (r) => r.calls, 1),
    costUsdSimple: med('simple', (r) => r.costUsd, 4),
    costUsdComplex: med('complex', (r) => r.costUsd, 4),
    wallOverCriticalPath: round(median(runs.map(ratio)), 3),
    callsPerComplexTask: med('complex', (r) => r.calls, 1),
    wallOverCriticalPathByKind: { simple: med('simple', ratio, 3), complex: med('complex', ratio, 3) },
    tokensPerCall: {
      input: round(median(runs.map((r) => r.inputTokens / r.calls)), 0),
      cacheReadShare: round(median(runs.map((r) => r.cacheReadTokens / r.inputTokens)), 3),
      output: round(median(runs.map((r) => r.outputTokens / r.calls)), 0),
    },
    statuses: {
      simple: [...new Set(of('simple').map((r) => r.status))],
      complex: [...new Set(of('complex').map((r) => r.status))],
    },
    runs: RUNS,
    targets: TARGETS,
    met: {} as Record<keyof typeof TARGETS, boolean>,
    node: process.version,
  };
  result.met = {
    callsPerSimpleTask: result.callsPerSimpleTask <= TARGETS.callsPerSimpleTask,
    costUsdSimple: result.costUsdSimple <= TARGETS.costUsdSimple,
    costUsdComplex: result.costUsdComplex <= TARGETS.costUsdComplex,
    wallOverCriticalPath: result.wallOverCriticalPath <= TARGETS.wallOverCriticalPath,
  };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else console.log(result);
}

main().catch((error) => {
  process.stderr.write(`bench:council failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
