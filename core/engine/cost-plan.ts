import type { ModelPrice } from '../llm/prices';
import type { LlmUsage, ModelTier } from '../ports/llm';

/**
 * What a run will cost before it starts, for every protocol alike. A protocol's planner says how many
 * calls of each kind a run makes (likely and at worst) for its agents, mode and limits; a token table
 * says what one call of a kind reads and writes, measured from finished runs; the model table prices
 * the tokens. Nothing here calls a model or needs a key.
 */

/** One kind of call in a plan: the answer's name (`crux_move`, `challenges`, …) and how many of it. */
export interface PlannedCalls {
  kind: string;
  likely: number;
  worst: number;
  /** The tier that answers it, when the planner knows (a debate's agents); else the table's. */
  tier?: ModelTier;
}

export interface CallPlan {
  protocol: string;
  /**
   * What the tokens of a call depend on besides its kind: a debate's number of agents (a number,
   * interpolated between measured sizes) or an evaluation's mode (a word, looked up as it is).
   */
  size: number | string;
  calls: PlannedCalls[];
  /** How the counts were reached, in words, for the researcher. */
  basis: string;
}

/**
 * What one call of a kind takes, on average: a planned call's tokens summed over the provider calls it
 * made (so the re-asks a kind tends to need are in its figure).
 */
export interface CallTokens {
  /** How many calls the figures are the mean of. */
  calls: number;
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  /** The most output a call of the kind may take (its request's `maxTokens`). */
  maxOutput: number;
  tier: ModelTier;
}

/** Keyed by `<protocol>/<kind>`, then by size (`String(size)`). */
export type TokenTable = Record<string, Record<string, CallTokens>>;

/** What a kind's calls take when no run has measured it: a mid-sized structured call. */
const UNMEASURED: CallTokens = {
  calls: 0,
  input: 1000,
  cacheWrite: 1000,
  cacheRead: 2000,
  output: 600,
  maxOutput: 2000,
  tier: 'standard',
};

/**
 * The worst case reads a call's whole prompt uncached (or written to the cache, when that is dearer)
 * and half as long again as measured, and writes every output token it may.
 */
const WORST_INPUT_FACTOR = 1.5;

/** A stored figure never weighs more than this many calls, so the table follows the model in use. */
const HISTORY_WEIGHT = 200;

function interpolate(a: CallTokens, b: CallTokens, share: number): CallTokens {
  const mix = (x: number, y: number) => x + (y - x) * share;
  return {
    calls: Math.min(a.calls, b.calls),
    input: mix(a.input, b.input),
    cacheWrite: mix(a.cacheWrite, b.cacheWrite),
    cacheRead: mix(a.cacheRead, b.cacheRead),
    output: mix(a.output, b.output),
    maxOutput: Math.max(a.maxOutput, b.maxOutput),
    tier: share < 0.5 ? a.tier : b.tier,
  };
}

/**
 * The tokens of one call of `kind` at `size`: the workspace's own measurement where it has one, the
 * shipped one otherwise. A numeric size between two measured ones is interpolated (a debate of 8
 * agents between those of 5 and 12); outside them the nearest is taken; a word must match, or any
 * measured size stands in.
 */
export function tokensOf(
  tables: readonly TokenTable[],
  protocol: string,
  kind: string,
  size: number | string,
): CallTokens {
  const bySize: Record<string, CallTokens> = {};
  // Later tables (the workspace's) replace earlier ones (the shipped) size by size.
  for (const table of tables) Object.assign(bySize, table[`${protocol}/${kind}`]);
  const exact = bySize[String(size)];
  if (exact) return exact;
  const keys = Object.keys(bySize);
  if (keys.length === 0) return UNMEASURED;
  if (typeof size === 'number') {
    const measured = keys
      .map((k) => ({ at: Number(k), tokens: bySize[k] as CallTokens }))
      .filter((m) => Number.isFinite(m.at))
      .sort((x, y) => x.at - y.at);
    const below = measured.filter((m) => m.at < size).at(-1);
    const above = measured.find((m) => m.at > size);
    if (below && above) return interpolate(below.tokens, above.tokens, (size - below.at) / (above.at - below.at));
    const nearest = below ?? above;
    if (nearest) return nearest.tokens;
  }
  return bySize[keys[0] as string] as CallTokens;
}

/** The price of a tier's model for the chosen provider; undefined when unpriced (it then counts 0). */
export type TierPrice = (tier: ModelTier) => ModelPrice | undefined;

