import { describe, expect, it } from 'vitest';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { cacheMinimumOf, type FakeRequest, unreadCacheWrites } from '../fakes/fake-anthropic';
import { cacheFigures } from '../helpers/cache-shares';
import { misbehavingDebate, misbehavingEvaluation } from '../helpers/misbehaving-runs';

/**
 * The prompt cache on a fake server that caches like the API (the minimum prefix per model, 20 blocks
 * of lookback, tokens counted like a tokenizer, answers at a model's length), through the real SDK:
 * a debate with one agent on the deep tier and a standard evaluation, whose arbiter and synthesis are
 * deep. Shared heads are read by every agent (calls sent together wait for the first to start), deep-tier calls are cached, and a write nobody reads is
 * only a debater's transcript on its last turn in a thread (nobody knows it is the last).
 */

const brief = (r: FakeRequest) => {
  const header = r.headers['x-crucible-brief'];
  return JSON.parse(Buffer.from(String(header), 'base64').toString('utf8'));
};

describe('the cache layout on a server that caches like the API', () => {
  it('the model table and the fake agree on every model’s minimum', () => {
    const prices = loadModelsConfig(null).prices;
    const claude = Object.entries(prices).filter(([model]) => model.startsWith('claude-'));
    expect(claude.length).toBeGreaterThan(0);
    for (const [model, price] of claude) expect([model, price.cacheMinTokens]).toEqual([model, cacheMinimumOf(model)]);
  });

  it('a 4-agent debate on an idea reads most of its input from the cache, deep tier included', async () => {
    const run = await misbehavingDebate({
      agents: 4,
      seed: 1,
      rate: 0,
      idea: 'soil-moisture-lora',
      deep: ['regulator'],
    });
    expect(run.ended).toBe('completed');
    const figures = cacheFigures(run.requests);
    expect(figures.cacheReadShare).toBeGreaterThanOrEqual(0.6);
    const deep = figures.byTier.deep;
    expect(deep && deep.readingCalls / deep.calls).toBeGreaterThanOrEqual(0.5);
    expect(deep?.cacheReadShare).toBeGreaterThanOrEqual(0.5);
    // Every write somebody could read was read: what is left is one transcript per agent and thread,
    // written on the agent's last turn there.
    const lastTurns = new Map<string, number>();
    for (const r of run.requests) {
      if (r.body.tool_choice?.name !== 'crux_move') continue;
      const b = brief(r);
      lastTurns.set(`${b.agent.id} ${b.thread.id}`, r.n);
    }
    const unread = unreadCacheWrites(run.requests);
    expect(unread.every((w) => [...lastTurns.values()].includes(w.n))).toBe(true);
  });

  it('a standard evaluation reads half its input from the cache, its deep-tier arbiter and synthesis too', async () => {
    // Calls sent together overlap (30 ms each), so each could read only what was cached before it was sent.
    const run = await misbehavingEvaluation({ mode: 'standard', seed: 1, rate: 0, latencyMs: 30 });
    expect(run.ended).toBe('locked');
    const figures = cacheFigures(run.requests);
    expect(figures.cacheReadShare).toBeGreaterThanOrEqual(0.5);
    expect(figures.byTier.deep?.cacheReadShare).toBeGreaterThanOrEqual(0.5);
    const deepReads = (tool: string) =>
      run.requests
        .filter((r) => r.body.tool_choice?.name === tool)
        .map((r) => (r.usage?.cache_read_input_tokens ?? 0) > 0);
    // The six evaluators of nucleation: the first writes the shared head, the other five read it
    // rather than each writing a copy.
    expect(deepReads('criterion_scores')).toEqual([false, true, true, true, true, true]);
    // The first deep call of the run writes the shared head; every later one reads it.
    expect(deepReads('ruling').filter((read) => !read).length).toBeLessThanOrEqual(1);
    expect(deepReads('round_synthesis').every(Boolean)).toBe(true);
    expect(unreadCacheWrites(run.requests)).toEqual([]);
  });
});
