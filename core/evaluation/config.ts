import { z } from 'zod';
import type { ArbiterMode, FirstPrinciples, Mode } from './vocabulary';
import { ARBITER_MODES, FIRST_PRINCIPLES, MAX_ROUNDS_EVER, MODE_SETTINGS } from './vocabulary';

/**
 * Every knob of the evaluation protocol. An evaluation stores its fully resolved config, so a
 * replay or a reopened evaluation never depends on defaults that may change later.
 */
export interface EvaluationConfig {
  /** Debate rounds allowed; the mode's count unless overridden, never above 5. */
  maxRounds: number;
  /** About five challenges per round in all (appendix J.4); extra ones are dropped and counted. */
  challengesPerRound: number;
  /**
   * The arbiter's score adjustment is an integer within ±this; with a passive arbiter it also bounds
   * how far one criterion moves in one round.
   */
  scoreAdjustmentRange: number;
  /** At most this many red-team personas challenge one evaluator (category) in a round; null: any. */
  redTeamersPerEvaluator: number | null;
  /** How hard the arbiter holds both sides to first principles. */
  firstPrinciples: FirstPrinciples;
  /** Whether rulings move scores after each exchange (active) or at the round's end (passive). */
  arbiter: ArbiterMode;
  /** Two challenges on one criterion whose keyword Jaccard reaches this are the same challenge. */
  repeatSimilarity: number;
  stability: {
    /** A criterion is stable in a round when its score moved at most this much. */
    maxDelta: number;
    /** The sum of all moves in the last round may not exceed this. */
    aggregateDelta: number;
    /** How many consecutive rounds must be stable. */
    rounds: number;
  };
  confidence: { minimum: number; criticalMinimum: number };
  /** Share of MAJOR challenges that must be resolved (every CRITICAL one always must). */
  majorResolvedShare: number;
  saturation: {
    /** Fewer new insights than this in a round means the debate is saturated. */
    minNewInsights: number;
    /** More repeats than this share of the raised challenges means the same. */
    repeatShare: number;
  };
  /** Failed runs that may be retried from the start. */
  maxRetries: number;
}

export const DEFAULT_CONFIG: Omit<EvaluationConfig, 'maxRounds'> = {
  challengesPerRound: 5,
  scoreAdjustmentRange: 2,
  // No cap unless asked: the seed's default of 2 would change what every earlier evaluation ran under.
  redTeamersPerEvaluator: null,
  firstPrinciples: 'moderate',
  arbiter: 'active',
  repeatSimilarity: 0.6,
  stability: { maxDelta: 0.5, aggregateDelta: 1.0, rounds: 2 },
  confidence: { minimum: 0.7, criticalMinimum: 0.8 },
  majorResolvedShare: 0.8,
  saturation: { minNewInsights: 2, repeatShare: 0.5 },
  maxRetries: 3,
};

const share = z.number().min(0).max(1);
const positive = z.number().int().positive();

/** Overrides as written in a script's first line: every key optional, nested groups partial. */
export const configOverridesSchema = z.strictObject({
  maxRounds: z.number().int().min(1).max(MAX_ROUNDS_EVER).optional(),
  challengesPerRound: z.number().int().min(1).max(30).optional(),
  scoreAdjustmentRange: z.number().int().min(1).max(3).optional(),
  redTeamersPerEvaluator: z.number().int().min(1).max(3).nullable().optional(),
  firstPrinciples: z.enum(FIRST_PRINCIPLES).optional(),
  arbiter: z.enum(ARBITER_MODES).optional(),
  repeatSimilarity: z.number().gt(0).max(1).optional(),
  stability: z
    .strictObject({
      maxDelta: z.number().min(0).max(9),
      aggregateDelta: z.number().min(0),
      rounds: z.number().int().min(1).max(MAX_ROUNDS_EVER),
    })
    .partial()
    .optional(),
  confidence: z.strictObject({ minimum: share, criticalMinimum: share }).partial().optional(),
  majorResolvedShare: share.optional(),
  saturation: z
    .strictObject({ minNewInsights: z.number().int().min(0), repeatShare: share })
    .partial()
    .optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
});
export type EvaluationConfigOverrides = z.infer<typeof configOverridesSchema>;

/**
 * The resolved config as a schema, for documents that carry the rules they were decided under. The
 * three options added later are optional: a document locked before them ran as their defaults say.
 */
export const evaluationConfigSchema = z.object({
  maxRounds: z.number().int().min(1).max(MAX_ROUNDS_EVER),
  challengesPerRound: positive,
  scoreAdjustmentRange: positive,
  redTeamersPerEvaluator: positive.nullable().optional(),
  firstPrinciples: z.enum(FIRST_PRINCIPLES).optional(),
  arbiter: z.enum(ARBITER_MODES).optional(),
  repeatSimilarity: z.number(),
  stability: z.object({ maxDelta: z.number(), aggregateDelta: z.number(), rounds: positive }),
  confidence: z.object({ minimum: share, criticalMinimum: share }),
  majorResolvedShare: share,
  saturation: z.object({ minNewInsights: z.number().int().min(0), repeatShare: share }),
  maxRetries: z.number().int().min(0),
});

export function resolveConfig(mode: Mode, overrides: EvaluationConfigOverrides = {}): EvaluationConfig {
  const d = DEFAULT_CONFIG;
  return {
    maxRounds: Math.min(overrides.maxRounds ?? MODE_SETTINGS[mode].rounds, MAX_ROUNDS_EVER),
    challengesPerRound: overrides.challengesPerRound ?? d.challengesPerRound,
    scoreAdjustmentRange: overrides.scoreAdjustmentRange ?? d.scoreAdjustmentRange,
    redTeamersPerEvaluator:
      overrides.redTeamersPerEvaluator === undefined ? d.redTeamersPerEvaluator : overrides.redTeamersPerEvaluator,
    firstPrinciples: overrides.firstPrinciples ?? d.firstPrinciples,
    arbiter: overrides.arbiter ?? d.arbiter,
    repeatSimilarity: overrides.repeatSimilarity ?? d.repeatSimilarity,
    stability: { ...d.stability, ...overrides.stability },
    confidence: { ...d.confidence, ...overrides.confidence },
    majorResolvedShare: overrides.majorResolvedShare ?? d.majorResolvedShare,
    saturation: { ...d.saturation, ...overrides.saturation },
    maxRetries: overrides.maxRetries ?? d.maxRetries,
  };
}

/**
 * A config as a document recorded it, completed with the defaults of the options it predates (a
 * dispute of an older evaluation continues under the rules it ran by).
 */
export function completeConfig(config: z.infer<typeof evaluationConfigSchema>): EvaluationConfig {
  const d = DEFAULT_CONFIG;
  return {
    ...(JSON.parse(JSON.stringify(config)) as EvaluationConfig),
    redTeamersPerEvaluator: config.redTeamersPerEvaluator ?? d.redTeamersPerEvaluator,
    firstPrinciples: config.firstPrinciples ?? d.firstPrinciples,
    arbiter: config.arbiter ?? d.arbiter,
  };
}
