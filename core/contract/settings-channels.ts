import { z } from 'zod';
import { MODEL_TIERS } from '../personas/persona';
import { IDEA_FILE_KINDS, PROVIDERS } from './entities';
import { debateIdSchema, slugSchema } from './ids';

/**
 * Settings (provider, key, models per tier, prices, budgets, concurrency), export of syntheses and
 * transcripts, and the few idea channels the library, idea and graph views need beyond ideas:*
 * of core/contract.ts (one text file of an idea, every relationship at once, the development Q&A).
 * Spread into `channels` and `pushEvents` of core/contract.ts.
 */

const slug = slugSchema;
const modelId = z.string().trim().min(1, 'must be a model id').max(200);
const usd = z.number().nonnegative('must be an amount in US dollars, 0 or more').max(100_000, 'is more than $100,000');
const perMTok = z.number().nonnegative('must be a price in US dollars per million tokens, 0 or more').max(100_000);
const concurrency = z.number().int('must be a whole number').min(1, 'must be at least 1').max(32, 'must be at most 32');

/** The provider labels of the model table (`models.md`): the `openai` provider reads `openai-compatible`. */
export const MODEL_TABLE_PROVIDERS = ['anthropic', 'openai-compatible'] as const;
/** Providers that take an API key (a local OpenAI-compatible server may need one too). */
export const KEY_PROVIDERS = ['anthropic', 'openai'] as const;
export const EXPORT_DOCUMENT_FORMATS = ['md', 'html', 'pdf'] as const;
export const EXPORT_SOURCES = ['synthesis', 'transcript'] as const;

/** Which document to export: an idea's synthesis (`id` is its slug) or a debate's transcript (its id). */
const exportedDocument = z
  .strictObject({
    source: z.enum(EXPORT_SOURCES),
    /** The idea's slug (synthesis) or the debate's id (transcript). */
    id: z.string().trim().min(1, 'needs an idea slug or a debate id').max(200),
    format: z.enum(EXPORT_DOCUMENT_FORMATS),
  })
  .superRefine((input, ctx) => {
    const checked = (input.source === 'synthesis' ? slugSchema : debateIdSchema).safeParse(input.id);
    if (!checked.success)
      ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'is not valid', path: ['id'] });
  });

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

export const developmentViewSchema = z.strictObject({
  questions: z.array(
    z.strictObject({
      number: z.number().int().positive(),
      question: z.string(),
      asked: z.string().nullable(),
      source: z.string().nullable(),
      gap: z.string().nullable(),
      answer: z.string().nullable(),
    }),
  ),
  /** Numbers of the questions this call added. */
  added: z.array(z.number().int().positive()),
  /** development.md, or the conflict copy beside it when the researcher edited it meanwhile. */
  path: z.string(),
  conflict: z.boolean(),
});
export type DevelopmentView = z.infer<typeof developmentViewSchema>;

export const relationshipViewSchema = z.strictObject({
  source: z.string(),
  target: z.string(),
  type: z.string(),
  strength: z.number().nullable(),
  reason: z.string().nullable(),
});

export const settingsChannels = {
  /** The settings as they apply now: provider, models per tier, prices, budgets, whether keys are set. */
  'settings:get': { input: z.strictObject({}), output: settingsViewSchema },
  /**
   * Changes some settings. Provider, budgets and concurrency go to `<workspace>/settings.md`; tiers,
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

  /**
   * An idea's synthesis or a debate's transcript as Markdown, self-contained HTML or PDF, handed
   * back for the page to save (text as is; a PDF base64-encoded). Nothing is written in the workspace.
   */
  'export:document': {
    input: exportedDocument,
    output: z.strictObject({
      fileName: z.string(),
      mimeType: z.string(),
      encoding: z.enum(['utf8', 'base64']),
      content: z.string(),
      bytes: z.number().int().nonnegative(),
    }),
  },

  /**
   * Cancels the running `export:document` of this document and format: its printing stops at once
   * and it fails with a `user_error` saying it was cancelled. `cancelled` is false when none ran.
   */
  'export:cancel': {
    input: exportedDocument,
    output: z.strictObject({ cancelled: z.boolean() }),
  },

  /** One text file of an idea (a research note, development.md …), by its workspace-relative path. */
  'ideas:file': {
    input: z.strictObject({ slug, path: z.string().trim().min(1, 'needs a file path').max(1000) }),
    output: z.strictObject({
      path: z.string(),
      kind: z.enum(IDEA_FILE_KINDS),
      /** The file's text (frontmatter included), cut at 512 KiB. */
      text: z.string(),
      truncated: z.boolean(),
    }),
  },
  /** Every relationship between ideas (the graph view). */
  'ideas:relationships': {
    input: z.strictObject({}),
    output: z.strictObject({ relationships: z.array(relationshipViewSchema) }),
  },
  /** The development questions of an idea (its development.md) and their answers. */
  'ideas:questions': { input: z.strictObject({ slug }), output: developmentViewSchema },
  /** Asks the development agent for the questions the idea is missing (on the settings' provider unless named). */
  'ideas:develop': {
    input: z.strictObject({
      slug,
      provider: z.enum(PROVIDERS).optional(),
      seed: z.number().int().nonnegative().optional(),
    }),
    output: developmentViewSchema,
  },
  /**
   * Stops the development agent's call for an idea, if one is running: its `ideas:develop` then fails
   * with a `user_error` saying it was cancelled, and nothing is written.
   */
  'ideas:developCancel': {
    input: z.strictObject({ slug }),
    output: z.strictObject({ cancelled: z.boolean() }),
  },
  /** Records the answer to development question `number`. */
  'ideas:answer': {
    input: z.strictObject({
      slug,
      number: z.number().int().positive('must be a question number (1 or more)'),
      text: z.string().trim().min(1, 'an answer needs some text').max(100_000),
    }),
    output: developmentViewSchema,
  },
} as const;

export const settingsPushEvents = {} as const;

/** The model tiers, in order (for forms). */
export const SETTINGS_TIERS = MODEL_TIERS;
