import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArenaResult } from '../core/arena';
import type { TokenTable } from '../core/engine/cost-plan';
import { estimateCallCost, type ModelsConfig, modelFor, priceOf } from '../core/llm/prices';
import { appRoot } from '../core/node/app-root';
import { paragraphsOf } from '../core/arena/revision-edits';
import { arenaSetupFor } from '../core/node/arena/arena-setup';
import type { Provider, ProviderFactory } from '../core/node/debates/providers';
import { ANTHROPIC_PROVIDER, createAnthropicLlm } from '../core/node/llm/anthropic';
import { callTokensText, SHIPPED_CALL_TOKENS } from '../core/node/llm/call-tokens';
import { loadModelsConfig } from '../core/node/llm/prices-loader';
import { RunService } from '../core/node/runs/run-service';
import { Workspace } from '../core/node/workspace/workspace';
import type { LlmBrief, LlmRequest } from '../core/ports/llm';
import {
  answerToolOf,
  FakeAnthropic,
  type FakeRequest,
  type FakeStep,
  modelLike,
  unreadCacheWrites,
} from '../tests/fakes/fake-anthropic';
import { briefOfRequest } from '../tests/fakes/simulator-responder';
import { simulatorRegistry } from '../core/sim/registry';
import { allSimulators } from '../core/sim/simulators';
import { jitteredLatency } from './engine/latency';
import { RoundTimer } from './engine/round-timer';
import { median, round } from './engine/stats';
import { misbehavingArena } from '../tests/helpers/misbehaving-arena';
import { Prng, seedOf } from './lib/prng';
import { parseMisbehave, type SweepRow, summarise } from './lib/slip-sweep';
import { sentence } from './lib/text';

/**
 * `npm run bench:arena -- --json`: a live 5-agent arena on an idea, run as `arena --idea` runs one
 * (the run service, the one runner, a real log, the real Anthropic adapter) against the fake
 * Anthropic server answering like a model: the simulator's answers with every free-text field grown
 * to a model's length, token counts close to a tokenizer's, the API's cache minimums, max_tokens
 * enforced, 300 ± 100 ms per call. Every tier is priced as Sonnet ($3 / $15 / $3.75 / $0.30 per
 * million tokens), the judge included.
 *
 * One untimed warm-up arena, then `--runs R` (default 5) arenas with seeds 1…R; each figure is the
 * median over them, and each run's own figures are listed beside:
 * - wallOverCriticalPath: the arena's wall time over the sum, per round of concurrent calls, of its
 *   slowest call (what the arena could take at best with these latencies);
 * - cacheReadShare: input tokens read from the prompt cache over all input tokens;
 * - costUsd: the arena's metered cost;
 * - calls: requests the fake server answered (re-asks included).
 * Each run also lists its tokens and cost by phase (`byKind`) and the cache writes nobody read;
 * `--breakdown` prints the median run's phases on stderr (the table mode always does).
 *
 * `--misbehave RATE [--seeds N]` is a sweep instead: arenas against a fake that slips (see `sweep`).
 */

const json = process.argv.includes('--json');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 5;
const IDEA = 'llm-judge-calibration';
const AGENTS = ['investor', 'historian', 'regulator', 'ethicist', 'systems-thinker'];
const SONNET = 'claude-sonnet-4-6';
const TARGETS = { wallOverCriticalPath: 1.2, cacheReadShare: 0.5, costUsd: 0.4 };
const progress = (message: string) => process.stderr.write(`[bench:arena] ${message}\n`);

