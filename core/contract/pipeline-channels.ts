import { z } from 'zod';
import { MODES } from '../evaluation/vocabulary';
import { pipelineEntrySchema } from '../pipeline/log';
import { PAID_STEPS, PIPELINE_STEPS, pipelineSettingsPatchSchema } from '../pipeline/steps';
import { PROVIDERS } from './entities';
import { slugSchema } from './ids';

// The steps' names and order, for the views (the renderer reads core/ through the contract only).
export { PIPELINE_STEPS, type PipelineStep, STEP_NAMES } from '../pipeline/steps';

/**
 * `pipeline:*`: the pipeline that runs itself (docs/pipeline.md) — its switches and daily budget
 * (pipeline.md), whether it runs and which process performs it, today's spend, each step's cost
 * preview, what is due, refused, held in the review gate or halted, and each idea's log. Spread
 * into `channels` of core/contract.ts.
 */

const usd = z.number().nonnegative();
const paidStep = z.enum(PAID_STEPS);
const stepStatus = z.enum(['pending', 'running', 'held', 'approved', 'stopped', 'failed', 'done']);

const criticalSchema = z.strictObject({
  id: z.string(),
  round: z.number().int().min(0),
  criterion: z.string(),
  persona: z.string(),
  challenge: z.string(),
  winner: z.enum(['EVALUATOR', 'RED_TEAM', 'DRAW']).nullable(),
});

export const pipelineSettingsSchema = z.strictObject({
  steps: z.strictObject(
    Object.fromEntries(PIPELINE_STEPS.map((s) => [s, z.boolean()])) as Record<
      (typeof PIPELINE_STEPS)[number],
      z.ZodBoolean
    >,
  ),
  dailyBudgetUsd: usd,
  reviewGate: z.boolean(),
  evaluationMode: z.enum(MODES),
  provider: z.enum(PROVIDERS).nullable(),
  maxReevaluations: z.number().int().min(0),
});

export const stepPreviewSchema = z.strictObject({
  calls: z.number().nonnegative(),
  usd,
  worstCalls: z.number().nonnegative(),
  worstUsd: usd,
  basis: z.string(),
  cannotRun: z.string().nullable(),
});

export const plannedStepSchema = z.strictObject({
  slug: z.string(),
  title: z.string(),
  step: paidStep,
  kind: z.enum(['start', 'resume', 'skip', 'settle']),
  evaluationId: z.string().nullable(),
  reevaluation: z.boolean(),
  approved: z.boolean(),
  /** An approved evaluation's lock is all it has left: its narrative call, or nothing (it locks from its figures). */
  lock: z.enum(['narrative', 'figures']).nullable(),
  reason: z.string(),
  estimate: stepPreviewSchema.nullable(),
  capUsd: usd,
});

export const pipelineStatusSchema = z.strictObject({
  settings: pipelineSettingsSchema,
  /** The settings file, relative to the workspace. */
  file: z.string(),
  /** What is wrong in pipeline.md or an idea's log, each naming the file (and line). */
  problems: z.array(z.string()),
  /** Switched on (`pipeline run`) and not stopped. */
  running: z.boolean(),
  /** This process has a step running or about to start (`pipeline run` on the CLI waits for it to end). */
  working: z.boolean(),
  /** The process performing it (this one, or another: the desktop app, a CLI), or null. */
  performer: z.strictObject({ pid: z.number().int(), here: z.boolean(), since: z.string() }).nullable(),
  provider: z.enum(PROVIDERS),
  /** The local day whose spend counts. */
  today: z.string(),
  spentTodayUsd: usd,
  remainingUsd: usd,
  estimates: z.strictObject({
    develop: stepPreviewSchema,
    evaluate: stepPreviewSchema,
    redteam: stepPreviewSchema,
    classify: stepPreviewSchema,
  }),
  current: z
    .strictObject({
      slug: z.string(),
      title: z.string(),
      step: paidStep,
      evaluationId: z.string().nullable(),
      startedAt: z.string(),
    })
    .nullable(),
  /** Every step due, in the order it would run. */
  queue: z.array(plannedStepSchema),
  refused: z.array(
    z.strictObject({ slug: z.string(), title: z.string(), step: paidStep, message: z.string(), unlogged: z.boolean() }),
  ),
  /** Evaluations held in the review gate with the CRITICAL challenges to see. */
  waiting: z.array(
    z.strictObject({
      slug: z.string(),
      title: z.string(),
      step: z.enum(['evaluate', 'redteam']),
      evaluationId: z.string(),
      critical: z.array(criticalSchema),
      /** At its review (the narrative call left), or where its budget or time ran out (it would have locked from its figures). */
      heldAt: z.enum(['review', 'budget', 'time']),
    }),
  ),
  halted: z.array(z.strictObject({ slug: z.string(), title: z.string(), step: paidStep, message: z.string() })),
  /** Ideas in the pipeline, the most recently active first. */
  ideas: z.array(
    z.strictObject({
      slug: z.string(),
      title: z.string(),
      steps: z.strictObject(
        Object.fromEntries(PIPELINE_STEPS.map((s) => [s, stepStatus])) as Record<
          (typeof PIPELINE_STEPS)[number],
          typeof stepStatus
        >,
      ),
      costUsd: usd,
      todayUsd: usd,
      last: z
        .strictObject({
          at: z.string(),
          step: z.enum(PIPELINE_STEPS),
          event: z.string(),
          note: z.string(),
          costUsd: usd,
        })
        .nullable(),
    }),
  ),
});
export type PipelineStatusView = z.infer<typeof pipelineStatusSchema>;

export const pipelineChannels = {
  /** Where the pipeline stands: switches, budget and today's spend, previews, queue, gate, ideas. */
  'pipeline:status': { input: z.strictObject({}), output: pipelineStatusSchema },
  /** Changes the switches, budget, gate, mode or provider in pipeline.md (only the fields given). */
  'pipeline:configure': { input: pipelineSettingsPatchSchema, output: pipelineStatusSchema },
  /** Switches the pipeline on, optionally sending ideas through it (again); it runs in the background. */
  'pipeline:run': {
    input: z.strictObject({ slugs: z.array(slugSchema).max(100).default([]) }),
    output: pipelineStatusSchema,
  },
  /** Switches it off: the running step stops at its checkpoint and continues at the next run. */
  'pipeline:stop': { input: z.strictObject({}), output: pipelineStatusSchema },
  /** Lets an evaluation held in the review gate lock. */
  'pipeline:approve': {
    input: z.strictObject({
      slug: slugSchema,
      evaluationId: z.string().trim().min(1, 'needs an evaluation id').max(100),
    }),
    output: pipelineStatusSchema,
  },
  /** One idea's pipeline log (its `pipeline.md`), oldest entry first. */
  'pipeline:log': {
    input: z.strictObject({ slug: slugSchema }),
    output: z.strictObject({ slug: z.string(), path: z.string(), entries: z.array(pipelineEntrySchema) }),
  },
} as const;

export const pipelinePushEvents = {
  /** The pipeline logged an entry (of `slug`), or its switches or running state changed (null). */
  'pipelinerun:changed': z.strictObject({ slug: z.string().nullable() }),
} as const;
