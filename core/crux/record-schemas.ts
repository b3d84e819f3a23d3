import { z } from 'zod';
import { commonGroundItemSchema } from './analysis';
import { falsifierSchema } from './falsifier';
import { byAgent, count } from './schema-parts';
import { CRUX_CHALLENGES, CRUX_RELATIONS, HORIZONS, RELATION_STATUSES, SIDES, STEELMAN_GRADES } from './vocabulary';

// The state's records that leave the state machine: the events carry them and the result reports
// them. Each is a schema first, its type inferred, so the contract can derive its view of them
// (core/contract/crux.ts) instead of restating them. Objects strip unknown keys, as a reader of
// logs written by another version should; the contract's copies are strict.

const side = z.enum(SIDES);
const horizon = z.enum(HORIZONS);

/** An agent's commitment at a lock attempt. */
export const commitmentSchema = z.object({
  side,
  confidence: z.number(),
  horizon,
  /** The commit message's text: the statement of an omitted position at crystallization. */
  statement: z.string(),
  messageId: z.string(),
});
export type Commitment = z.infer<typeof commitmentSchema>;

export const lockedCruxSchema = z.object({
  question: z.string(),
  attempt: count,
  messageId: z.string(),
  commitments: byAgent(commitmentSchema),
});
export type LockedCrux = z.infer<typeof lockedCruxSchema>;

export const finalPositionSchema = z.object({
  side,
  statement: z.string(),
  confidence: z.number(),
  falsifier: falsifierSchema.optional(),
});
export type FinalPosition = z.infer<typeof finalPositionSchema>;

/** Disagreement compression gain and its three factors. */
export const dcgSchema = z.object({
  coverage: z.number(),
  polarity: z.number(),
  impact: z.number(),
  score: z.number(),
});
export type Dcg = z.infer<typeof dcgSchema>;

export const steelmanPairSchema = z.object({
  from: z.string(),
  to: z.string(),
  grade: z.enum(STEELMAN_GRADES),
  attempts: count,
  /** The latest attempt's structure, when it gave one: the target's claim, strongest reason and falsifier. */
  steelman: z
    .object({
      claim: z.string(),
      strongestReason: z.string(),
      falsifier: z.object({ metric: z.string(), threshold: z.string(), deadline: z.string() }),
    })
    .optional(),
  /** What the target said the latest attempt missed, when it said. */
  corrections: z.string().optional(),
});
export type SteelmanPair = z.infer<typeof steelmanPairSchema>;

export const concessionSchema = z.object({
  agent: z.string(),
  proposition: z.string(),
  topClaimChanged: z.boolean(),
  messageId: z.string(),
});
export type Concession = z.infer<typeof concessionSchema>;

/**
 * One review of a crystallized crux: the challenge that asked for it, what the crystallizer
 * answered, and the crux as it stood before (so its history stays readable).
 */
export const cruxReviewSchema = z.object({
  challenge: z.object({ messageId: z.string(), agent: z.string(), reason: z.enum(CRUX_CHALLENGES) }),
  outcome: z.enum(['REEXTRACTED', 'NEEDS_CLARIFICATION']),
  /** What the crystallizer said needs clarifying; null for a re-extraction. */
  note: z.string().nullable(),
  before: z.object({ question: z.string(), validated: z.boolean(), validationFailures: z.array(z.string()) }),
});
export type CruxReview = z.infer<typeof cruxReviewSchema>;

/** A crystallized crux, with unrounded numbers; rounding happens only in the result. */
export const cruxRecordSchema = z.object({
  question: z.string(),
  positions: byAgent(finalPositionSchema),
  resolutionCriteria: z.array(z.string()),
  counterfactual: byAgent(z.object({ wouldFlip: z.boolean(), why: z.string() })),
  commonGround: z.array(commonGroundItemSchema),
  /** The analysis' own confidence, the crux's weight in coalition similarity. */
  confidence: z.number(),
  dcg: dcgSchema,
  horizonByAgent: byAgent(horizon),
  dominantHorizon: horizon.nullable(),
  steelmanPairs: z.array(steelmanPairSchema),
  concessions: z.array(concessionSchema),
  validated: z.boolean(),
  validationFailures: z.array(z.string()),
  /** Its reviews, oldest first; absent until it is first challenged. */
  history: z.array(cruxReviewSchema).optional(),
});
export type CruxRecord = z.infer<typeof cruxRecordSchema>;

/** The name the labeller gave a group of agents. */
export const coalitionLabelSchema = z.object({ members: z.array(z.string()), label: z.string() });
export type CoalitionLabel = z.infer<typeof coalitionLabelSchema>;

/**
 * What the cross-thread analysis found between two crystallized cruxes (./relations.ts): `a` crystallized
 * before `b`; `from` is the deeper crux (the one the other rests on; `a` for a duplicate, which keeps
 * `a` and merges `b` into it), `to` the other. A first call proposes it with a confidence and a short
 * sketch of the reasoning; a second call confirms or rejects it.
 */
export const cruxRelationSchema = z.object({
  a: z.string(),
  b: z.string(),
  relation: z.enum(CRUX_RELATIONS),
  from: z.string(),
  to: z.string(),
  confidence: z.number(),
  sketch: z.string(),
  status: z.enum(RELATION_STATUSES),
  /** Why it was dismissed, or what the second call said. */
  note: z.string().nullable(),
});
export type CruxRelation = z.infer<typeof cruxRelationSchema>;
