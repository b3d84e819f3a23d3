import { z } from 'zod';
import { MODEL_TIERS } from '../personas/persona';
import { PROVIDERS } from './entities';

/**
 * `settings:*`: the provider, API keys, models per tier, prices, budgets and concurrency.
 * Spread into `channels` of core/contract.ts.
 */

const modelId = z.string().trim().min(1, 'must be a model id').max(200);
const usd = z.number().nonnegative('must be an amount in US dollars, 0 or more').max(100_000, 'is more than $100,000');
const perMTok = z.number().nonnegative('must be a price in US dollars per million tokens, 0 or more').max(100_000);
const concurrency = z.number().int('must be a whole number').min(1, 'must be at least 1').max(32, 'must be at most 32');

/** The provider labels of the model table (`models.md`): the `openai` provider reads `openai-compatible`. */
export const MODEL_TABLE_PROVIDERS = ['anthropic', 'openai-compatible'] as const;
/** Providers that take an API key (a local OpenAI-compatible server may need one too). */
export const KEY_PROVIDERS = ['anthropic', 'openai'] as const;

const tiers = z.strictObject({ fast: z.string(), standard: z.string(), deep: z.string() });
const priceFields = {
  inputPerMTok: perMTok,
  outputPerMTok: perMTok,
  cacheWritePerMTok: perMTok,
  cacheReadPerMTok: perMTok,
};

/** The budgets and concurrency the app starts debates and evaluations with. */
const limitsShape = {
  /** The most one crux debate may spend (0: no cap). */
  debateBudgetUsd: usd,
  /** The most one evaluation may spend. */
  evaluationBudgetUsd: usd,
  /** Model calls a debate makes at once. */
  debateConcurrency: concurrency,
  /** Model calls an evaluation makes at once. */
  evaluationConcurrency: concurrency,
};
export const settingsLimitsSchema = z.strictObject(limitsShape);

/**
 * How the offline simulator's runs unfold in the app: `paced` spreads a debate over a few seconds so
 * it can be watched as it happens; `instant` answers at once. The CLI and tests are always instant.
 */
export const SIMULATED_PACES = ['paced', 'instant'] as const;
export type SimulatedPace = (typeof SIMULATED_PACES)[number];
export type SettingsLimits = z.infer<typeof settingsLimitsSchema>;

export const settingsViewSchema = z.strictObject({
  /** The workspace folder (absolute). The desktop shell changes it; browser mode takes `--workspace`. */
  workspace: z.string(),
  /** Where these settings live (workspace-relative) and whether the file exists yet. */
  file: z.string(),
  fileExists: z.boolean(),
  /** The workspace's model table, layered over the built-in one. */
  modelsFile: z.string(),
  modelsFileExists: z.boolean(),
  /** The provider new debates, evaluations and development sessions default to. */
  provider: z.enum(PROVIDERS),
  /** Which model answers each tier, per provider of the model table (built-in or the workspace's). */
  models: z.array(
    z.strictObject({
      provider: z.enum(MODEL_TABLE_PROVIDERS),
      tiers,
      baseUrl: z.string().nullable(),
      source: z.enum(['built-in', 'workspace']),
    }),
  ),
  prices: z.array(z.strictObject({ model: z.string(), ...priceFields, source: z.enum(['built-in', 'workspace']) })),
  limits: settingsLimitsSchema,
  /** How simulated runs unfold in the app (settings.md `simulatedPace`; `paced` when it does not say). */
  simulatedPace: z.enum(SIMULATED_PACES),
  /** What `limits` are when the settings file does not name them. */
  defaults: settingsLimitsSchema,
  /** Whether a key is stored (never the key). */
  keys: z.array(z.strictObject({ provider: z.enum(KEY_PROVIDERS), set: z.boolean(), variable: z.string() })),
  keyStore: z.strictObject({ backend: z.string(), secure: z.boolean(), warning: z.string().nullable() }),
  /** Problems in settings.md or models.md, with the file and the field; the defaults apply meanwhile. */
  problems: z.array(z.string()),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

const written = z.array(z.strictObject({ path: z.string(), conflict: z.boolean() }));

export const settingsChannels = {
  /** The settings as they apply now: provider, models per tier, prices, budgets, whether keys are set. */
  'settings:get': { input: z.strictObject({}), output: settingsViewSchema },
  /**
   * Changes some settings. Provider, budgets, concurrency and the simulator's pace go to `<workspace>/settings.md`; tiers,
   * the local server's address and prices to `<workspace>/models.md` (layered over the built-in
   * table). `null` puts a value back to its default. Written through safe writes: a file edited
   * meanwhile is kept and the app's version goes beside it (`written[].conflict`).
   */
  'settings:set': {
    input: z.strictObject({
      provider: z.enum(PROVIDERS).optional(),
      /** The local OpenAI-compatible server's API root (`http://127.0.0.1:11434/v1`). */
      openaiBaseUrl: z
        .url({ protocol: /^https?$/, error: 'must be an http(s) address' })
        .max(500)
        .nullable()
        .optional(),
      tiers: z
        .array(
          z.strictObject({
            provider: z.enum(MODEL_TABLE_PROVIDERS),
            fast: modelId.optional(),
            standard: modelId.optional(),
            deep: modelId.optional(),
          }),
        )
        .max(2)
        .optional(),
      /** Prices to add or change in the workspace's table. */
      prices: z
        .array(z.strictObject({ model: modelId, ...priceFields }))
        .max(200)
        .optional(),
      /** Models whose workspace price goes (the built-in one, if any, applies again). */
      removePrices: z.array(modelId).max(200).optional(),
      debateBudgetUsd: usd.nullable().optional(),
      evaluationBudgetUsd: usd.nullable().optional(),
      debateConcurrency: concurrency.nullable().optional(),
      evaluationConcurrency: concurrency.nullable().optional(),
      simulatedPace: z.enum(SIMULATED_PACES).nullable().optional(),
    }),
    output: z.strictObject({ settings: settingsViewSchema, written }),
  },
  /** Stores a provider's API key in the key store (the OS keychain in the desktop app). */
  'settings:setKey': {
    input: z.strictObject({
      provider: z.enum(KEY_PROVIDERS),
      key: z.string().trim().min(8, 'does not look like an API key (too short)').max(1000),
    }),
    output: z.strictObject({ provider: z.enum(KEY_PROVIDERS), set: z.boolean() }),
  },
  /** Forgets a provider's stored API key. */
  'settings:clearKey': {
    input: z.strictObject({ provider: z.enum(KEY_PROVIDERS) }),
    output: z.strictObject({ provider: z.enum(KEY_PROVIDERS), set: z.boolean() }),
  },
} as const;

/** The model tiers, in order (for forms). */
export const SETTINGS_TIERS = MODEL_TIERS;
