import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import type { ModelTier } from '../../core/ports/llm';
import { type FakeRequest, unreadCacheWrites } from '../fakes/fake-anthropic';

/** How much of one tier's input came from the prompt cache. */
export interface TierCache {
  calls: number;
  /** Calls that read anything from the cache. */
  readingCalls: number;
  inputTokens: number;
  cacheReadShare: number;
}

export interface CacheFigures {
  /** Input tokens read from the cache over all input tokens (uncached + read + written). */
  cacheReadShare: number;
  byTier: Partial<Record<ModelTier, TierCache>>;
  /** Cache writes no later request read, and the tokens they wrote. */
  unreadWrites: number;
  unreadWriteTokens: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The prompt cache as the fake server metered it, per tier of the built-in model table (a model
 * answers one tier). `cacheReadShare` is the benchmarks' figure: read over all input tokens.
 */
export function cacheFigures(requests: readonly FakeRequest[]): CacheFigures {
  const tiers = loadModelsConfig(null).providers.anthropic?.tiers;
  const tierOf = (model: string): ModelTier =>
    (Object.entries(tiers ?? {}).find(([, m]) => m === model)?.[0] as ModelTier | undefined) ?? 'standard';
  const byTier: Partial<Record<ModelTier, TierCache & { read: number }>> = {};
  let read = 0;
  let input = 0;
  for (const r of requests) {
    const u = r.usage;
    if (!u) continue;
    const tier = tierOf(String(r.body.model));
    const t = byTier[tier] ?? { calls: 0, readingCalls: 0, inputTokens: 0, cacheReadShare: 0, read: 0 };
    byTier[tier] = t;
    const total = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    t.calls++;
    if (u.cache_read_input_tokens > 0) t.readingCalls++;
    t.inputTokens += total;
    t.read += u.cache_read_input_tokens;
    read += u.cache_read_input_tokens;
    input += total;
  }
  const unread = unreadCacheWrites(requests);
  return {
    cacheReadShare: input === 0 ? 0 : round(read / input),
    byTier: Object.fromEntries(
      Object.entries(byTier).map(([tier, { read: r, ...t }]) => [
        tier,
        { ...t, cacheReadShare: t.inputTokens === 0 ? 0 : round(r / t.inputTokens) },
      ]),
    ),
    unreadWrites: unread.length,
    unreadWriteTokens: unread.reduce((s, w) => s + w.tokens, 0),
  };
}
