import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../core/node/app-root';
import type { Provider } from '../core/node/debates/providers';
import { EvaluationService } from '../core/node/evaluations/evaluation-service';
import { createAnthropicLlm } from '../core/node/llm/anthropic';
import { loadModelsConfig } from '../core/node/llm/prices-loader';
import { Workspace } from '../core/node/workspace/workspace';
import { FakeAnthropic } from '../tests/fakes/fake-anthropic';
import { simulatorResponder } from '../tests/fakes/simulator-responder';
import { jitteredLatency } from './engine/latency';
import { RoundTimer } from './engine/round-timer';
import { progress, round } from './engine/stats';
import { parseMisbehave, type SweepRow, summarise } from './lib/slip-sweep';
import { cacheFigures } from '../tests/helpers/cache-shares';
import { misbehavingEvaluation } from '../tests/helpers/misbehaving-runs';

/**
 * `npm run bench:evaluate -- --json`: a standard-mode evaluation of a sample idea through the real
 * Anthropic adapter against the fake server (the simulator's answers, 300 ± 100 ms per call). It
 * reports how close the wall time comes to the critical path of the calls (the evaluators and each
 * round's independent exchanges run concurrently), how much of the input is read from the prompt
 * cache, and the cost at the price table's standard tier. `modelLikeCache` is the cache share per tier
 * of the same evaluation on a fake that caches like the API (each model's minimum prefix, lookback,
 * tokenizer-like counts, answers at a model's length), with the writes no later call read.
 */
const IDEA = 'llm-judge-calibration';
const json = process.argv.includes('--json');

/**
 * `--misbehave RATE [--seeds 10]`: evaluations in all three modes over the seeds against a fake that
 * slips like a model on RATE of its answers; one JSON object with how each ended and what the slips cost.
 */
async function sweep(rate: number, seeds: number): Promise<void> {
  const rows: SweepRow[] = [];
  const started = performance.now();
  for (let seed = 1; seed <= seeds; seed++) {
    for (const mode of ['quick', 'standard', 'deep'] as const) {
      const { calls: _c, requests: _r, records: _l, ...run } = await misbehavingEvaluation({ mode, seed, rate });
      rows.push({ shape: mode, seed, ...run });
      progress(
        `[bench:evaluate] misbehave ${rate}: ${mode}, seed ${seed}: ${run.ended} (${run.reason}), ${run.reasks} re-asks`,
      );
    }
  }
  process.stdout.write(`${JSON.stringify(summarise(rate, rows, performance.now() - started))}\n`);
}

async function main(): Promise<void> {
  const misbehave = parseMisbehave(process.argv.slice(2));
  if (misbehave) return sweep(misbehave.rate, misbehave.seeds);
  const root = mkdtempSync(join(tmpdir(), 'crucible-bench-eval-'));
  const latency = jitteredLatency(7, 300, 100);
  const fake = new FakeAnthropic({ responder: simulatorResponder(1), latencyMs: latency.next });
  await fake.start();
  mkdirSync(join(root, 'ideas'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  const ws = Workspace.open(root);
  try {
    ws.sync();
    const models = loadModelsConfig(null);
    const timer = new RoundTimer();
    const provider = (): Provider => ({
      llm: timer.wrap(
        createAnthropicLlm({
          apiKey: 'test-key',
          baseURL: fake.baseURL,
          prices: models,
          maxRetries: 0,
          sendBriefHeader: true,
        }),
      ),
      estimate: () => 0,
      likely: () => 0,
    });
    progress('[bench:evaluate] standard evaluation against the fake server (300 ± 100 ms per call)');
    const started = performance.now();
    const run = await new EvaluationService(ws, provider).evaluate(IDEA, { mode: 'standard', provider: 'anthropic' });
    const wallMs = performance.now() - started;
    const rounds = timer.rounds();
    const criticalPathMs = rounds.reduce((sum, r) => sum + r.longestCallMs, 0);
    const usage = fake.requests.map((r) => r.usage).filter((u) => u !== undefined);
    const uncached = usage.reduce((s, u) => s + u.input_tokens, 0);
    const cacheRead = usage.reduce((s, u) => s + u.cache_read_input_tokens, 0);
    const cacheWrite = usage.reduce((s, u) => s + u.cache_creation_input_tokens, 0);
    const inputTokens = uncached + cacheRead + cacheWrite;
    progress('[bench:evaluate] the same evaluation against a fake that caches like the API');
    const modelLike = await misbehavingEvaluation({ mode: 'standard', seed: 1, rate: 0 });
    const modelLikeCache = cacheFigures(modelLike.requests);
    const result = {
      calls: timer.spans.length,
      wallMs: round(wallMs, 1),
      criticalPathMs: round(criticalPathMs, 1),
      wallOverCriticalPath: round(wallMs / criticalPathMs, 3),
      inputTokens,
      cacheReadShare: round(cacheRead / inputTokens, 3),
      cacheReadShareModelLike: modelLikeCache.cacheReadShare,
      costUsd: round(run.costUsd, 4),
      targets: { wallOverCriticalPath: 1.25, cacheReadShare: 0.5, costUsd: 1.5 },
      met: {
        wallOverCriticalPath: wallMs / criticalPathMs <= 1.25,
        cacheReadShare: cacheRead / inputTokens >= 0.5,
        cacheReadShareModelLike: modelLikeCache.cacheReadShare >= 0.5,
        costUsd: run.costUsd < 1.5,
      },
      evaluation: {
        lockReason: run.document.lockReason,
        rounds: run.document.rounds,
        batches: rounds.length,
        tokens: { uncached, cacheRead, cacheWrite, output: usage.reduce((s, u) => s + u.output_tokens, 0) },
      },
      modelLikeCache,
      node: process.version,
    };
    if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else console.table(result);
  } finally {
    ws.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench:evaluate failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