/** Words a capable model writes in each free-text field of an arena answer, where the simulator writes a line. */
const bodyArg = process.argv.indexOf('--body-words');
// `--body-words N` changes the proposal body's length, to see how the cost follows it.
const BODY_WORDS = bodyArg >= 0 ? Number(process.argv[bodyArg + 1]) : 250;
/** The simulator writes a body of five paragraphs of a sentence each; each grows to a fifth of the body. */
const PARAGRAPH_WORDS = Math.round(BODY_WORDS / 5);
const ARENA_WORDS: Readonly<Record<string, number>> = {
  // A body grows paragraph by paragraph (see `responder`); a revision's new paragraph like one of them.
  paragraph: PARAGRAPH_WORDS,
  summary: 40,
  text: 30,
  quote: 20,
  fix: 20,
  what: 15,
  own: 15,
  reason: 35,
  reasons: 45,
  challenge: 50,
};

/**
 * Answers like the simulated provider's, each free-text field grown to a model's length by sentences
 * drawn from the bench's vocabulary (seeded by the field and its text, so two identical texts grow
 * identically). The simulator is handed back the texts as it wrote them, so the arena plays exactly
 * as a simulated one does (its judged agreement, for one, is a word overlap, which grown prose would
 * dilute): the growth changes what is sent and billed, not how the arena goes.
 */
function responder(seed: number): (request: FakeRequest) => FakeStep {
  const registry = simulatorRegistry(allSimulators());
  const original = new Map<string, string>();
  const grow = (value: unknown, key: string | null = null): unknown => {
    // A body grows paragraph by paragraph, each seeded by its own text, so a revision that edits one
    // paragraph changes one grown paragraph, as a model's edit would.
    if (typeof value === 'string' && key === 'body')
      return paragraphsOf(value)
        .map((p) => grow(p, 'paragraph'))
        .join('\n\n');
    // A revision's answered critiques are keyed by their ids: each line is a change, grown like one.
    if (key === 'answered' && value !== null && typeof value === 'object' && !Array.isArray(value))
      return Object.fromEntries(Object.entries(value).map(([id, line]) => [id, grow(line, 'what')]));
    if (typeof value === 'string' && key !== null && ARENA_WORDS[key] !== undefined) {
      const rng = new Prng(seedOf(`${key}\u0000${value}`));
      let text = value;
      while (text.split(/\s+/).length < (ARENA_WORDS[key] as number)) text += ` ${sentence(rng)}`;
      original.set(text, value);
      return text;
    }
    if (Array.isArray(value)) return value.map((v) => grow(v));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, grow(v, k)]));
    return value;
  };
  const shrink = (value: unknown, key: string | null = null): unknown => {
    if (typeof value === 'string' && key === 'body')
      return paragraphsOf(value)
        .map((p) => original.get(p) ?? p)
        .join('\n\n');
    if (typeof value === 'string') return original.get(value) ?? value;
    if (Array.isArray(value)) return value.map((v) => shrink(v));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v, k)]));
    return value;
  };
  return (request) => {
    const brief = shrink(briefOfRequest(request)) as LlmBrief;
    return { kind: 'answer', input: grow(registry.answer(seed, brief, String(answerToolOf(request)))) };
  };
}

/** The model table with every Anthropic tier answered (and priced) by Sonnet. */
function sonnetOnly(models: ModelsConfig): ModelsConfig {
  const anthropic = models.providers[ANTHROPIC_PROVIDER];
  if (!anthropic) throw new Error('the model table has no anthropic provider');
  return {
    ...models,
    providers: {
      ...models.providers,
      [ANTHROPIC_PROVIDER]: { ...anthropic, tiers: { fast: SONNET, standard: SONNET, deep: SONNET } },
    },
  };
}

interface ArenaRun {
  seed: number;
  wallMs: number;
  criticalPathMs: number;
  wallOverCriticalPath: number;
  inputTokens: number;
  cacheReadShare: number;
  costUsd: number;
  calls: number;
  rounds: number;
  outcome: string | null;
  convergence: { round: number; score: number }[];
  tokens: { uncached: number; cacheRead: number; cacheWrite: number; output: number };
  /** The same by answer shape (the arena's phases): calls, tokens per call, and what the phase cost. */
  byKind: Record<
    string,
    { calls: number; uncached: number; cacheRead: number; cacheWrite: number; output: number; costUsd: number }
  >;
  /** Tokens written to the cache that no later request read (each costs a quarter more than plain input). */
  unreadCacheWriteTokens: number;
}

