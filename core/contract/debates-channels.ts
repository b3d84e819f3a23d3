import { z } from 'zod';
import { agendaItemSchema } from '../crux/agenda';
import { coalitionSchema } from '../crux/coalitions';
import { llmUsageSchema } from '../crux/counters';
import { falsifierSchema } from '../crux/falsifier';
import { cruxReviewSchema, steelmanPairSchema } from '../crux/record-schemas';
import { HORIZONS, SIDES, STAGES, THREAD_STATUSES } from '../crux/vocabulary';
import { baselineComparisonSchema, cruxEventSchema } from './crux';
import {
  debateDetailSchema,
  debateEstimateSchema,
  debateRequestSchema,
  debateStatusSchema,
  debateSummarySchema,
} from './entities';
import { debateIdSchema, slugSchema } from './ids';
import { strictCopy } from './strict-copy';

/**
 * `debates:*`: crux debates (list, read, estimate, start, pause, resume, cancel, the single pass
 * set beside an ended one) and what the debate views read of one (its progress with budgets and
 * meter, its crux map with stored node positions, its course), and the events a running debate pushes. docs/ui-debates.md says why each view is
 * shaped so. Spread into `channels` and `pushEvents` of core/contract.ts.
 */

const count = z.number().int().nonnegative();
const slug = slugSchema;
const side = z.enum(SIDES);
const debateId = z.strictObject({ id: debateIdSchema });
const debateIdOut = z.strictObject({ id: z.string() });

export const THREAD_STAGES = STAGES;
export const THREAD_STATUS_NAMES = THREAD_STATUSES;
export const SIDE_NAMES = SIDES;

// ---- progress --------------------------------------------------------------------------------------

const stageCounts = z.strictObject({ DISCOVERY: count, CRUX_LOCK: count, EVIDENCE: count });

/** A falsifier as the views show it: no reasoning is null rather than left out. */
export const falsifierViewSchema = strictCopy(falsifierSchema.extend({ reasoning: z.string().nullable() }));

export const threadProgressSchema = z.strictObject({
  id: z.string(),
  topic: z.string(),
  status: z.enum(THREAD_STATUSES),
  binaryQuestion: z.string().nullable(),
  /** Current stage budgets (extensions and lock retries included) and accepted messages per stage. */
  budgets: stageCounts,
  messages: stageCounts,
  lockAttempts: count,
  maxLockAttempts: count,
  /** The failure codes of the last failed lock attempt. */
  lockFailures: z.array(z.string()),
  participants: z.array(z.string()),
  /** Waiting for the crystallizer's analysis. */
  awaitingAnalysis: z.boolean(),
  commitments: z.array(
    z.strictObject({
      agent: z.string(),
      side,
      confidence: z.number().nullable(),
      horizon: z.enum(HORIZONS).nullable(),
      messageId: z.string().nullable(),
      /** The agent's latest valid falsifier in this thread. */
      falsifier: falsifierViewSchema.nullable(),
    }),
  ),
  steelmans: z.array(strictCopy(steelmanPairSchema)),
  /** The open question the agenda manager has an open thread work on next; null once it is closed. */
  agenda: strictCopy(agendaItemSchema).nullable(),
});
export type ThreadProgress = z.infer<typeof threadProgressSchema>;

export const debateProgressSchema = z.strictObject({
  id: z.string(),
  status: debateStatusSchema,
  live: z.boolean(),
  /** Why it stopped, when it did and the log says. */
  reason: z.string().nullable(),
  /** Events in the debate's log (a view that has fewer missed some). */
  events: count,
  threads: z.array(threadProgressSchema),
  /** The debate's model usage so far (as its result's metrics report it) against its limits. */
  meter: strictCopy(llmUsageSchema).extend({
    /** 0: no budget limit. */
    budgetUsd: z.number().nonnegative(),
    /** Accepted agent messages, against the debate's limit. */
    messages: count,
    maxMessages: count,
    elapsedMs: count,
    maxDurationMs: count,
  }),
  degradedAgents: z.array(z.string()),
});
export type DebateProgress = z.infer<typeof debateProgressSchema>;

// ---- crux maps --------------------------------------------------------------------------------------

export const transcriptRefSchema = z.strictObject({
  /** The message's place in the debate's transcript: the `m` of `#/transcript/debate/<id>?m=<index>`. */
  index: count,
  messageId: z.string(),
  agent: z.string().nullable(),
  move: z.string().nullable(),
  excerpt: z.string(),
});
export type TranscriptRef = z.infer<typeof transcriptRefSchema>;

