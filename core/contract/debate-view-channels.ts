import { z } from 'zod';
import { coalitionSchema } from '../crux/coalitions';
import { llmUsageSchema } from '../crux/counters';
import { falsifierSchema } from '../crux/falsifier';
import { steelmanPairSchema } from '../crux/record-schemas';
import { HORIZONS, INTERVENTION_KINDS, MOVES, SIDES, STAGES, THREAD_STATUSES } from '../crux/vocabulary';
import { DEBATE_STATUSES, type DebateStatus } from '../engine/debate-record';
import { isCalendarDay, OUTCOMES } from '../ledger/ledger-md';
import { debateStatusSchema } from './entities';
import { EVALUATION_STATUSES, type EvaluationStatus, evaluationEntrySchema } from './evaluation-channels';
import { debateIdSchema, evaluationIdSchema } from './ids';
import { strictCopy } from './strict-copy';

/**
 * What the debate views need beyond `debates:*`: a running debate's progress (budgets, meter), crux
 * maps with their stored node positions, the cross-debate crux and falsifier ledger, and transcript
 * search. Spread into `channels` of core/contract.ts. docs/ui-debates.md says why each is shaped so.
 */

const count = z.number().int().nonnegative();
const debateId = debateIdSchema;
const side = z.enum(SIDES);
/** A calendar day, `YYYY-MM-DD`. */
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((text) => isCalendarDay(text), 'is not a day of the calendar');

/**
 * The kinds of an evaluation's entries, as a transcript search filters them: first scores, the red
 * team's challenges (accepted or dropped), the evaluators' defences, the arbiter's rulings, the
 * synthesis (its moves and the narrative) and the protocol's own notes (phases, rounds, convergence).
 */
export const EVALUATION_TRANSCRIPT_MOVES = [
  'SCORES',
  'RED_TEAM',
  'DEFENCE',
  'RULING',
  'SYNTHESIS',
  'PROTOCOL',
] as const;
export type EvaluationTranscriptMove = (typeof EVALUATION_TRANSCRIPT_MOVES)[number];

/** Which kind an evaluation entry is, from its protocol event type. */
export function evaluationEntryMove(type: string): EvaluationTranscriptMove {
  switch (type) {
    case 'initial_scores':
      return 'SCORES';
    case 'challenges_received':
    case 'challenge_accepted':
    case 'challenge_dropped':
      return 'RED_TEAM';
    case 'defense_recorded':
      return 'DEFENCE';
    case 'ruling':
      return 'RULING';
    case 'synthesis_applied':
    case 'narrative_recorded':
      return 'SYNTHESIS';
    default:
      return 'PROTOCOL';
  }
}

/**
 * The moves a transcript search can filter on: a debate's agents' moves or the moderator's
 * messages, and the kinds of an evaluation's entries.
 */
export const TRANSCRIPT_MOVES = [...MOVES, 'MODERATOR', ...EVALUATION_TRANSCRIPT_MOVES] as const;
/** Which transcripts exist: crux debates (messages) and evaluations (entries). */
export const TRANSCRIPT_KINDS = ['debate', 'evaluation'] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];
/** A debate's statuses and an evaluation's (`running` and `failed` are both's). */
export const TRANSCRIPT_STATUSES = [...DEBATE_STATUSES, 'stopping', 'stopped', 'locked'] as const satisfies readonly (
  | DebateStatus
  | EvaluationStatus
)[];
// Every evaluation status is one of them (a new one added there fails to compile here).
const _everyEvaluationStatus: readonly (typeof TRANSCRIPT_STATUSES)[number][] = EVALUATION_STATUSES;
void _everyEvaluationStatus;
export const THREAD_STAGES = STAGES;
export const THREAD_STATUS_NAMES = THREAD_STATUSES;
export const SIDE_NAMES = SIDES;

/** How a falsifier turned out: its threshold was crossed (the position was wrong), it held to the deadline, … */
export const FALSIFIER_OUTCOMES = OUTCOMES;
export type FalsifierOutcome = (typeof FALSIFIER_OUTCOMES)[number];

/** `open`: deadline ahead; `overdue`: deadline passed, nothing recorded; `undated`: no readable deadline. */
export const LEDGER_STATUSES = ['open', 'overdue', 'undated', 'resolved'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

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
  agents: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  threads: z.array(courseThreadSchema),
});
export type DebateCourse = z.infer<typeof debateCourseSchema>;

// ---- ledger ------------------------------------------------------------------------------------------

export const falsifierResolutionSchema = z.strictObject({
  outcome: z.enum(FALSIFIER_OUTCOMES),
  /** When it resolved (YYYY-MM-DD). */
  resolvedOn: z.string(),
  note: z.string(),
  /** When it was recorded. */
  recordedAt: z.string().nullable(),
});

