import { z } from 'zod';
import type { LlmMessage, LlmUsage, ModelTier } from '../ports/llm';
import { describeIssues } from '../text/zod-issues';

/**
 * The model table: which model id answers each tier, per provider, and what every model costs.
 * It is data the researcher can edit (`resources/models.md`, overridden by `<workspace>/models.md`);
 * see docs/models.md for the file format.
 *
 * ```yaml
 * kind: models
 * providers:
 *   anthropic:
 *     tiers: { fast: claude-haiku-4-5, standard: claude-sonnet-4-5, deep: claude-opus-4-5 }
 *   openai-compatible:
 *     baseURL: http://127.0.0.1:11434/v1
 *     tiers: { fast: "qwen2.5:7b", standard: "qwen2.5:14b", deep: "qwen2.5:32b" }
 * prices:
 *   claude-haiku-4-5: { inputPerMTok: 1, outputPerMTok: 5, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 }
 * ```
 *
 * Prices are US dollars per million tokens. `inputPerMTok` is the uncached input, `cacheWritePerMTok`
 * the input written to the prompt cache, `cacheReadPerMTok` the input read back from it.
 */

export const MODEL_TIERS = ['fast', 'standard', 'deep'] as const satisfies readonly ModelTier[];

const modelId = z.string().trim().min(1, 'must be a model id');
const perMTok = z.number().nonnegative('must be a price in US dollars per million tokens, 0 or more');

export const modelPriceSchema = z.strictObject({
  inputPerMTok: perMTok,
  outputPerMTok: perMTok,
  cacheWritePerMTok: perMTok,
  cacheReadPerMTok: perMTok,
  /**
   * The shortest prompt prefix the provider caches for this model, in tokens (Anthropic: 1,024 to
   * 4,096 by model). A shorter prefix is not cached, so no cache breakpoint is spent on it.
   */
  cacheMinTokens: z
    .number()
    .int('must be a whole number of tokens')
    .positive('must be a number of tokens, 1 or more')
    .optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const tiersSchema = z.strictObject({ fast: modelId, standard: modelId, deep: modelId });
export type Tiers = z.infer<typeof tiersSchema>;

export const providerModelsSchema = z.strictObject({
  tiers: tiersSchema,
  /** Where the provider's server listens, when it is not the provider's own default (local servers). */
  baseURL: z.url().optional(),
});
export type ProviderModels = z.infer<typeof providerModelsSchema>;

export type PriceTable = Record<string, ModelPrice>;

export interface ModelsConfig {
  kind: 'models';
  /** Keyed by the provider label of the `Llm` adapter: `anthropic`, `openai-compatible`. */
  providers: Record<string, ProviderModels>;
  prices: PriceTable;
}

/** One file's frontmatter. The built-in file must be complete; a workspace's may name only what it changes. */
const modelsFileSchema = z.strictObject({
  kind: z.literal('models'),
  providers: z.record(z.string(), providerModelsSchema).optional(),
  prices: z.record(modelId, modelPriceSchema).optional(),
});

export class ModelsConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ModelsConfigError';
  }
}

export interface ModelsSource {
  /** Path shown in errors, e.g. `resources/models.md` or `<workspace>/models.md`. */
  file: string;
  /** Parsed YAML frontmatter. */
  data: unknown;
}

/**
 * Builds the model table from the built-in file and an optional workspace file layered over it: each
 * provider the workspace names replaces the built-in one as a whole, each model it prices is added or
 * replaces that model's price. Every tier must name a priced model (a local model is priced at 0), so a
 * budget is never checked against a model whose cost is unknown. Throws `ModelsConfigError` with one
 * line per problem, each naming the file and the field.
 */
export function buildModelsConfig(builtIn: ModelsSource, override?: ModelsSource): ModelsConfig {
  const problems: string[] = [];
  const parse = (source: ModelsSource) => {
    const result = modelsFileSchema.safeParse(source.data);
    if (result.success) return result.data;
    problems.push(...describeIssues(source.file, result.error));
    return undefined;
  };
  const base = parse(builtIn);
  const own = override ? parse(override) : undefined;
  if (problems.length > 0) throw new ModelsConfigError(problems);
  if (!base) throw new ModelsConfigError([`${builtIn.file}: no model table`]);

  const config: ModelsConfig = {
    kind: 'models',
    providers: { ...base.providers, ...own?.providers },
    prices: { ...base.prices, ...own?.prices },
  };
  if (Object.keys(config.providers).length === 0) {
    problems.push(`${builtIn.file}: providers: at least one provider with its tiers is required`);
  }
  for (const [provider, models] of Object.entries(config.providers)) {
    const file = own?.providers?.[provider] && override ? override.file : builtIn.file;
    for (const tier of MODEL_TIERS) {
      const model = models.tiers[tier];
      if (!priceOf(model, config.prices)) {
        problems.push(
          `${file}: providers.${provider}.tiers.${tier}: the model "${model}" has no price under prices (give it one; a local model costs 0)`,
        );
      }
    }
  }
  if (problems.length > 0) throw new ModelsConfigError(problems);
  return config;
}

