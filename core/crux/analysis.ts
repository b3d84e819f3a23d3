import { z } from 'zod';
import { SIDES } from './vocabulary';

// The crystallizer's output, whether it comes from an LLM call or a replay script. It is parsed
// with zod at the boundary so the state machine only ever sees well-formed data.

/** Falsifier fields may be missing here: a half-filled falsifier is a validation finding
 *  (VAGUE_FALSIFIER), not a malformed analysis. */
export const analysisFalsifierSchema = z.object({
  metric: z.string().default(''),
  threshold: z.string().default(''),
  deadline: z.string().default(''),
  reasoning: z.string().optional(),
});

export const analysisPositionSchema = z.object({
  side: z.enum(SIDES),
  statement: z.string(),
  confidence: z.number().min(0).max(1),
  falsifier: analysisFalsifierSchema.optional(),
});

export const commonGroundItemSchema = z.object({ statement: z.string(), type: z.string() });

export const analysisOutputSchema = z.object({
  /** Optional: validation falls back to the thread's binary question. */
  question: z.string().optional(),
  positions: z.record(z.string(), analysisPositionSchema),
  resolutionCriteria: z.array(z.string()),
  counterfactual: z.record(z.string(), z.object({ wouldFlip: z.boolean(), why: z.string().default('') })),
  commonGround: z.array(commonGroundItemSchema).optional(),
  /** The crystallizer's confidence in the crux; it weighs the crux in coalition similarity. */
  confidence: z.number().min(0).max(1),
});

export type AnalysisOutput = z.infer<typeof analysisOutputSchema>;
export type AnalysisPosition = z.infer<typeof analysisPositionSchema>;
export type CommonGroundItem = z.infer<typeof commonGroundItemSchema>;