export const ledgerFalsifierSchema = z.strictObject({
  /** `<debateId>/<thread>/<agent>`: the heading of its entry in the ledger file. */
  key: z.string(),
  debateId: z.string(),
  debateTopic: z.string(),
  ideaSlug: z.string().nullable(),
  debateCreatedAt: z.string(),
  thread: z.string(),
  question: z.string().nullable(),
  agent: z.string(),
  agentName: z.string(),
  side: side.nullable(),
  /** The agent's confidence in its side (its final position's, else its latest stance's or commitment's). */
  confidence: z.number().min(0).max(1).nullable(),
  metric: z.string(),
  threshold: z.string(),
  deadline: z.string(),
  /** The deadline read as a day (YYYY-MM-DD, the last day of a month, quarter or year), or null. */
  deadlineDate: z.string().nullable(),
  status: z.enum(LEDGER_STATUSES),
  resolution: falsifierResolutionSchema.nullable(),
  /** The message that declared it, and its place in the transcript. */
  messageId: z.string().nullable(),
  index: count.nullable(),
});
export type LedgerFalsifier = z.infer<typeof ledgerFalsifierSchema>;

export const calibrationSchema = z.strictObject({
  agent: z.string(),
  agentName: z.string(),
  scored: count,
  survived: count,
  falsified: count,
  unscored: count,
  heldRate: z.number().min(0).max(1).nullable(),
  meanConfidence: z.number().min(0).max(1).nullable(),
  brier: z.number().min(0).max(1).nullable(),
});
export type CalibrationView = z.infer<typeof calibrationSchema>;

export const ledgerCruxSchema = z.strictObject({
  key: z.string(),
  debateId: z.string(),
  debateTopic: z.string(),
  ideaSlug: z.string().nullable(),
  debateCreatedAt: z.string(),
  thread: z.string(),
  question: z.string(),
  threadStatus: z.enum(THREAD_STATUSES),
  crystallized: z.boolean(),
  validated: z.boolean(),
  primary: z.boolean(),
  dcg: z.number().nullable(),
  falsifiers: count,
  resolved: count,
  /** The earliest deadline among its unresolved falsifiers. */
  nextDeadline: z.string().nullable(),
  status: z.enum(LEDGER_STATUSES),
});
export type LedgerCrux = z.infer<typeof ledgerCruxSchema>;

// ---- transcripts -------------------------------------------------------------------------------------

export const transcriptMessageSchema = z.strictObject({
  index: count,
  id: z.string(),
  thread: z.string(),
  kind: z.enum(['message', 'blocked', 'moderator']),
  agent: z.string().nullable(),
  move: z.enum(MOVES).nullable(),
  stage: z.enum(STAGES).nullable(),
  /** The message; for a blocked one, why it was refused. */
  content: z.string(),
  replyTo: z.string().nullable(),
  /** A blocked message's reason code, or a moderator intervention's kind. */
  reason: z.string().nullable(),
  intervention: z.enum(INTERVENTION_KINDS).nullable(),
  target: z.string().nullable(),
  at: z.string(),
});
export type TranscriptMessage = z.infer<typeof transcriptMessageSchema>;

export const transcriptSummarySchema = z.strictObject({
  kind: z.enum(TRANSCRIPT_KINDS),
  id: z.string(),
  /** A debate's topic; for an evaluation, the idea's title with the mode. */
  title: z.string(),
  ideaSlug: z.string().nullable(),
  status: z.enum(TRANSCRIPT_STATUSES),
  provider: z.string().nullable(),
  /** When it started. */
  createdAt: z.string(),
  /** A debate's messages, or an evaluation's entries. */
  messages: count,
});
export type TranscriptSummary = z.infer<typeof transcriptSummarySchema>;

export const transcriptHitSchema = z.strictObject({
  kind: z.enum(TRANSCRIPT_KINDS),
  id: z.string(),
  title: z.string(),
  ideaSlug: z.string().nullable(),
  /** The message's (or entry's) place in its transcript: the `m` of the deep link. */
  index: count,
  /** A debate message's id; for an evaluation entry, its title (`Ruling on Market size: red team`). */
  messageId: z.string(),
  /** A debate's thread; an evaluation's column (`evaluators`, `transcript`, `redteam`). */
  thread: z.string(),
  agent: z.string().nullable(),
  agentName: z.string().nullable(),
  /** A debate move or `MODERATOR`; an evaluation entry's kind (`RULING` …). */
  move: z.string().nullable(),
  at: z.string(),
  /** The message's text around the first matched word, as it is (the view marks the words itself). */
  snippet: z.string(),
});
export type TranscriptHit = z.infer<typeof transcriptHitSchema>;

const optionalText = (max: number) => z.string().trim().max(max).optional();

