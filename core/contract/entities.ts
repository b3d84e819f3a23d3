import { z } from 'zod';
import { configOverridesSchema } from '../crux/config';
import { HORIZONS, SIDES } from '../crux/vocabulary';
import { DEBATE_STATUSES } from '../engine/debate-record';
import { EVALUATION_CATEGORIES, MODEL_TIERS, PERSONA_ROLES, RED_TEAM_MODES } from '../personas/persona';
import { baselineComparisonSchema, cruxResultSchema } from './crux';
import { slugSchema } from './ids';

// The shapes the channels carry. Outputs are strict objects: a field the contract does not name is
// an error, so a handler that leaks or renames something fails its test instead of the UI.

const count = z.number().int().nonnegative();

// ---- ideas ---------------------------------------------------------------------------------------

/** The kinds of file an idea folder holds (core/idea/layout.ts `IdeaFileKind`). */
export const IDEA_FILE_KINDS = [
  'readme',
  'development',
  'research',
  'note',
  'asset',
  'evaluation',
  'redteam',
  'synthesis',
  'debate',
  'conflict',
  'other',
] as const;

/** One idea as lists show it. */
export const ideaSummarySchema = z.strictObject({
  slug: z.string(),
  id: z.string(),
  title: z.string(),
  type: z.string().nullable(),
  stage: z.string(),
  tags: z.array(z.string()),
  summary: z.string(),
  created: z.string().nullable(),
  updated: z.string().nullable(),
  /** The idea's inputs changed since its evaluation was recorded. */
  stale: z.boolean(),
  overallScore: z.number().nullable(),
  confidence: z.number().nullable(),
  evaluatedAt: z.string().nullable(),
});
export type IdeaSummary = z.infer<typeof ideaSummarySchema>;

/** A file that could not be read or indexed, and why (workspace-relative path). */
export const fileProblemSchema = z.strictObject({ file: z.string(), reason: z.string() });
export type FileProblem = z.infer<typeof fileProblemSchema>;

export const ideaDetailSchema = ideaSummarySchema.extend({
  /** Other idea types it also belongs to (`secondaryTypes:` in its README; the seed's secondary domains). */
  secondaryTypes: z.array(z.string()),
  /** The README's body (markdown, frontmatter removed). */
  readme: z.string(),
  files: z.array(z.strictObject({ path: z.string(), kind: z.enum(IDEA_FILE_KINDS), size: count })),
  relationships: z.array(
    z.strictObject({
      source: z.string(),
      target: z.string(),
      type: z.string(),
      strength: z.number().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  errors: z.array(fileProblemSchema),
});
export type IdeaDetail = z.infer<typeof ideaDetailSchema>;

export const searchHitSchema = z.strictObject({
  slug: z.string(),
  title: z.string(),
  /** Text around the match, the matched words in [brackets]. */
  snippet: z.string(),
  /** Lower is better. */
  rank: z.number(),
});

export const captureResultSchema = z.strictObject({
  slug: z.string(),
  /** Where the README was written (workspace-relative). */
  path: z.string(),
  /** The file changed on disk meanwhile: the app's version was kept beside it at `path`. */
  conflict: z.boolean(),
  idea: ideaSummarySchema.nullable(),
});

// ---- workspace -----------------------------------------------------------------------------------

export const syncReportSchema = z.strictObject({
  ideas: count,
  files: count,
  added: count,
  changed: count,
  removed: count,
  errors: z.array(fileProblemSchema),
  durationMs: z.number().nonnegative(),
  slugs: z.strictObject({ added: z.array(z.string()), changed: z.array(z.string()), removed: z.array(z.string()) }),
});
export type SyncReportView = z.infer<typeof syncReportSchema>;

/** Where a problem was found: an idea file, a debate log, or a persona file. */
export const PROBLEM_SOURCES = ['idea', 'debate', 'persona'] as const;

export const workspaceProblemSchema = fileProblemSchema.extend({ source: z.enum(PROBLEM_SOURCES) });

// ---- taxonomy ------------------------------------------------------------------------------------

export const taxonomyViewSchema = z.strictObject({
  /** Lifecycle stages in order. */
  stages: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      phase: z.string().nullable(),
      description: z.string(),
      exitCriteria: z.string().nullable(),
    }),
  ),
  types: z.array(
    z.strictObject({ id: z.string(), name: z.string(), description: z.string(), focus: z.array(z.string()) }),
  ),
  /** The evaluation categories with their weights and criteria. */
  categories: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      weight: z.number(),
      description: z.string().nullable(),
      criteria: z.array(
        z.strictObject({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          scale: z.strictObject({ low: z.string(), high: z.string() }),
          critical: z.boolean(),
        }),
      ),
    }),
  ),
  scale: z.strictObject({ min: z.number().int(), max: z.number().int() }),
  tagCategories: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      tags: z.array(z.strictObject({ id: z.string(), description: z.string().nullable() })),
    }),
  ),
});
export type TaxonomyView = z.infer<typeof taxonomyViewSchema>;