function likelyUsd(t: CallTokens, p: ModelPrice): number {
  return (
    (t.input * p.inputPerMTok +
      t.cacheWrite * p.cacheWritePerMTok +
      t.cacheRead * p.cacheReadPerMTok +
      t.output * p.outputPerMTok) /
    1_000_000
  );
}

function worstUsd(t: CallTokens, p: ModelPrice): number {
  const prompt = (t.input + t.cacheWrite + t.cacheRead) * WORST_INPUT_FACTOR;
  const output = Math.max(t.maxOutput, t.output);
  return (prompt * Math.max(p.inputPerMTok, p.cacheWritePerMTok) + output * p.outputPerMTok) / 1_000_000;
}

export interface KindCost {
  kind: string;
  tier: ModelTier;
  likelyCalls: number;
  worstCalls: number;
  /** Tokens of one call, as the table gives them. */
  tokens: CallTokens;
  likelyUsd: number;
  worstUsd: number;
}

export interface CostEstimate {
  likelyCalls: number;
  worstCalls: number;
  likelyUsd: number;
  /** Every planned call at its worst; capped at the run's budget when it has one (the run stops there). */
  worstUsd: number;
  /** True when the budget, not the plan, gives the worst case. */
  worstIsBudget: boolean;
  kinds: KindCost[];
}

const cents = (usd: number) => Math.round(usd * 10_000) / 10_000;

/** Prices a plan: its calls times the table's tokens per call times the tier's prices. */
export function priceCallPlan(
  plan: CallPlan,
  tables: readonly TokenTable[],
  priceOfTier: TierPrice,
  budgetUsd?: number,
): CostEstimate {
  const kinds = plan.calls.map((c): KindCost => {
    const tokens = tokensOf(tables, plan.protocol, c.kind, plan.size);
    const tier = c.tier ?? tokens.tier;
    const price = priceOfTier(tier);
    return {
      kind: c.kind,
      tier,
      likelyCalls: c.likely,
      worstCalls: c.worst,
      tokens,
      likelyUsd: price ? c.likely * likelyUsd(tokens, price) : 0,
      worstUsd: price ? c.worst * worstUsd(tokens, price) : 0,
    };
  });
  const sum = (f: (k: KindCost) => number) => kinds.reduce((s, k) => s + f(k), 0);
  const planWorst = sum((k) => k.worstUsd);
  const capped = budgetUsd !== undefined && budgetUsd > 0 && budgetUsd < planWorst;
  return {
    likelyCalls: Math.round(sum((k) => k.likelyCalls)),
    worstCalls: Math.round(sum((k) => k.worstCalls)),
    likelyUsd: cents(sum((k) => k.likelyUsd)),
    worstUsd: cents(capped ? (budgetUsd as number) : planWorst),
    worstIsBudget: capped,
    kinds,
  };
}

/** What the meter saw of one kind in one finished run. */
export interface KindObservation {
  protocol: string;
  kind: string;
  size: number | string;
  tier: ModelTier;
  /** Planned (structured) calls of the kind. */
  calls: number;
  /** Their provider calls' usage, summed. */
  usage: LlmUsage;
  maxOutput: number;
}

/**
 * The table after a finished run: each kind's mean moves toward what the run measured, weighted by
 * calls, with the stored figure counted as at most HISTORY_WEIGHT calls.
 */
export function foldObservations(table: TokenTable, observations: readonly KindObservation[]): TokenTable {
  const next: TokenTable = JSON.parse(JSON.stringify(table)) as TokenTable;
  for (const o of observations) {
    if (o.calls <= 0) continue;
    const key = `${o.protocol}/${o.kind}`;
    const bySize = next[key] ?? {};
    next[key] = bySize;
    const old = bySize[String(o.size)];
    const w = old ? Math.min(old.calls, HISTORY_WEIGHT) : 0;
    const mean = (before: number | undefined, total: number) => ((before ?? 0) * w + total) / (w + o.calls);
    bySize[String(o.size)] = {
      calls: w + o.calls,
      input: mean(old?.input, o.usage.inputTokens),
      cacheWrite: mean(old?.cacheWrite, o.usage.cacheWriteTokens),
      cacheRead: mean(old?.cacheRead, o.usage.cacheReadTokens),
      output: mean(old?.output, o.usage.outputTokens),
      maxOutput: Math.max(old?.maxOutput ?? 0, o.maxOutput),
      tier: o.tier,
    };
  }
  return next;
}
