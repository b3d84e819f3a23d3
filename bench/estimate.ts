import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenTable } from '../core/engine/cost-plan';
import { appRoot } from '../core/node/app-root';
import { callTokensText, SHIPPED_CALL_TOKENS } from '../core/node/llm/call-tokens';
import { type EstimateCase, estimatedRun, estimateWorkspace } from '../tests/helpers/estimate-runs';
import { round } from './engine/stats';

/**
 * `npm run bench:estimate -- --json`: the cost preview against what runs spend, on the fake server
 * answering like a model (realistic lengths, token counts, cache minimums; Sonnet-tier prices). Each
 * case is estimated from the shipped token table, then run with six seeds; the estimate is of the
 * mean run, so `actualUsd` is the mean and `ratio` the estimate over it, and the worst case is held
 * against the dearest run.
 *
 * `--measure` instead makes the shipped table: runs with other seeds at every size, metered as a
 * workspace meters its runs, written to resources/call-tokens.json.
 */
const json = process.argv.includes('--json');
const progress = (message: string) => process.stderr.write(`${message}\n`);
const SEEDS = [1, 2, 3, 4, 5, 6];
const MEASURE_SEEDS = [101, 102, 103, 104, 105, 106];
const CASES: EstimateCase[] = [
  { protocol: 'crux', agents: 2 },
  { protocol: 'crux', agents: 5 },
  { protocol: 'crux', agents: 12 },
  { protocol: 'evaluation', mode: 'quick' },
  { protocol: 'evaluation', mode: 'standard' },
  { protocol: 'evaluation', mode: 'deep' },
];
const MEASURED: EstimateCase[] = [
  ...[2, 3, 5, 8, 12].map((agents): EstimateCase => ({ protocol: 'crux', agents })),
  ...(['quick', 'standard', 'deep'] as const).map((mode): EstimateCase => ({ protocol: 'evaluation', mode })),
];

const label = (c: EstimateCase) => (c.protocol === 'crux' ? `debate of ${c.agents}` : `${c.mode} evaluation`);

async function measure(): Promise<void> {
  const table: TokenTable = {};
  for (const which of MEASURED) {
    const ws = estimateWorkspace();
    try {
      for (const seed of MEASURE_SEEDS) {
        progress(`[bench:estimate] measuring: ${label(which)}, seed ${seed}`);
        await estimatedRun(ws.root, which, seed, ws.agents);
      }
      const own = JSON.parse(readFileSync(join(ws.root, '.crucible', 'call-tokens.json'), 'utf8')) as {
        kinds: TokenTable;
      };
      for (const [key, bySize] of Object.entries(own.kinds)) table[key] = { ...table[key], ...bySize };
    } finally {
      ws.cleanup();
    }
  }
  writeFileSync(join(appRoot(), SHIPPED_CALL_TOKENS), callTokensText(table));
  progress(`[bench:estimate] wrote ${SHIPPED_CALL_TOKENS}`);
}

async function compare(): Promise<void> {
  const cases = [];
  for (const which of CASES) {
    const ws = estimateWorkspace();
    try {
      const runs = [];
      for (const seed of SEEDS) {
        // Each run is estimated from the shipped table alone, as in a new workspace.
        const own = join(ws.root, '.crucible', 'call-tokens.json');
        if (existsSync(own)) rmSync(own);
        runs.push(await estimatedRun(ws.root, which, seed, ws.agents));
        progress(`[bench:estimate] ${label(which)}, seed ${seed}: $${runs.at(-1)?.actualUsd.toFixed(4)}`);
      }
      const first = runs[0];
      if (!first) throw new Error('no run');
      const actual = runs.reduce((s, r) => s + r.actualUsd, 0) / runs.length;
      const dearest = Math.max(...runs.map((r) => r.actualUsd));
      cases.push({
        protocol: which.protocol,
        agents: which.protocol === 'crux' ? which.agents : null,
        mode: which.protocol === 'evaluation' ? which.mode : null,
        estimateUsd: first.estimateUsd,
        worstUsd: first.worstUsd,
        actualUsd: round(actual, 4),
        ratio: round(first.estimateUsd / actual, 3),
        seeds: SEEDS.length,
        actualMinUsd: round(Math.min(...runs.map((r) => r.actualUsd)), 4),
        actualMaxUsd: round(dearest, 4),
        met: first.estimateUsd / actual >= 0.75 && first.estimateUsd / actual <= 1.25 && dearest <= first.worstUsd,
      });
    } finally {
      ws.cleanup();
    }
  }
  const result = { cases, target: { ratio: [0.75, 1.25], actualAtMostWorst: true }, node: process.version };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else console.table(cases);
}

(process.argv.includes('--measure') ? measure() : compare()).catch((error) => {
  process.stderr.write(`bench:estimate failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
