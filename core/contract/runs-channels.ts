import { z } from 'zod';
import { RUN_STATUSES } from '../engine/protocol';
import { runIdSchema, slugSchema } from './ids';
import { PROVIDERS } from './entities';

/**
 * `runs:*`: runs of any protocol (a crux debate, an evaluation, whatever comes next) in one
 * vocabulary: list them, pause, resume or cancel one whatever its protocol, and `run:status`, pushed
 * the moment a run's status changes. Each protocol's own channels (`debates:*`, `evaluations:*`)
 * stay for what only that protocol has; status belongs here. Spread into `channels` and
 * `pushEvents` of core/contract.ts.
 */

/**
 * The one status vocabulary, the runner's (core/engine/protocol.ts): `running`, `paused` (resumable:
 * a debate paused, an evaluation stopped at its checkpoint), `completed` (an evaluation locked),
 * `partial` (a limit stopped it), `cancelled` (stopped for good), `failed`. `running` with
 * `live: false` means the process running it ended without logging a stop (resumable too).
 */
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatusView = z.infer<typeof runStatusSchema>;

export const runEntrySchema = z.strictObject({
  id: z.string(),
  /** The protocol that writes its log (`crux`, `evaluation` …). */
  protocol: z.string(),
  ideaSlug: z.string().nullable(),
  topic: z.string(),
  status: runStatusSchema,
  /** Why it paused or stopped, as its log says (`cancelled by the researcher`, `app closed` …); null otherwise. */
  reason: z.string().nullable(),
  /** Driven by this app right now (paused ones included). */
  live: z.boolean(),
  /**
   * A pause or stop was asked and the run has not logged it yet: it does when the calls in flight
   * return, and `run:status` says so then.
   */
  stopRequested: z.boolean(),
  provider: z.string().nullable(),
  /** USD spent on it so far, every earlier run of it included. */
  costUsd: z.number().nonnegative(),
  startedAt: z.string(),
  /** When its log last recorded anything. */
  updatedAt: z.string(),
});
export type RunEntry = z.infer<typeof runEntrySchema>;

const byId = z.strictObject({ id: runIdSchema });

export const runsChannels = {
  /** Runs, newest first: the live ones as this app follows them, the others as their logs left them. */
  'runs:list': {
    input: z.strictObject({
      protocol: z.string().trim().min(1).max(40).optional(),
      status: runStatusSchema.optional(),
    }),
    output: z.strictObject({ runs: z.array(runEntrySchema) }),
  },
  /**
   * Pauses a running run after the calls in flight (`run:status` says when). An evaluation pauses
   * only at its checkpoint: pausing one stops it there, resumable.
   */
  'runs:pause': { input: byId, output: runEntrySchema },
  /** Continues a paused run, or one interrupted by a crash or a quit, from its log. */
  'runs:resume': { input: byId, output: runEntrySchema },
  /**
   * Stops a run: a debate for good (its result is what it reached); an evaluation, which has no end
   * short of its lock, at its checkpoint, resumable.
   */
  'runs:cancel': { input: byId, output: runEntrySchema },
  /**
   * Starts a run of a protocol registered in core/protocols.ts (crux and evaluation start through
   * their own channels), in the background: it answers once the run is held and its log begun, and
   * `run:status` follows it. The setup is the protocol's own, checked against its schema.
   */
  'runs:start': {
    input: z.strictObject({
      protocol: z.string().trim().min(1).max(40),
      ideaSlug: slugSchema.optional(),
      topic: z.string().trim().min(1).max(10_000).optional(),
      provider: z.enum(PROVIDERS),
      seed: z.number().int().optional(),
      setup: z.record(z.string(), z.unknown()).default({}),
    }),
    output: runEntrySchema,
  },
} as const;

export const runsPushEvents = {
  /**
   * A run's status changed: it started or resumed (`running`), its pause was logged (`paused`), or
   * it ended (pushed once what it leaves behind, a transcript or a record, is written). Exactly once
   * per change, in the order of the run's log.
   */
  'run:status': runEntrySchema,
  /**
   * A run this app drives applied answers: its log grew to `records` records. Views of protocols that
   * push no content of their own (an arena) read the run again on it; nothing polls.
   */
  'run:progress': z.strictObject({
    id: z.string(),
    protocol: z.string(),
    records: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
  }),
} as const;
