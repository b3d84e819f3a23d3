import { z } from 'zod';
import {
  BLOCK_REASONS,
  GIVEN_GRADES,
  HORIZONS,
  INTERVENTION_KINDS,
  MOVES,
  REGIMES,
  SIDES,
  SPAWN_REJECTIONS,
  STAGES,
  STEELMAN_GRADES,
  THREAD_STATUSES,
} from '../crux/vocabulary';

// The crux debate's result and live events as the UI receives them. The engine's own types
// (core/crux/result.ts, core/crux/events.ts) are plain interfaces; these schemas mirror them field
// for field, and core/contract/contract.test.ts fails to compile when the two drift apart.

const side = z.enum(SIDES);
const horizon = z.enum(HORIZONS);
const count = z.number().int().nonnegative();
const byAgent = <T extends z.ZodType>(value: T) => z.record(z.string(), value);
/** One count per member of a closed vocabulary, every member present. */
const countsOf = <const T extends readonly [string, ...string[]]>(values: T) => z.record(z.enum(values), count);

export const falsifierSchema = z.strictObject({
  metric: z.string(),
  threshold: z.string(),
  deadline: z.string(),
  reasoning: z.string().optional(),
});

export const commonGroundItemSchema = z.strictObject({ statement: z.string(), type: z.string() });

export const finalPositionSchema = z.strictObject({
  side,
  statement: z.string(),
  confidence: z.number(),
  falsifier: falsifierSchema.optional(),
});

export const steelmanPairSchema = z.strictObject({
  from: z.string(),
  to: z.string(),
  grade: z.enum(STEELMAN_GRADES),
  attempts: count,
});

export const concessionSchema = z.strictObject({
  agent: z.string(),
  proposition: z.string(),
  topClaimChanged: z.boolean(),
  messageId: z.string(),
});

const dcgSchema = z.strictObject({ coverage: z.number(), polarity: z.number(), impact: z.number(), score: z.number() });
const counterfactualSchema = byAgent(z.strictObject({ wouldFlip: z.boolean(), why: z.string() }));

/** The fields a crystallized crux and its summary in the result share. */
const cruxFields = {
  question: z.string(),
  positions: byAgent(finalPositionSchema),
  resolutionCriteria: z.array(z.string()),
  counterfactual: counterfactualSchema,
  commonGround: z.array(commonGroundItemSchema),
  confidence: z.number(),
  dcg: dcgSchema,
  horizonByAgent: byAgent(horizon),
  dominantHorizon: horizon.nullable(),
  steelmanPairs: z.array(steelmanPairSchema),
  concessions: z.array(concessionSchema),
  validated: z.boolean(),
  validationFailures: z.array(z.string()),
};

/** A crux as the result reports it (numbers rounded). */
export const cruxSummarySchema = z.strictObject(cruxFields);
/** A crux as the `crystallized` event carries it (numbers as computed). */
export const cruxRecordSchema = z.strictObject(cruxFields);

export const threadResultSchema = z.strictObject({
  id: z.string(),
  topic: z.string(),
  status: z.enum(THREAD_STATUSES),
  binaryQuestion: z.string().nullable(),
  participants: z.array(z.string()),
  stages: z.strictObject({
    discovery: z.strictObject({ messages: count }),
    cruxLock: z.strictObject({ messages: count, lockAttempts: count }),
    evidence: z.strictObject({ messages: count }),
  }),
  lockFailures: z.array(z.string()),
  crux: cruxSummarySchema.nullable(),
});

export const coalitionSchema = z.strictObject({
  members: z.array(z.string()),
  positions: z.record(z.string(), z.enum(['YES', 'NO'])),
  label: z.string(),
});

export const systemMetricsSchema = z.strictObject({
  messagesTotal: count,
  messagesBlocked: count,
  reasonsBlocked: countsOf(BLOCK_REASONS),
  moderatorInterventions: countsOf(INTERVENTION_KINDS),
  cruxLockAttempts: count,
  cruxLockSuccesses: count,
  cruxLockFailures: count,
  steelmanAttempts: count,
  steelmanRetries: count,
  steelmanAccuracyRate: z.number(),
  cheapConcessions: count,
  horizonMismatches: count,
  dcgPromotions: count,
  threadsSpawned: count,
  threadSpawnRejections: countsOf(SPAWN_REJECTIONS),
  llmCalls: count,
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  costUsd: z.number(),
});