export const cruxNodeSchema = z.strictObject({
  /** The graph node's id: `crux:<thread>` for a thread's crux, `candidate:<messageId>` for a deeper one. */
  id: z.string(),
  thread: z.string(),
  kind: z.enum(['crux', 'candidate']),
  question: z.string(),
  threadStatus: z.enum(THREAD_STATUSES),
  crystallized: z.boolean(),
  validated: z.boolean(),
  primary: z.boolean(),
  /** Disagreement compression gain (0–1); null until the thread crystallizes. */
  dcg: z.number().nullable(),
  validationFailures: z.array(z.string()),
  dominantHorizon: z.enum(HORIZONS).nullable(),
  positions: z.array(
    z.strictObject({
      agent: z.string(),
      side,
      confidence: z.number().nullable(),
      statement: z.string().nullable(),
      falsifier: falsifierViewSchema.nullable(),
      /** From the analysis: whether the agent would change its mind if the crux resolved against it. */
      wouldFlip: z.boolean().nullable(),
    }),
  ),
  resolutionCriteria: z.array(z.string()),
  supporting: z.array(transcriptRefSchema),
  /** Each challenge of the crux and the crystallizer's review, oldest first, with the crux as it stood before. */
  history: z.array(strictCopy(cruxReviewSchema)),
});
export type CruxNode = z.infer<typeof cruxNodeSchema>;

export const cruxEdgeSchema = z.strictObject({
  kind: z.enum(['dependency', 'contradiction']),
  /** For a dependency: the deeper crux (`from`) that the other one (`to`) rests on. */
  from: z.string(),
  to: z.string(),
  reason: z.string(),
});

export const nodePositionsSchema = z
  .record(z.string().min(1).max(300), z.strictObject({ x: z.number().finite(), y: z.number().finite() }))
  .refine((positions) => Object.keys(positions).length <= 5000, 'at most 5000 node positions');

export const cruxMapSchema = z.strictObject({
  debateId: z.string(),
  topic: z.string(),
  ideaSlug: z.string().nullable(),
  status: debateStatusSchema,
  agents: z.array(
    z.strictObject({
      /** The graph node's id is `agent:<id>`. */
      id: z.string(),
      name: z.string(),
      /** The persona it plays (its colour is the persona's, the same in every view), or null. */
      persona: z.string().nullable(),
      /** Index into `coalitions`, or null. */
      coalition: z.number().int().nonnegative().nullable(),
    }),
  ),
  coalitions: z.array(strictCopy(coalitionSchema)),
  cruxes: z.array(cruxNodeSchema),
  edges: z.array(cruxEdgeSchema),
  /** Node positions the researcher left (dragged) last time, or null: lay the graph out afresh. */
  layout: z.strictObject({ positions: nodePositionsSchema, savedAt: z.string() }).nullable(),
});
export type CruxMap = z.infer<typeof cruxMapSchema>;

// ---- the course of a debate (DCG and positions over its messages) -----------------------------------

export const coursePositionSchema = z.strictObject({
  /** The transcript index of the message after which the agent stood so (the `m` of its deep link). */
  index: count,
  side,
  /** Its confidence (0–1) when the agent gave one. */
  confidence: z.number().min(0).max(1).nullable(),
});

export const courseThreadSchema = z.strictObject({
  id: z.string(),
  topic: z.string(),
  /** The crux's question once crystallized, else the binary question so far. */
  question: z.string().nullable(),
  status: z.enum(THREAD_STATUSES),
  /** The transcript index at which it crystallized, or null. */
  crystallizedAt: count.nullable(),
  /** The crux's DCG (0–1) once crystallized. */
  dcg: z.number().nullable(),
  validated: z.boolean(),
  primary: z.boolean(),
  /**
   * DCG after each message that changed it. Before crystallization (`final: false`) it is the
   * protocol's formula over the positions so far, counting every YES/NO agent with a valid falsifier
   * as one who would change its mind (the analysis, which says who would, comes only at
   * crystallization); the crystallized crux's own DCG follows (`final: true`).
   */
  dcgPoints: z.array(z.strictObject({ index: count, score: z.number().min(0).max(1), final: z.boolean() })),
  /** Each agent's side and confidence in this thread after each message that changed them; the last, at crystallization, is the crux's final position. */
  positions: z.array(z.strictObject({ agent: z.string(), points: z.array(coursePositionSchema) })),
});
export type CourseThread = z.infer<typeof courseThreadSchema>;

