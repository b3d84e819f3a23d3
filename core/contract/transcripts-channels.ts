import { z } from 'zod';
import { INTERVENTION_KINDS, MOVES, STAGES } from '../crux/vocabulary';
import { DEBATE_STATUSES } from '../engine/debate-record';
import { evaluationEntrySchema } from './evaluations-channels';
import { debateIdSchema, evaluationIdSchema, runIdSchema } from './ids';
import { calendarDaySchema } from './ledger-channels';

/**
 * `transcripts:*`: every past transcript, crux debates' messages and evaluations' entries alike,
 * read in order or searched across. Spread into `channels` of core/contract.ts.
 */

const count = z.number().int().nonnegative();
const day = calendarDaySchema;

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
/** A crux debate, an evaluation, or a run of any other registered protocol. */
export const TRANSCRIPT_KINDS = ['debate', 'evaluation', 'run'] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];
/** A run's status, whatever its protocol (an evaluation's `completed` is its lock). */
export const TRANSCRIPT_STATUSES = DEBATE_STATUSES;

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
  /** Driven by this app now (a `running` one that is not was interrupted). */
  live: z.boolean(),
  provider: z.string().nullable(),
  /** When it started. */
  createdAt: z.string(),
  /**
   * A debate's messages, or an evaluation's entries; null while an evaluation's entries are being
   * counted in the background (its script replayed: the first look at records this app has not
   * read before), until an `evaluation:listed` push.
   */
  messages: count.nullable(),
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

export const transcriptsChannels = {
  /** Every past transcript, debates and evaluations, newest first. */
  'transcripts:list': {
    input: z.strictObject({}),
    output: z.strictObject({
      transcripts: z.array(transcriptSummarySchema),
      /** Evaluations not read yet, so not in the list (see `evaluations:list`). */
      reading: count,
    }),
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
        const checked = (
          v.kind === 'evaluation' ? evaluationIdSchema : v.kind === 'run' ? runIdSchema : debateIdSchema
        ).safeParse(v.id);
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