// ---- personas ------------------------------------------------------------------------------------

export const personaSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  role: z.enum(PERSONA_ROLES),
  tier: z.enum(MODEL_TIERS),
  description: z.string(),
  interests: z.array(z.string()),
  /** Shipped with the app, or the researcher's own file in `<workspace>/personas/`. */
  source: z.enum(['built-in', 'workspace']),
  file: z.string(),
  // Role-specific fields, null where the role has none.
  side: z.enum(SIDES).nullable(),
  defaultHorizon: z.enum(HORIZONS).nullable(),
  category: z.enum(EVALUATION_CATEGORIES).nullable(),
  mode: z.enum(RED_TEAM_MODES).nullable(),
});
export type PersonaSummary = z.infer<typeof personaSummarySchema>;

// ---- debates -------------------------------------------------------------------------------------

/** Model providers a debate can run on (core/node/debates/providers.ts checks it is the same list). */
export const PROVIDERS = ['simulated', 'anthropic', 'openai'] as const;

export const debateStatusSchema = z.enum(DEBATE_STATUSES);

export const debateSummarySchema = z.strictObject({
  id: z.string(),
  topic: z.string(),
  ideaSlug: z.string().nullable(),
  /** As last logged; `running` with `live: false` means interrupted (resumable). */
  status: debateStatusSchema,
  provider: z.string().nullable(),
  createdAt: z.string(),
  costUsd: z.number().nonnegative(),
  /** Running (or paused) in this app right now. */
  live: z.boolean(),
});
export type DebateSummary = z.infer<typeof debateSummarySchema>;

const limitsShape = {
  maxMessages: z.number().int().positive(),
  maxDurationMs: z.number().int().positive(),
  /** 0 means no budget limit. */
  budgetUsd: z.number().nonnegative(),
  stagnationTurns: z.number().int().positive(),
  concurrency: z.number().int().min(1).max(32),
};

export const debateHeaderViewSchema = z.strictObject({
  id: z.string(),
  protocol: z.literal('crux'),
  topic: z.string(),
  ideaSlug: z.string().nullable(),
  agents: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      persona: z.string().nullable(),
      topClaim: z.strictObject({ statement: z.string(), side: z.enum(SIDES), confidence: z.number() }).optional(),
      defaultHorizon: z.enum(HORIZONS).optional(),
      interests: z.array(z.string()),
      tier: z.enum(MODEL_TIERS),
    }),
  ),
  config: z.record(z.string(), z.unknown()),
  provider: z.string(),
  seed: z.number().int().nullable(),
  limits: z.strictObject(limitsShape),
  createdAt: z.string(),
});

export const debateDetailSchema = z.strictObject({
  header: debateHeaderViewSchema,
  /** As last logged (`running` with `live: false` means interrupted). */
  status: debateStatusSchema,
  live: z.boolean(),
  /** The outcome so far (a running debate's is `partial`). */
  result: cruxResultSchema,
  /** The readable transcript, once the debate has stopped. */
  transcript: z.string().nullable(),
  /** Records in the log. */
  records: count,
  /** The single pass beside the result, when the debate has one (`debate --baseline`). */
  baseline: baselineComparisonSchema.optional(),
});
export type DebateDetail = z.infer<typeof debateDetailSchema>;

/** What to debate, with whom, on which provider: the input of `debates:start` and `debates:estimate`. */
export const debateRequestSchema = z
  .strictObject({
    ideaSlug: slugSchema.optional(),
    topic: z.string().trim().min(1).max(1000).optional(),
    agents: z
      .array(z.string().min(1))
      .min(2, 'a crux debate needs 2 to 12 agents')
      .max(12, 'a crux debate needs 2 to 12 agents'),
    provider: z.enum(PROVIDERS),
    seed: z.number().int().nonnegative().optional(),
    limits: z.strictObject(limitsShape).partial().optional(),
    config: configOverridesSchema.optional(),
    /** Once it ends, also ask each agent once, alone (`debates:baseline`); its calls are in the estimate. */
    baseline: z.boolean().optional(),
  })
  .refine((request) => request.ideaSlug !== undefined || request.topic !== undefined, {
    message: 'a debate needs an idea (ideaSlug) or a topic',
    path: ['topic'],
  });
export type DebateRequest = z.infer<typeof debateRequestSchema>;

/** What a run of any protocol would cost before it starts (a start form's and the CLI's preview). */
export const runEstimateSchema = z.strictObject({
  /** Likely calls and cost (USD). */
  calls: count,
  usd: z.number().nonnegative(),
  /** Every call the config and limits allow, each at its worst (USD; the budget caps it). */
  worstCalls: count,
  worstUsd: z.number().nonnegative(),
  /** How the figure was reached, in words. */
  basis: z.string(),
  /** Why the chosen provider cannot run now (no key, no server), or null: Start stays off until it can. */
  cannotRun: z.string().nullable(),
});
export const debateEstimateSchema = runEstimateSchema;