async function arena(seed: number, agents: readonly string[] = AGENTS): Promise<ArenaRun> {
  const root = mkdtempSync(join(tmpdir(), 'crucible-bench-arena-'));
  const latency = jitteredLatency(seed + 7, 300, 100);
  const fake = new FakeAnthropic({ responder: responder(seed), latencyMs: latency.next, ...modelLike() });
  await fake.start();
  mkdirSync(join(root, 'ideas'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  const ws = Workspace.open(root);
  try {
    ws.sync();
    const models = sonnetOnly(loadModelsConfig(null));
    const timer = new RoundTimer();
    const providers: ProviderFactory = (): Provider => ({
      llm: timer.wrap(
        createAnthropicLlm({
          apiKey: 'test-key',
          baseURL: fake.baseURL,
          prices: models,
          maxRetries: 0,
          sendBriefHeader: true,
        }),
      ),
      estimate: (r: LlmRequest<unknown>) =>
        estimateCallCost(
          { system: r.system, messages: r.messages, maxTokens: r.maxTokens, schema: r.schema },
          modelFor(models, ANTHROPIC_PROVIDER, r.tier) ?? SONNET,
          models.prices,
        ).worstCaseUsd,
      likely: () => 0,
    });
    // As `arena --idea` sets it up with a model: judged similarity, no trickster, the default settings.
    const { topic, setup } = arenaSetupFor(ws, {
      ideaSlug: IDEA,
      agents: [...agents],
      judge: 'judge',
      trickster: false,
      similarity: 'judged',
      provider: 'anthropic',
      ledger: { cruxes: [], falsifiers: [] },
    });
    const started = performance.now();
    const report = await new RunService(ws, undefined, providers).start({
      protocol: 'arena',
      ideaSlug: IDEA,
      topic,
      provider: 'anthropic',
      seed,
      setup,
      limits: { concurrency: Math.max(4, agents.length), budgetUsd: 5 },
    });
    const wallMs = performance.now() - started;
    if (report.status !== 'completed') throw new Error(`the arena ended ${report.status}: ${report.reason}`);
    const rounds = timer.rounds();
    const criticalPathMs = rounds.reduce((s, r) => s + r.longestCallMs, 0);
    const usage = fake.requests.map((r) => r.usage).filter((u) => u !== undefined);
    const uncached = usage.reduce((s, u) => s + u.input_tokens, 0);
    const cacheRead = usage.reduce((s, u) => s + u.cache_read_input_tokens, 0);
    const cacheWrite = usage.reduce((s, u) => s + u.cache_creation_input_tokens, 0);
    const inputTokens = uncached + cacheRead + cacheWrite;
    const result = report.summary as unknown as ArenaResult;
    const byKind: ArenaRun['byKind'] = {};
    const price = priceOf(SONNET, models.prices);
    if (!price) throw new Error(`the model table has no price for ${SONNET}`);
    for (const r of fake.requests) {
      const u = r.usage;
      if (!u) continue;
      const kind = answerToolOf(r) ?? 'unknown';
      const k = byKind[kind] ?? { calls: 0, uncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, costUsd: 0 };
      k.calls++;
      k.uncached += u.input_tokens;
      k.cacheRead += u.cache_read_input_tokens;
      k.cacheWrite += u.cache_creation_input_tokens;
      k.output += u.output_tokens;
      k.costUsd +=
        (u.input_tokens * price.inputPerMTok +
          u.cache_read_input_tokens * price.cacheReadPerMTok +
          u.cache_creation_input_tokens * price.cacheWritePerMTok +
          u.output_tokens * price.outputPerMTok) /
        1_000_000;
      byKind[kind] = k;
    }
    for (const k of Object.values(byKind)) {
      for (const f of ['uncached', 'cacheRead', 'cacheWrite', 'output'] as const) k[f] = round(k[f] / k.calls, 1);
      k.costUsd = round(k.costUsd, 4);
    }
    return {
      seed,
      wallMs: round(wallMs, 1),
      criticalPathMs: round(criticalPathMs, 1),
      wallOverCriticalPath: round(wallMs / criticalPathMs, 3),
      inputTokens,
      cacheReadShare: round(cacheRead / inputTokens, 3),
      costUsd: round(report.costUsd, 4),
      calls: fake.requests.length,
      rounds: rounds.length,
      outcome: result.outcome ?? null,
      convergence: (result.convergence ?? []).map((c) => ({ round: c.round, score: c.score })),
      tokens: { uncached, cacheRead, cacheWrite, output: usage.reduce((s, u) => s + u.output_tokens, 0) },
      byKind,
      unreadCacheWriteTokens: unreadCacheWrites(fake.requests).reduce((sum, w) => sum + w.tokens, 0),
    };
  } finally {
    ws.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The most output each answer shape may take (its request's `maxTokens`, core/arena/live/requests.ts). */
const MAX_OUTPUT: Record<string, number> = {
  arena_proposal: 1500,
  arena_critiques: 1500,
  arena_revision: 2000,
  arena_similarity: 600,
  arena_vote: 400,
  arena_challenge: 600,
  arena_judgment: 1500,
};

/**
 * `--measure`: the arena rows of the token table the cost preview reads (resources/call-tokens.json),
 * from arenas of two agents (a tournament's meetings) and of five, three seeds each (not the
 * benchmark's seeds); the table's other rows are kept as they are.
 */
async function measure(): Promise<void> {
  const table = JSON.parse(readFileSync(join(appRoot(), SHIPPED_CALL_TOKENS), 'utf8')) as { kinds: TokenTable };
  for (const size of [2, 5]) {
    const sums: Record<
      string,
      { calls: number; input: number; cacheWrite: number; cacheRead: number; output: number }
    > = {};
    for (const seed of [101, 102, 103]) {
      const run = await arena(seed, AGENTS.slice(0, size));
      progress(`measured ${size} agents, seed ${seed}: ${run.calls} calls`);
      for (const [kind, k] of Object.entries(run.byKind)) {
        const t = sums[kind] ?? { calls: 0, input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };
        t.calls += k.calls;
        t.input += k.uncached * k.calls;
        t.cacheWrite += k.cacheWrite * k.calls;
        t.cacheRead += k.cacheRead * k.calls;
        t.output += k.output * k.calls;
        sums[kind] = t;
      }
    }
    for (const [kind, t] of Object.entries(sums)) {
      const key = `arena/${kind}`;
      table.kinds[key] = {
        ...table.kinds[key],
        [String(size)]: {
          calls: t.calls,
          input: t.input / t.calls,
          cacheWrite: t.cacheWrite / t.calls,
          cacheRead: t.cacheRead / t.calls,
          output: t.output / t.calls,
          maxOutput: MAX_OUTPUT[kind] ?? 2000,
          tier: kind === 'arena_similarity' || kind === 'arena_judgment' ? 'deep' : 'standard',
        },
      };
    }
  }
  writeFileSync(join(appRoot(), SHIPPED_CALL_TOKENS), callTokensText(table.kinds));
  progress(`wrote the arena rows of ${SHIPPED_CALL_TOKENS}`);
}

/**
 * `--misbehave RATE [--seeds N]`: arenas of 2 agents (a tournament's meeting), 3 with the trickster
 * and 5 (the benchmark's), judged similarity, seeds 1…N (default 10), against the fake slipping like
 * a model on RATE of its answers (ids as display names, enums in another case, prose around the
 * JSON, no tool call, max_tokens stops, ids not in play). One JSON object: how every arena ended
 * (never an exception), the re-asks and repairs, the share of the cost spent on rejected answers,
 * and the agents that left their arena (`agentsLeft`).
 */
async function sweep(rate: number, seeds: number): Promise<void> {
  const rows: SweepRow[] = [];
  const left: { shape: string; seed: number; agent: string; reason: string }[] = [];
  const started = performance.now();
  const shapes = [
    { shape: '2 agents', agents: 2, trickster: false },
    { shape: '3 agents, trickster', agents: 3, trickster: true },
    { shape: '5 agents', agents: 5, trickster: false },
  ];
  for (let seed = 1; seed <= seeds; seed++) {
    for (const { shape, agents, trickster } of shapes) {
      const {
        calls: _c,
        requests: _r,
        records: _l,
        summary,
        ...run
      } = await misbehavingArena({
        agents,
        trickster,
        seed,
        rate,
      });
      rows.push({ shape, seed, ...run });
      for (const [agent, reason] of Object.entries((summary.withdrawn ?? {}) as Record<string, string>))
        left.push({ shape, seed, agent, reason });
      progress(
        `misbehave ${rate}: ${shape}, seed ${seed}: ${run.ended}${run.reason ? ` (${run.reason})` : ''}, ${run.reasks} re-asks${run.exception ? `, EXCEPTION ${run.exception}` : ''}`,
      );
    }
  }
  // Agents that left their arena (an answer that could not be had), the arena going on without them.
  const summary = summarise(rate, rows, performance.now() - started);
  process.stdout.write(`${JSON.stringify({ ...summary, agentsLeft: left })}\n`);
}

async function main(): Promise<void> {
  const misbehave = parseMisbehave(process.argv.slice(2));
  if (misbehave) return sweep(misbehave.rate, misbehave.seeds);
  if (process.argv.includes('--measure')) return measure();
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a whole number of at least 1`);
  progress('warm-up arena (not counted)');
  await arena(99);
  const runs: ArenaRun[] = [];
  for (let seed = 1; seed <= RUNS; seed++) {
    const run = await arena(seed);
    progress(
      `seed ${seed}: ${run.outcome}, ${run.calls} calls, wall/critical ${run.wallOverCriticalPath}, cache ${run.cacheReadShare}, $${run.costUsd}`,
    );
    runs.push(run);
  }
  const of = (f: (r: ArenaRun) => number) => median(runs.map(f));
  const headline = {
    wallOverCriticalPath: round(
      of((r) => r.wallOverCriticalPath),
      3,
    ),
    cacheReadShare: round(
      of((r) => r.cacheReadShare),
      3,
    ),
    costUsd: round(
      of((r) => r.costUsd),
      4,
    ),
    calls: of((r) => r.calls),
  };
  const result = {
    ...headline,
    targets: TARGETS,
    met: {
      wallOverCriticalPath: headline.wallOverCriticalPath <= TARGETS.wallOverCriticalPath,
      cacheReadShare: headline.cacheReadShare >= TARGETS.cacheReadShare,
      costUsd: headline.costUsd <= TARGETS.costUsd,
    },
    agents: AGENTS.length,
    bodyWords: BODY_WORDS,
    prices: `every tier as ${SONNET}`,
    runs,
    node: process.version,
  };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    console.table(headline);
    console.table(runs.map(({ convergence: _c, tokens: _t, byKind: _k, ...r }) => r));
  }
  if (!json || process.argv.includes('--breakdown')) {
    // Where the money goes, phase by phase, in the run whose cost is the median.
    const mid = [...runs].sort((a, b) => a.costUsd - b.costUsd)[Math.floor((runs.length - 1) / 2)] as ArenaRun;
    progress(`seed ${mid.seed} (the median cost, $${mid.costUsd}) by phase, tokens per call:`);
    const table = Object.entries(mid.byKind).map(([phase, k]) => ({ phase, ...k }));
    if (json) process.stderr.write(`${JSON.stringify(table, null, 1)}\n`);
    else console.table(table);
  }
}

main().catch((error) => {
  process.stderr.write(`bench:arena failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
