import { z } from 'zod';
import { CAPTURE_DECISIONS } from '../capture/decision';
import { ideaSummarySchema, PROVIDERS } from './entities';
import { slugSchema } from './ids';

/**
 * `captures:*`: the capture orchestrator (docs/capture.md). A text from the capture box is
 * classified against the library before anything is written (NEW, EXISTING: which idea, AMBIGUOUS:
 * which ideas to choose from), then placed where the researcher chose. Spread into `channels` of
 * core/contract.ts.
 */

const captured = {
  title: z.string().trim().min(1, 'an idea needs a title').max(300),
  text: z.string().max(1_000_000).optional(),
};

/** Where a capture goes: a new idea, added to an existing one, or a new idea linked `inspired_by` one. */
export const capturePlacementSchema = z.discriminatedUnion('as', [
  z.strictObject({ as: z.literal('new') }),
  z.strictObject({ as: z.literal('existing'), slug: slugSchema }),
  z.strictObject({ as: z.literal('inspired'), slug: slugSchema }),
]);
export type CapturePlacementView = z.infer<typeof capturePlacementSchema>;

export const captureClassificationSchema = z.strictObject({
  decision: z.enum(CAPTURE_DECISIONS),
  /** EXISTING: the idea it belongs to. */
  slug: z.string().nullable(),
  /** AMBIGUOUS: the ideas to choose from; otherwise the closest ones, best first (at most three). */
  candidates: z.array(
    z.strictObject({
      slug: z.string(),
      title: z.string(),
      /** The lexical measure, 0 to 1. */
      score: z.number().min(0).max(1),
      /** The rarest terms the capture and the idea share. */
      shared: z.array(z.string()),
    }),
  ),
  /** Close but distinct: "a new idea, inspired by" this one is offered. */
  inspiredBy: z.string().nullable(),
  /** The exact same text was captured into this idea before. */
  duplicateOf: z.string().nullable(),
  identity: z.string(),
  by: z.enum(['identity', 'lexical', 'model']),
  reason: z.string(),
  terms: z.number().int().nonnegative(),
  /** What to offer the researcher, the likeliest first. */
  offered: z.array(capturePlacementSchema),
  /** The researcher must choose before anything is written (not NEW, or captured before). */
  needsChoice: z.boolean(),
  /** There is something to ask (a NEW capture close to an idea may be linked to it): the box asks. */
  offersChoice: z.boolean(),
});
export type CaptureClassificationView = z.infer<typeof captureClassificationSchema>;

export const capturesChannels = {
  /** Where a text from the capture box belongs; writes nothing. With `provider`, a model decides among the closest ideas. */
  'captures:classify': {
    input: z.strictObject({
      ...captured,
      provider: z.enum(PROVIDERS).optional(),
      seed: z.number().int().nonnegative().optional(),
    }),
    output: z.strictObject({
      classification: captureClassificationSchema,
      /** What the model call cost, 0 without one. */
      costUsd: z.number().nonnegative(),
      /** How the model's answer was read where it was not taken as written. */
      repairs: z.array(z.string()),
    }),
  },
  /** Writes a captured text where the researcher chose. */
  'captures:place': {
    input: z.strictObject({
      ...captured,
      as: capturePlacementSchema,
      tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
      type: z.string().trim().min(1).max(200).optional(),
      stage: z.string().trim().min(1).max(200).optional(),
    }),
    output: z.strictObject({
      placed: capturePlacementSchema,
      /** The idea the text went to: the new one, or the one it was added to. */
      slug: z.string(),
      /** The README written, or the conflict copy beside it when the README changed meanwhile. */
      path: z.string(),
      conflict: z.boolean(),
      /** False when the idea already held this text: nothing was written. */
      written: z.boolean(),
      idea: ideaSummarySchema.nullable(),
    }),
  },
} as const;