export const debateCourseSchema = z.strictObject({
  debateId: z.string(),
  topic: z.string(),
  ideaSlug: z.string().nullable(),
  status: debateStatusSchema,
  /** Messages in its transcript: the x axis runs over their indexes. */
  messages: count,
  /** Each transcript message's id by index (`m25`): what rows, labels and links name a message by. */
  messageIds: z.array(z.string()),
  /** Each agent with the persona it plays (its colour is the persona's, as in every view), or null. */
  agents: z.array(z.strictObject({ id: z.string(), name: z.string(), persona: z.string().nullable() })),
  threads: z.array(courseThreadSchema),
});
export type DebateCourse = z.infer<typeof debateCourseSchema>;

export const debatesChannels = {
  /** Debates, newest first, optionally only those about one idea. */
  'debates:list': {
    input: z.strictObject({ ideaSlug: slug.optional() }),
    output: z.strictObject({ debates: z.array(debateSummarySchema) }),
  },
  /** One debate: header, status, result so far, transcript once it has stopped. */
  'debates:get': { input: debateId, output: debateDetailSchema },
  /**
   * The debate's events from index `from` on, read from its log. With `debate:event` (whose `from`
   * numbers the same sequence) a view opened mid-debate catches up without gaps or repeats.
   */
  'debates:events': {
    input: debateId.extend({ from: z.number().int().nonnegative().default(0) }),
    output: z.strictObject({
      debateId: z.string(),
      from: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      events: z.array(cruxEventSchema),
    }),
  },
  /** What a debate would likely cost; starts nothing. */
  'debates:estimate': { input: debateRequestSchema, output: debateEstimateSchema },
  /** Starts a debate and answers at once with its id; it runs on, pushing `debate:event` and `run:status`. */
  'debates:start': {
    input: debateRequestSchema,
    output: z.strictObject({ id: z.string(), estimate: debateEstimateSchema }),
  },
  /** Pauses a running debate after the calls already in flight (`run:status` says when). */
  'debates:pause': { input: debateId, output: debateIdOut },
  /** Continues a paused debate, or one interrupted by a crash or a quit, from its log. */
  'debates:resume': { input: debateId, output: debateIdOut },
  /** Stops a debate for good; its result is what it reached. */
  'debates:cancel': { input: debateId, output: debateIdOut },

  /**
   * A debate's state as the live view draws it: each thread's stage, budgets, lock attempts,
   * commitments with falsifiers and steelmans, and the cost and token meter against the limits.
   */
  'debates:progress': { input: debateId, output: debateProgressSchema },

  /** A debate's crux map: cruxes, agents, coalitions, dependency and contradiction edges, stored positions. */
  'debates:cruxMap': { input: debateId, output: cruxMapSchema },
  /** How a debate went, message by message: each crux's DCG and each agent's side and confidence in each thread. */
  'debates:course': { input: debateId, output: debateCourseSchema },
  /**
   * Was the debate worth it? Asks each agent of an ended debate once, alone, on the debate's own
   * provider, keeps that single pass beside its log (`<id>.baseline.json`, replacing an earlier one)
   * and answers with it beside the debate's result; `debates:get` carries it from then on.
   */
  'debates:baseline': { input: debateId, output: baselineComparisonSchema },
  /** What `debates:baseline` would cost (one call per agent) and whether its provider can run now; runs nothing. */
  'debates:baselineEstimate': { input: debateId, output: debateEstimateSchema },
  /** Keeps the node positions of a crux map beside the debate's log (`<id>.layout.json`). */
  'debates:saveCruxLayout': {
    input: z.strictObject({ id: debateIdSchema, positions: nodePositionsSchema }),
    output: z.strictObject({ path: z.string(), saved: count }),
  },
} as const;

export const debatesPushEvents = {
  /** Events of a running debate; `from` is the index of the first one in the debate's sequence. */
  'debate:event': z.strictObject({
    debateId: z.string(),
    from: z.number().int().nonnegative(),
    events: z.array(cruxEventSchema),
  }),
  /**
   * What an agent has written so far of a turn still being answered (only providers that stream
   * send drafts; never logged). `content` null: the draft is gone, its message applied or its turn
   * failed. Drafts of one turn come at most every ~100 ms, the latest text whole each time.
   */
  'debate:draft': z.strictObject({
    debateId: z.string(),
    thread: z.string(),
    agent: z.string(),
    move: z.string().nullable(),
    content: z.string().nullable(),
  }),
} as const;
