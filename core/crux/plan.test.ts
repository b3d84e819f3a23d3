import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config';
import { planCrux } from './plan';
import { configForAgents } from './scale';

const plan = (agents: number, maxMessages = 200) =>
  planCrux({ config: resolveConfig(), agents: Array.from({ length: agents }, () => 'standard' as const), maxMessages });
const total = (p: ReturnType<typeof plan>, of: 'likely' | 'worst') => p.calls.reduce((s, c) => s + c[of], 0);

describe('planCrux', () => {
  it('plans more calls as agents are added, until the lock budget caps them', () => {
    const likely = [2, 3, 5].map((n) => total(plan(n), 'likely'));
    expect(likely[1]).toBeGreaterThan(likely[0] as number);
    expect(likely[2]).toBeGreaterThan(likely[1] as number);
  });

  it('never plans fewer calls at worst than likely, and holds the message limit', () => {
    for (const n of [2, 5, 8, 12]) {
      const p = plan(n, 60);
      for (const c of p.calls) expect(c.worst).toBeGreaterThanOrEqual(c.likely);
      expect(p.calls.filter((c) => c.kind === 'crux_move').reduce((s, c) => s + c.worst, 0)).toBe(60);
    }
  });

  it('plans no analysis where the lock likely fails (too many agents for its budget)', () => {
    expect(plan(12).calls.find((c) => c.kind === 'crux_analysis')?.likely).toBe(0);
    expect(plan(2).calls.find((c) => c.kind === 'crux_analysis')?.likely).toBeGreaterThan(0);
  });

  it('plans a lock for twelve agents on the budgets grown for them, with the lock messages of their pairing', () => {
    const grown = planCrux({
      config: resolveConfig(configForAgents(12)),
      agents: Array.from({ length: 12 }, () => 'standard' as const),
      maxMessages: 200,
    });
    // 12 commitments and 24 steelmans and grades (six pairs each way); 18 + 1 discovery, 24 evidence.
    expect({
      analyses: grown.calls.find((c) => c.kind === 'crux_analysis')?.likely,
      basis: grown.basis.split(';')[0],
    }).toEqual({
      analyses: 1.4,
      basis: 'about 112 calls: 1.4 threads × (19 discovery + 36 lock + 24 evidence turns + 1 analysis)',
    });
  });
});
