import { z } from 'zod';
import { MODES, type Mode } from '../evaluation/vocabulary';

/**
 * The pipeline's steps, in the order an idea goes through them (seed §11.1): an idea enters it
 * (capture), the development agent asks what it is missing, an evaluation debates it, a red team
 * challenges the evaluation's strongest criterion once more, and the classifier files it.
 */
export const PIPELINE_STEPS = ['capture', 'develop', 'evaluate', 'redteam', 'classify'] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

/** The steps that make model calls (capture only records that an idea entered the pipeline). */
export const PAID_STEPS = ['develop', 'evaluate', 'redteam', 'classify'] as const satisfies readonly PipelineStep[];
export type PaidStep = (typeof PAID_STEPS)[number];

/** The steps that run an evaluation (and so can be held in the review gate). */
export function isEvaluationStep(step: PipelineStep): step is 'evaluate' | 'redteam' {
  return step === 'evaluate' || step === 'redteam';
}

export const STEP_NAMES: Readonly<Record<PipelineStep, string>> = {
  capture: 'capture',
  develop: 'develop',
  evaluate: 'evaluate',
  redteam: 'red team',
  classify: 'classify',
};

/** What one workspace's pipeline does, from its settings file (`pipeline.md`). */
export interface PipelineSettings {
  /** Each step switched on or off. */
  steps: Record<PipelineStep, boolean>;
  /** The most the pipeline may spend in one day (local time), in USD, over every idea. */
  dailyBudgetUsd: number;
  /** Hold an evaluation with CRITICAL challenges before it locks, until the researcher approves it. */
  reviewGate: boolean;
  /** The mode of the evaluations it runs. */
  evaluationMode: Mode;
  /** The provider its calls go to; null: the workspace's (settings.md). */
  provider: string | null;
  /** How many times a red team's CRITICAL challenges may send an idea back to evaluation. */
  maxReevaluations: number;
}

/** Nothing runs a model until a step is switched on; the budget is small until raised. */
export const DEFAULT_PIPELINE_SETTINGS: PipelineSettings = {
  steps: { capture: false, develop: false, evaluate: false, redteam: false, classify: false },
  dailyBudgetUsd: 1,
  reviewGate: true,
  evaluationMode: 'quick',
  provider: null,
  maxReevaluations: 1,
};

/** A change to the settings, as a channel or the CLI sends it (every field optional). */
export const pipelineSettingsPatchSchema = z.strictObject({
  steps: z.partialRecord(z.enum(PIPELINE_STEPS), z.boolean()).optional(),
  dailyBudgetUsd: z.number().min(0, 'must be 0 or more').max(10_000, 'must be at most 10000').optional(),
  reviewGate: z.boolean().optional(),
  evaluationMode: z.enum(MODES).optional(),
  /** A provider name, or null for the workspace's. */
  provider: z.enum(['simulated', 'anthropic', 'openai']).nullable().optional(),
  maxReevaluations: z.number().int().min(0).max(3).optional(),
});
export type PipelineSettingsPatch = z.infer<typeof pipelineSettingsPatchSchema>;

/** What a step would cost before it runs (a cost preview, priced for the pipeline's provider). */
export interface StepEstimate {
  calls: number;
  usd: number;
  worstCalls: number;
  worstUsd: number;
  basis: string;
  /** Why the provider cannot run now (no key …), or null. */
  cannotRun: string | null;
}