export const debateViewChannels = {
  /**
   * A debate's state as the live view draws it: each thread's stage, budgets, lock attempts,
   * commitments with falsifiers and steelmans, and the cost and token meter against the limits.
   */
  'debates:progress': { input: z.strictObject({ id: debateId }), output: debateProgressSchema },

  /** A debate's crux map: cruxes, agents, coalitions, dependency and contradiction edges, stored positions. */
  'debates:cruxMap': { input: z.strictObject({ id: debateId }), output: cruxMapSchema },
  /** How a debate went, message by message: each crux's DCG and each agent's side and confidence in each thread. */
  'debates:course': { input: z.strictObject({ id: debateId }), output: debateCourseSchema },
  /** Keeps the node positions of a crux map beside the debate's log (`<id>.layout.json`). */
  'debates:saveCruxLayout': {
    input: z.strictObject({ id: debateId, positions: nodePositionsSchema }),
    output: z.strictObject({ path: z.string(), saved: count }),
  },

  /** Every crux and falsifier of every debate, with deadlines and what the researcher recorded (ledger.md). */
  'ledger:list': {
    input: z.strictObject({}),
    output: z.strictObject({
      falsifiers: z.array(ledgerFalsifierSchema),
      cruxes: z.array(ledgerCruxSchema),
      /** The researcher's ledger file (workspace-relative) and what in it could not be read. */
      file: z.string(),
      problems: z.array(z.strictObject({ line: z.number().int().positive(), reason: z.string() })),
      /** Today, as the statuses were computed. */
      today: z.string(),
    }),
  },
  /**
   * How well each debating persona's confidence matched the falsifiers the researcher resolved
   * (core/ledger/calibration.ts): best calibrated (lowest Brier score) first.
   */
  'ledger:calibration': {
    input: z.strictObject({}),
    output: z.strictObject({ agents: z.array(calibrationSchema) }),
  },
  /** Records how a falsifier resolved, as an entry of ledger.md (a second record for it replaces the first). */
  'ledger:resolveFalsifier': {
    input: z.strictObject({
      debateId,
      thread: z.string().trim().min(1, 'needs the thread').max(100),
      agent: z.string().trim().min(1, 'needs the agent').max(100),
      outcome: z.enum(FALSIFIER_OUTCOMES, { error: `must be one of ${FALSIFIER_OUTCOMES.join(', ')}` }),
      resolvedOn: day,
      note: z.string().max(20_000, 'the note is longer than 20,000 characters').default(''),
    }),
    output: z.strictObject({
      falsifier: ledgerFalsifierSchema,
      /** Where it was written; with `conflict`, the ledger changed meanwhile and this is a copy beside it. */
      path: z.string(),
      conflict: z.boolean(),
    }),
  },

  /** Every past transcript, debates and evaluations, newest first. */
  'transcripts:list': {
    input: z.strictObject({}),
    output: z.strictObject({ transcripts: z.array(transcriptSummarySchema) }),
  },
  /**
   * One transcript in order: a debate's messages (`transcript`, each at its `index`) or an
   * evaluation's entries (`entries`, each at its `seq`); the other list is empty.
   */
  'transcripts:get': {
    input: z
      .strictObject({ kind: z.enum(TRANSCRIPT_KINDS), id: z.string().trim() })
      // Both kinds of id name files: only what such an id can hold gets near the folder.
      .superRefine((v, ctx) => {
        const checked = (v.kind === 'evaluation' ? evaluationIdSchema : debateIdSchema).safeParse(v.id);
        if (!checked.success)
          ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'is not valid', path: ['id'] });
      }),
    output: transcriptSummarySchema.extend({
      /** Who speaks: a debate's agents; an evaluation's evaluators, red-teamers, arbiter and synthesis. */
      agents: z.array(z.strictObject({ id: z.string(), name: z.string() })),
      /** A debate's threads; an evaluation's columns. */
      threads: z.array(z.strictObject({ id: z.string(), topic: z.string() })),
      transcript: z.array(transcriptMessageSchema),
      entries: z.array(evaluationEntrySchema),
    }),
  },
  /**
   * Messages across every transcript matching all the given filters: words of the text (each must
   * appear), agent (id or name), move, idea, and a range of days, of either kind or only one. Newest
   * transcripts first.
   */
  'transcripts:search': {
    input: z.strictObject({
      kind: z.enum(TRANSCRIPT_KINDS).optional(),
      text: optionalText(500),
      agent: optionalText(100),
      move: z.enum(TRANSCRIPT_MOVES).optional(),
      ideaSlug: optionalText(200),
      from: day.optional(),
      to: day.optional(),
      limit: z.number().int().min(1).max(2000).default(200),
    }),
    output: z.strictObject({ hits: z.array(transcriptHitSchema), total: count, truncated: z.boolean() }),
  },
} as const;

export const debateViewPushEvents = {} as const;