/** What a crux debate found (mid-debate it says `partial`). */
export const cruxResultSchema = z.strictObject({
  topic: z.string(),
  regime: z.enum(REGIMES),
  primaryCrux: z.string().nullable(),
  irreducibleCruxes: z.array(z.string()),
  commonGround: z.array(commonGroundItemSchema),
  coalitions: z.array(coalitionSchema),
  threads: z.array(threadResultSchema),
  systemMetrics: systemMetricsSchema,
});

const commitmentSchema = z.strictObject({
  side,
  confidence: z.number(),
  horizon,
  statement: z.string(),
  messageId: z.string(),
});

export const lockedCruxSchema = z.strictObject({
  question: z.string(),
  attempt: count,
  messageId: z.string(),
  commitments: byAgent(commitmentSchema),
});

const coalitionLabelSchema = z.strictObject({ members: z.array(z.string()), label: z.string() });

const event = <const T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), ...shape });
const thread = z.string();
const stage = z.enum(STAGES);

/** One thing the crux protocol decided, in the order it happened (core/crux/events.ts). */
export const cruxEventSchema = z.discriminatedUnion('type', [
  event('thread_opened', { thread, topic: z.string(), binaryQuestion: z.string().nullable() }),
  event('thread_spawned', {
    thread,
    topic: z.string(),
    binaryQuestion: z.string(),
    by: z.string(),
    supporters: z.array(z.string()),
  }),
  event('thread_spawn_rejected', { thread, by: z.string(), reason: z.enum(SPAWN_REJECTIONS), detail: z.string() }),
  event('message_posted', {
    id: z.string(),
    thread,
    agent: z.string(),
    move: z.enum(MOVES),
    stage,
    content: z.string(),
    replyTo: z.string().optional(),
    meta: z.record(z.string(), z.unknown()),
  }),
  event('message_blocked', {
    id: z.string(),
    thread,
    agent: z.string(),
    move: z.enum(MOVES),
    reason: z.enum(BLOCK_REASONS),
    detail: z.string(),
  }),
  event('moderator_intervention', {
    id: z.string(),
    kind: z.enum(INTERVENTION_KINDS),
    thread,
    target: z.string().optional(),
    content: z.string(),
  }),
  event('moderator_message', { id: z.string(), thread, content: z.string() }),
  event('binary_question_set', { thread, question: z.string(), by: z.string(), messageId: z.string() }),
  event('candidate_crux', { thread, question: z.string(), by: z.string(), messageId: z.string() }),
  event('steelman_opened', { thread, from: z.string(), to: z.string(), attempt: count, messageId: z.string() }),
  event('steelman_graded', {
    thread,
    from: z.string(),
    to: z.string(),
    grade: z.enum(GIVEN_GRADES),
    messageId: z.string(),
  }),
  event('position_committed', { thread, agent: z.string(), side, messageId: z.string() }),
  event('falsifier_recorded', { thread, agent: z.string(), falsifier: falsifierSchema, messageId: z.string() }),
  event('position_changed', { thread, agent: z.string(), from: side.nullable(), to: side, messageId: z.string() }),
  event('concession', {
    thread,
    agent: z.string(),
    proposition: z.string(),
    cheap: z.boolean(),
    messageId: z.string(),
  }),
  event('discovery_extended', { thread, budget: count }),
  event('stage_transition', { thread, from: stage, to: stage, reason: z.string() }),
  event('lock_attempt', { thread, attempt: count, ok: z.boolean(), failures: z.array(z.string()) }),
  event('lock_failed', { thread, attempt: count, failures: z.array(z.string()) }),
  event('crux_locked', { thread, crux: lockedCruxSchema }),
  event('crystallization_requested', { thread, reason: z.enum(['budget', 'stability', 'hardCap']) }),
  event('crystallized', { thread, crux: cruxRecordSchema }),
  event('primary_crux_changed', { from: z.string().nullable(), to: z.string() }),
  event('thread_closed', { thread, status: z.enum(THREAD_STATUSES), reason: z.string() }),
  event('coalition_labels_set', { labels: z.array(coalitionLabelSchema) }),
  event('debate_stopped', { reason: z.string() }),
]);

export type CruxResultView = z.infer<typeof cruxResultSchema>;
export type CruxEventView = z.infer<typeof cruxEventSchema>;