/** The model id for a tier of a provider, or undefined when the table has no such provider. */
export function modelFor(config: ModelsConfig, provider: string, tier: ModelTier): string | undefined {
  return config.providers[provider]?.tiers[tier];
}

/**
 * The model of each tier for a provider: the table's, with `overrides` on top. Throws `ModelsConfigError`
 * when a tier has no model.
 */
export function resolveTiers(provider: string, config: ModelsConfig | undefined, overrides?: Partial<Tiers>): Tiers {
  const merged: Partial<Tiers> = { ...config?.providers[provider]?.tiers, ...overrides };
  const missing = MODEL_TIERS.filter((tier) => !merged[tier]);
  if (missing.length > 0) {
    throw new ModelsConfigError([
      `providers.${provider}.tiers: no model for ${missing.join(', ')} (name one in models.md or pass it to the client)`,
    ]);
  }
  return merged as Tiers;
}

/**
 * The price of a model: by its exact id, else by the id without a trailing date (`claude-haiku-4-5-20251001`
 * is priced as `claude-haiku-4-5`), since a provider may answer with the dated snapshot of an alias.
 */
export function priceOf(model: string, prices: PriceTable): ModelPrice | undefined {
  if (Object.hasOwn(prices, model)) return prices[model];
  const alias = model.replace(/-\d{8}$/, '');
  return alias !== model && Object.hasOwn(prices, alias) ? prices[alias] : undefined;
}

export interface Cost {
  usd: number;
  /** False when the model is not in the table: the cost is then 0 and should not be trusted. */
  priced: boolean;
}

/** The cost in US dollars of one call's usage. An unknown model costs 0 with `priced: false`; never throws. */
export function costOf(model: string, usage: LlmUsage, prices: PriceTable): Cost {
  const price = priceOf(model, prices);
  if (!price) return { usd: 0, priced: false };
  const usd =
    (usage.inputTokens * price.inputPerMTok +
      usage.outputTokens * price.outputPerMTok +
      usage.cacheWriteTokens * price.cacheWritePerMTok +
      usage.cacheReadTokens * price.cacheReadPerMTok) /
    1_000_000;
  return { usd, priced: true };
}

/** Rough token count of a text: one token per four characters, rounded up. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface CostEstimateInput {
  system: string;
  messages: readonly LlmMessage[];
  /** Messages before this index are the cached transcript (see `LlmRequest.stablePrefix`). */
  stablePrefix?: number;
  maxTokens: number;
  /** The answer's JSON Schema (it is sent with every call), or a zod schema to convert. */
  jsonSchema?: unknown;
  schema?: z.ZodType<unknown>;
}

export interface CallCostEstimate {
  /** Input tokens of the cacheable head (tools, system and the stable transcript). */
  prefixTokens: number;
  /** Input tokens after the stable transcript (this turn's request). */
  tailTokens: number;
  /** The most the answer may take. */
  outputTokens: number;
  /** The worst case: the head written to the cache, the tail at the input price, every output token used. */
  worstCaseUsd: number;
  /** The likely case once the head is cached: the head read from the cache, half the output tokens used. */
  cachedUsd: number;
  priced: boolean;
}

/** JSON Schema of a zod schema as sent to a provider: the input side, without the `$schema` marker. */
export function jsonSchemaOf(schema: z.ZodType<unknown>): Record<string, unknown> {
  const { $schema: _marker, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/**
 * What a call may cost before it is made, with tokens approximated as characters / 4. The worst case is
 * what the budget guard checks; the cached case is a fair figure for estimating a whole debate, whose
 * turns mostly re-read the cached transcript.
 */
export function estimateCallCost(request: CostEstimateInput, model: string, prices: PriceTable): CallCostEstimate {
  const schemaJson =
    request.jsonSchema !== undefined
      ? JSON.stringify(request.jsonSchema)
      : request.schema
        ? JSON.stringify(jsonSchemaOf(request.schema))
        : '';
  const stable = Math.max(0, Math.min(request.stablePrefix ?? 0, request.messages.length));
  const prefixTokens =
    approxTokens(schemaJson) +
    approxTokens(request.system) +
    request.messages.slice(0, stable).reduce((sum, m) => sum + approxTokens(m.content), 0);
  const tailTokens = request.messages.slice(stable).reduce((sum, m) => sum + approxTokens(m.content), 0);
  const outputTokens = request.maxTokens;
  const price = priceOf(model, prices);
  if (!price) return { prefixTokens, tailTokens, outputTokens, worstCaseUsd: 0, cachedUsd: 0, priced: false };
  const perToken = (perMTok: number) => perMTok / 1_000_000;
  const headWorst = Math.max(price.cacheWritePerMTok, price.inputPerMTok);
  const worstCaseUsd =
    prefixTokens * perToken(headWorst) +
    tailTokens * perToken(price.inputPerMTok) +
    outputTokens * perToken(price.outputPerMTok);
  const cachedUsd =
    prefixTokens * perToken(price.cacheReadPerMTok) +
    tailTokens * perToken(price.inputPerMTok) +
    (outputTokens / 2) * perToken(price.outputPerMTok);
  return { prefixTokens, tailTokens, outputTokens, worstCaseUsd, cachedUsd, priced: true };
}
