import { describe, expect, it } from 'vitest';
import { type CallTokens, foldObservations, priceCallPlan, tokensOf } from './cost-plan';

const tokens = (input: number): CallTokens => ({
  calls: 10,
  input,
  cacheWrite: 0,
  cacheRead: 0,
  output: 100,
  maxOutput: 600,
  tier: 'standard',
});
const price = { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 };

describe('cost plan', () => {
  it('interpolates a size between two measured ones, and the workspace table wins size by size', () => {
    const shipped = { 'crux/crux_move': { '2': tokens(1000), '12': tokens(2000) } };
    expect(tokensOf([shipped], 'crux', 'crux_move', 7).input).toBe(1500);
    expect(tokensOf([shipped, { 'crux/crux_move': { '2': tokens(400) } }], 'crux', 'crux_move', 2).input).toBe(400);
  });

  it('prices likely and worst from the same plan, the worst capped by the budget', () => {
    const table = { 'p/k': { '1': tokens(1000) } };
    const plan = { protocol: 'p', size: 1, basis: '', calls: [{ kind: 'k', likely: 10, worst: 20 }] };
    const open = priceCallPlan(plan, [table], () => price);
    expect(open.likelyUsd).toBeCloseTo((10 * (1000 * 3 + 100 * 15)) / 1e6, 6);
    expect(open.worstUsd).toBeGreaterThan(open.likelyUsd);
    const capped = priceCallPlan(plan, [table], () => price, 0.05);
    expect({ worst: capped.worstUsd, budget: capped.worstIsBudget }).toEqual({ worst: 0.05, budget: true });
  });

  it('moves a kind toward what a finished run measured, per call', () => {
    const next = foldObservations({ 'p/k': { '1': tokens(1000) } }, [
      {
        protocol: 'p',
        kind: 'k',
        size: 1,
        tier: 'standard',
        calls: 10,
        maxOutput: 800,
        usage: { inputTokens: 30_000, outputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
    ]);
    expect(next['p/k']?.['1']).toMatchObject({ calls: 20, input: 2000, output: 100, maxOutput: 800 });
  });
});
