import { z } from 'zod';

/**
 * A run of any protocol is an append-only log of records, one JSON object per line; a crux debate's
 * is `debates/<id>.jsonl` (or beside its idea). A debate is an append-only log of records, one JSON object per line of
 * `debates/<id>.jsonl`. The `input` records are authoritative: folding them through the protocol's
 * step function rebuilds the state exactly. `event` records are what the step function said
 * happened (for readers and live views); `llm_call` records meter every model call.
 */
export const DEBATE_STATUSES = ['running', 'paused', 'completed', 'partial', 'cancelled', 'failed'] as const;
export type DebateStatus = (typeof DEBATE_STATUSES)[number];

export const agentSpecSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  persona: z.string().nullable(),
  topClaim: z
    .object({ statement: z.string(), side: z.enum(['YES', 'NO', 'UNCERTAIN']), confidence: z.number().min(0).max(1) })
    .optional(),
  defaultHorizon: z.enum(['1-3mo', '12-18mo', '5y', '10y+']).optional(),
  interests: z.array(z.string()).default([]),
  tier: z.enum(['fast', 'standard', 'deep']).default('standard'),
});
export type AgentSpec = z.infer<typeof agentSpecSchema>;

export const limitsSchema = z.object({
  maxMessages: z.number().int().positive(),
  maxDurationMs: z.number().int().positive(),
  budgetUsd: z.number().nonnegative(),
  /** Consecutive agent turns with no accepted message before the debate is called stagnant. */
  stagnationTurns: z.number().int().positive(),
  concurrency: z.number().int().positive(),
});
export type DebateLimits = z.infer<typeof limitsSchema>;

/** What the agents are told the debate is about (see `core/crux/live/subject.ts`); older logs lack it. */
export const debateSubjectSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('idea'),
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    body: z.string(),
    memory: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal('topic'), text: z.string().min(1), memory: z.array(z.string()).optional() }),
]);

export const debateHeaderSchema = z.object({
  id: z.string().min(1),
  protocol: z.literal('crux'),
  topic: z.string().min(1),
  ideaSlug: z.string().nullable(),
  subject: debateSubjectSchema.optional(),
  agents: z.array(agentSpecSchema).min(2).max(12),
  config: z.record(z.string(), z.unknown()).default({}),
  provider: z.string(),
  seed: z.number().int().nullable(),
  limits: limitsSchema,
  createdAt: z.string(),
});
export type DebateHeader = z.infer<typeof debateHeaderSchema>;

/**
 * The header of a run of any protocol but crux (whose logs, older than this, start with
 * `debate_created`): which protocol and version wrote the log, and the protocol's own setup, which
 * that protocol's schema reads.
 */
export const runHeaderSchema = z.object({
  id: z.string().min(1),
  protocol: z.string().min(1),
  version: z.number().int().positive(),
  ideaSlug: z.string().nullable(),
  topic: z.string().min(1),
  provider: z.string(),
  createdAt: z.string(),
  setup: z.record(z.string(), z.unknown()),
  /** The simulator's seed, for a run the general run service started (others keep it in `setup`). */
  seed: z.number().int().optional(),
  /** The runner's limits for such a run: USD (null: none), milliseconds (null: none), calls at once. */
  limits: z
    .object({
      budgetUsd: z.number().nonnegative().nullable(),
      timeLimitMs: z.number().int().positive().nullable(),
      concurrency: z.number().int().positive(),
    })
    .optional(),
});
export type RunHeader = z.infer<typeof runHeaderSchema>;

const callSchema = z.object({
  provider: z.string(),
  model: z.string(),
  tier: z.enum(['fast', 'standard', 'deep']),
  usage: z.object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
  }),
  latencyMs: z.number(),
  costUsd: z.number(),
  ok: z.boolean(),
  error: z.string().optional(),
  // Slips repaired rather than re-asked (see docs/models.md, "When a model slips").
  repairs: z.array(z.string()).optional(),
});

const base = { seq: z.number().int().nonnegative(), at: z.string() };

export const debateRecordSchema = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('debate_created'), header: debateHeaderSchema }),
  z.object({ ...base, type: z.literal('run_created'), header: runHeaderSchema }),
  z.object({ ...base, type: z.literal('input'), input: z.record(z.string(), z.unknown()) }),
  z.object({ ...base, type: z.literal('event'), event: z.record(z.string(), z.unknown()) }),
  z.object({
    ...base,
    type: z.literal('llm_call'),
    agent: z.string().nullable(),
    purpose: z.string(),
    call: callSchema,
  }),
  /** The calls of one round, logged before they are made, so a resumed debate finishes the round first. */
  z.object({
    ...base,
    type: z.literal('round'),
    planned: z.array(
      // The protocol's own kinds of call (a debate's `turn` and `analysis`, an evaluation's roles).
      z.object({ kind: z.string().min(1), thread: z.string(), agent: z.string().nullable() }),
    ),
  }),
  z.object({
    ...base,
    type: z.literal('turn_failed'),
    agent: z.string(),
    thread: z.string().nullable(),
    reason: z.string(),
  }),
  z.object({ ...base, type: z.literal('agent_degraded'), agent: z.string(), reason: z.string() }),
  z.object({ ...base, type: z.literal('status'), status: z.enum(DEBATE_STATUSES), reason: z.string().optional() }),
]);
export type DebateRecord = z.infer<typeof debateRecordSchema>;

/** A record before the log numbers and dates it. */
export type NewDebateRecord = DebateRecord extends infer R
  ? R extends DebateRecord
    ? Omit<R, 'seq' | 'at'>
    : never
  : never;
