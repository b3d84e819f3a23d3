import type { SlipFigures } from '../../tests/helpers/misbehaving-runs';
import { round } from '../engine/stats';

/**
 * The summary of a sweep of runs against the fake server in its misbehaviour mode: how the runs
 * ended, how many answers slipped, how many calls were re-asked, and what the re-asks cost.
 */
export interface SweepRow extends SlipFigures {
  /** The run's shape: `3 agents`, `quick`. */
  shape: string;
  seed: number;
}

export function parseMisbehave(argv: readonly string[]): { rate: number; seeds: number } | null {
  const at = argv.indexOf('--misbehave');
  if (at < 0) return null;
  const rate = Number(argv[at + 1]);
  if (!(rate > 0 && rate <= 1)) throw new Error(`--misbehave wants a share of calls in (0, 1], got "${argv[at + 1]}"`);
  const s = argv.indexOf('--seeds');
  const seeds = s < 0 ? 10 : Number(argv[s + 1]);
  if (!Number.isInteger(seeds) || seeds < 1) throw new Error(`--seeds wants a whole number ≥ 1, got "${argv[s + 1]}"`);
  return { rate, seeds };
}

export function summarise(rate: number, rows: readonly SweepRow[], wallMs: number) {
  const sum = (f: (r: SweepRow) => number, of = rows) => of.reduce((s, r) => s + f(r), 0);
  const slips: Record<string, number> = {};
  for (const r of rows) for (const [k, n] of Object.entries(r.slips)) slips[k] = (slips[k] ?? 0) + (n ?? 0);
  const shapes = [...new Set(rows.map((r) => r.shape))];
  return {
    misbehave: rate,
    runs: rows.length,
    exceptions: rows.filter((r) => r.exception !== null).length,
    ended: Object.fromEntries(
      [...new Set(rows.map((r) => r.ended))].map((e) => [e, rows.filter((r) => r.ended === e).length]),
    ),
    structuredCalls: sum((r) => r.structuredCalls),
    slippedAnswers: sum((r) => Object.values(r.slips).reduce((s, n) => s + (n ?? 0), 0)),
    slips,
    repairedAnswers: sum((r) => r.repaired),
    reasks: sum((r) => r.reasks),
    reasksPerCall: round(
      sum((r) => r.reasks) /
        Math.max(
          1,
          sum((r) => r.structuredCalls),
        ),
      3,
    ),
    failedCalls: sum((r) => r.failedCalls),
    costUsd: round(
      sum((r) => r.costUsd),
      4,
    ),
    /** The share of the cost spent on answers that were rejected or cut off (the overhead of slips). */
    reaskCostShare: round(
      sum((r) => r.reaskCostShare * r.costUsd) /
        Math.max(
          1e-9,
          sum((r) => r.costUsd),
        ),
      3,
    ),
    byShape: Object.fromEntries(
      shapes.map((shape) => {
        const of = rows.filter((r) => r.shape === shape);
        return [
          shape,
          {
            ended: of.map((r) => r.ended),
            reasks: sum((r) => r.reasks, of),
            calls: sum((r) => r.structuredCalls, of),
            costUsd: round(
              sum((r) => r.costUsd, of),
              4,
            ),
          },
        ];
      }),
    ),
    notEnded: rows
      .filter((r) => r.exception !== null || r.ended === 'failed')
      .map((r) => ({ shape: r.shape, seed: r.seed, ended: r.ended, reason: r.reason, exception: r.exception })),
    wallMs: Math.round(wallMs),
  };
}
