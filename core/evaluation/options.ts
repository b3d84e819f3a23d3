import { z } from 'zod';
import { issuePath } from '../text/zod-issues';
import type { EvaluationConfig, EvaluationConfigOverrides } from './config';
import { EvaluationInputError } from './errors';
import { ARBITER_MODES, FIRST_PRINCIPLES } from './vocabulary';

/**
 * The debate options a researcher sets (seed 12.5), in the words the evaluate form and
 * `evaluate --option k=v` use. Each maps onto one knob of the protocol's config (`configFromOptions`);
 * the others (challenge depth, rounds) are the mode's.
 */
export const evaluationOptionsSchema = z.strictObject({
  /** 1–3: at most this many red-team personas challenge one evaluator in a round (default: any). */
  redTeamersPerEvaluator: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be 1, 2 or 3')
    .max(3, 'must be 1, 2 or 3')
    .optional(),
  /** lenient | moderate | strict (default moderate). */
  firstPrinciples: z.enum(FIRST_PRINCIPLES, 'must be lenient, moderate or strict').optional(),
  /** passive (scores move at the round's end) | active (after each exchange; default). */
  arbiter: z.enum(ARBITER_MODES, 'must be passive or active').optional(),
  /** 1–3: the arbiter moves a score by at most ±this (default 2). */
  adjustmentRange: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be 1, 2 or 3')
    .max(3, 'must be 1, 2 or 3')
    .optional(),
  /** 0.5–0.9: every criterion's confidence must reach this to converge (default 0.7). */
  minConfidence: z.number().min(0.5, 'must be at least 0.5').max(0.9, 'must be at most 0.9').optional(),
});
export type EvaluationOptions = z.infer<typeof evaluationOptionsSchema>;
export type ResolvedOptions = {
  redTeamersPerEvaluator: number | null;
  firstPrinciples: EvaluationConfig['firstPrinciples'];
  arbiter: EvaluationConfig['arbiter'];
  adjustmentRange: number;
  minConfidence: number;
};

export const OPTION_NAMES = Object.keys(evaluationOptionsSchema.shape) as (keyof EvaluationOptions)[];

/** Critical criteria keep their higher bar: a tenth above the minimum (0.8 beside the default 0.7). */
const CRITICAL_MARGIN = 0.1;

/** The config overrides the options stand for (an option not given leaves its knob alone). */
export function configFromOptions(options: EvaluationOptions): EvaluationConfigOverrides {
  const out: EvaluationConfigOverrides = {};
  if (options.redTeamersPerEvaluator !== undefined) out.redTeamersPerEvaluator = options.redTeamersPerEvaluator;
  if (options.firstPrinciples !== undefined) out.firstPrinciples = options.firstPrinciples;
  if (options.arbiter !== undefined) out.arbiter = options.arbiter;
  if (options.adjustmentRange !== undefined) out.scoreAdjustmentRange = options.adjustmentRange;
  if (options.minConfidence !== undefined) {
    const critical = Math.min(1, Math.round((options.minConfidence + CRITICAL_MARGIN) * 100) / 100);
    out.confidence = { minimum: options.minConfidence, criticalMinimum: critical };
  }
  return out;
}

/** The options a resolved config ran under, for the locked document and the views. */
export function optionsOf(config: EvaluationConfig): ResolvedOptions {
  return {
    redTeamersPerEvaluator: config.redTeamersPerEvaluator,
    firstPrinciples: config.firstPrinciples,
    arbiter: config.arbiter,
    adjustmentRange: config.scoreAdjustmentRange,
    minConfidence: config.confidence.minimum,
  };
}

/** The options in words, as the locked document and the evaluation view both say them. */
export function optionsInWords(o: ResolvedOptions): string {
  const n = o.redTeamersPerEvaluator;
  return [
    n === null
      ? 'any number of red-teamers per evaluator'
      : `at most ${n} red-teamer${n === 1 ? '' : 's'} per evaluator`,
    `${o.firstPrinciples} first principles`,
    `${o.arbiter} arbiter`,
    `adjustments within ±${o.adjustmentRange}`,
    `minimum confidence ${o.minConfidence}`,
  ].join(', ');
}

/** Options checked, with an error that names the field (`minConfidence: must be at most 0.9`). */
export function checkOptions(value: unknown): EvaluationOptions {
  const result = evaluationOptionsSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? issuePath(issue.path) : '';
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown option ${issue.keys.map((k) => `"${k}"`).join(', ')} (one of ${OPTION_NAMES.join(', ')})`
      : `${field === '' ? '' : `${field}: `}${issue?.message ?? 'invalid'}`;
  throw new EvaluationInputError(message);
}

/**
 * `k=v` pairs as given on the command line (`--option arbiter=passive --option minConfidence=0.6`),
 * each value read as its option's type, then checked. An error names the pair and the field.
 */
export function optionsFromPairs(pairs: readonly string[]): EvaluationOptions {
  const raw: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair.trim() : pair.slice(0, eq).trim();
    const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (eq < 0 || key === '' || value === '')
      throw new EvaluationInputError(`--option "${pair}": write it as NAME=VALUE (one of ${OPTION_NAMES.join(', ')})`);
    if (key in raw) throw new EvaluationInputError(`--option ${key} is given twice`);
    const numeric = ['redTeamersPerEvaluator', 'adjustmentRange', 'minConfidence'].includes(key);
    raw[key] = numeric && value !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  try {
    return checkOptions(raw);
  } catch (error) {
    if (error instanceof EvaluationInputError) throw new EvaluationInputError(`--option ${error.message}`);
    throw error;
  }
}
