import { z } from 'zod';
import { narrativeSchema as protocolNarrativeSchema } from '../evaluation/answers';
import { conflictSchema, convergenceReportSchema } from '../evaluation/document';
import { evaluationOptionsSchema } from '../evaluation/options';
import {
  ARBITER_MODES,
  DROP_REASONS,
  FIRST_PRINCIPLES,
  LOCK_REASONS,
  MODES,
  PHASES,
  RECOMMENDATIONS,
  RED_TEAM_PERSONAS,
  SEVERITIES,
  WINNERS,
} from '../evaluation/vocabulary';
import type { RunStatus } from '../engine/protocol';
import { PROVIDERS } from './entities';
import { evaluationIdSchema, slugSchema } from './ids';
import { runStatusSchema } from './runs-channels';
import { strictCopy } from './strict-copy';

/**
 * Evaluations: start, progress, records, leaderboards (ideas and personas), the matrix, dispute.
 * Spread into `channels` and `pushEvents` of core/contract.ts; each entry is
 * `'<area>:<verb>': { input: zod, output: zod }` as there.
 *
 * An evaluation runs in the background: `evaluations:start` answers at once with its id, and its
 * progress is pushed as `evaluation:event` (what happened, numbered, with the running cost) and
 * its status as every run's is, `run:status`. Its status is a run's everywhere on the wire (`RunStatus`,
 * `live`, `stopRequested`); `evaluationStatusOf` turns it into the word an evaluation view shows.
 * `evaluations:get` gives the whole record or the progress so far, so a view opened mid-way catches up.
 */

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1);
const usd = z.number().nonnegative();
/** Evaluation ids are lower-case ULIDs (a dispute's too); nothing that could name a path. */
const evaluationId = evaluationIdSchema;
const slug = slugSchema;
const byId = z.strictObject({ id: evaluationId });

/**
 * Where an evaluation stands, in the words its views and the CLI show (never sent: every channel
 * carries the run's status): `running` (in the background now), `stopping` (cancel asked; the calls
 * in flight finish first), `stopped` (cancelled or interrupted: its checkpoint can be resumed),
 * `failed` (resume retries it), `locked` (finished: its record is written).
 */
export const EVALUATION_STATUSES = ['running', 'stopping', 'stopped', 'failed', 'locked'] as const;
export const evaluationStatusSchema = z.enum(EVALUATION_STATUSES);
export type EvaluationStatus = z.infer<typeof evaluationStatusSchema>;

/**
 * The one mapping from a run's status (`RunStatus`, what the runner logs, `run:status` pushes and
 * every evaluation channel carries) to the word an evaluation view or the CLI shows for it. An evaluation logs `paused` when it is
 * stopped on purpose and `completed` when it locks; a `running` that no process drives was
 * interrupted, which, like a stop, leaves a checkpoint to resume.
 */
export function evaluationStatusOf(run: {
  status: RunStatus;
  live: boolean;
  stopRequested: boolean;
}): EvaluationStatus {
  switch (run.status) {
    case 'running':
      if (!run.live) return 'stopped';
      return run.stopRequested ? 'stopping' : 'running';
    case 'completed':
      return 'locked';
    case 'failed':
      return 'failed';
    // An evaluation is never cancelled for good nor stopped partway by a limit (a limit locks it);
    // were a log to say so, it would still hold a checkpoint to resume.
    case 'paused':
    case 'cancelled':
    case 'partial':
      return 'stopped';
  }
}

export const EVALUATION_MODES = MODES;
/** The debate options' choices, for forms (core/evaluation/options.ts has what each does). */
export const FIRST_PRINCIPLES_LEVELS = FIRST_PRINCIPLES;
export const ARBITER_INTERVENTIONS = ARBITER_MODES;
export { evaluationOptionsSchema };
export const evaluationModeSchema = z.enum(MODES);

/** How far along it is: answers received of those a run like it needs (an estimate until it locks). */
export const evaluationProgressSchema = z.strictObject({ done: count, total: count });

export const evaluationSummarySchema = z.strictObject({
  id: z.string(),
  slug: z.string(),
  ideaTitle: z.string(),
  mode: evaluationModeSchema,
  /** FULL from the first scores; TARGETED: one disputed criterion. */
  scope: z.enum(['FULL', 'TARGETED']),
  /** A run's status, as `runs:list` and `run:status` say it (`completed`: locked). */
  status: runStatusSchema,
  /** Driven by this app right now. */
  live: z.boolean(),
  /** A stop was asked and the calls in flight have not returned yet. */
  stopRequested: z.boolean(),
  phase: z.enum(PHASES),
  /** The current (or last) debate round; 0 before the first. */
  round: count,
  roundLimit: count,
  lockReason: z.enum(LOCK_REASONS).nullable(),
  overallScore: z.number().nullable(),
  confidence: share.nullable(),
  redTeamSurvival: share.nullable(),
  recommendation: z.enum(RECOMMENDATIONS).nullable(),
  provider: z.string().nullable(),
  costUsd: usd.nullable(),
  budgetUsd: usd.nullable(),
  /** The idea's inputs changed since this evaluation read them. */
  stale: z.boolean(),
  /** The idea's current evaluation (the one its synthesis.md shows). */
  current: z.boolean(),
  supersedes: z.string().nullable(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
  /** Why it stopped (`cancelled`, `app closed`, `interrupted`) or failed; null otherwise. */
  stopReason: z.string().nullable(),
  progress: evaluationProgressSchema,
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

/** The columns of the live view an entry belongs in. */
export const ENTRY_COLUMNS = ['evaluators', 'transcript', 'redteam'] as const;

/**
 * One thing that happened, ready to show: the protocol's event with the words it refers to (the
 * challenge, the defence, the ruling's reasoning) looked up, and the column it belongs in.
 */
export const evaluationEntrySchema = z.strictObject({
  /** Its place in the evaluation's sequence, from 0. */
  seq: count,
  /** The protocol's event type (`initial_scores`, `challenge_accepted`, `ruling` …). */
  type: z.string(),
  /** The evaluation's clock when it happened. */
  at: z.string().nullable(),
  column: z.enum(ENTRY_COLUMNS),
  round: count.nullable(),
  /** Who speaks: `evaluator:<category>`, a red-team persona, `arbiter`, `synthesis`, or null (the protocol itself). */
  agent: z.string().nullable(),
  title: z.string(),
  text: z.string(),
  criterion: z.string().nullable(),
  severity: z.enum(SEVERITIES).nullable(),
  winner: z.enum(WINNERS).nullable(),
  scoreBefore: z.number().nullable(),
  scoreAfter: z.number().nullable(),
  challengeId: z.string().nullable(),
  /** A dropped challenge (repeat, over the cap, off target): shown dimmed. */
  dropped: z.enum(DROP_REASONS).nullable(),
});
export type EvaluationEntry = z.infer<typeof evaluationEntrySchema>;

// The protocol's own shapes, from core/evaluation, as strict copies: what the contract carries
// names every field, and each shape is defined once.

const narrativeSchema = strictCopy(protocolNarrativeSchema);

/** One debated challenge: the red team's point, the defence, the ruling and how it ended. */
export const challengeViewSchema = strictCopy(conflictSchema);

/** The four conditions of convergence after a round, each with its numbers. */
export const convergenceReportViewSchema = strictCopy(convergenceReportSchema);

const criterionViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  critical: z.boolean(),
  score: z.number().nullable(),
  confidence: share.nullable(),
  /** Its score at the end of each round; index 0 holds the first score. */
  scores: z.array(z.number()),
  /** Its confidence at the end of each round (null where not known, e.g. rounds inherited by a dispute). */
  confidences: z.array(share.nullable()),
  reasoning: z.string().nullable(),
  openQuestions: z.array(z.string()),
  challenged: count,
  defended: count,
});

const categoryViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  weight: z.number(),
  score: z.number().nullable(),
  initialScore: z.number().nullable(),
});

const roundViewSchema = z.strictObject({
  round: z.number().int().min(1),
  status: z.enum(['open', 'complete', 'partial']),
  focus: z.string().nullable(),
  targets: z.array(z.string()),
  personas: z.array(z.enum(RED_TEAM_PERSONAS)),
  raised: count,
  accepted: count,
  dropped: count,
  newInsights: z.array(z.string()),
  inherited: z.boolean(),
});

/** The debate options an evaluation runs under (core/evaluation/options.ts), defaults filled in. */
export const evaluationOptionsViewSchema = z.strictObject({
  /** null: any number of personas may challenge one evaluator in a round. */
  redTeamersPerEvaluator: z.number().int().positive().nullable(),
  firstPrinciples: z.enum(FIRST_PRINCIPLES),
  arbiter: z.enum(ARBITER_MODES),
  adjustmentRange: z.number().int().positive(),
  minConfidence: share,
  /** The options in words, as the locked document says them. */
  words: z.string(),
});
export type EvaluationOptionsView = z.infer<typeof evaluationOptionsViewSchema>;

/** "About N more rounds" while it runs (core/evaluation/prediction.ts; docs/evaluation-protocol.md). */
export const roundsPredictionSchema = z.strictObject({
  /** Rounds still to run, the one in progress included. */
  more: z.number().int().positive(),
  /** The round limit ends it before convergence would. */
  atLimit: z.boolean(),
  /** Rounds the limit still allows, the one in progress included. */
  left: z.number().int().positive(),
  /** The prediction in one line. */
  text: z.string(),
  /** Each unmet condition: rounds by its trend (null: never, by its trend) and why. */
  needs: z.array(
    z.strictObject({
      condition: z.enum(['stability', 'confidence', 'resolution', 'saturation']),
      rounds: z.number().int().positive().nullable(),
      reason: z.string(),
    }),
  ),
});

/** One reopen trigger weighed (core/evaluation/reopen-triggers.ts): its own inputs, a related idea, time. */
export const staleCheckSchema = z.strictObject({
  trigger: z.enum(['content', 'related', 'time']),
  /** It passed its materiality check: the evaluation may be stale. */
  material: z.boolean(),
  reason: z.string(),
});

export const evaluationDetailSchema = evaluationSummarySchema.extend({
  options: evaluationOptionsViewSchema,
  /** Why it may be stale: the material checks' reasons (empty: nothing says so). */
  staleReasons: z.array(z.string()),
  /**
   * Every reopen trigger weighed, material or not (an idea's current locked evaluation; others
   * only say whether the idea's own inputs changed).
   */
  staleChecks: z.array(staleCheckSchema),
  /** While it runs its rounds: how many more it will likely take; null otherwise. */
  prediction: roundsPredictionSchema.nullable(),
  /**
   * What one more round ("Add round") would cost, priced for its provider, while one may be added
   * to it (running, a full evaluation, under five rounds); null otherwise. Its budget still caps it.
   */
  addRoundPreview: z
    .strictObject({ calls: z.number().nonnegative(), usd, worstCalls: count, worstUsd: usd, basis: z.string() })
    .nullable(),
  dispute: z.strictObject({ criterion: z.string(), reason: z.string() }).nullable(),
  criteria: z.array(criterionViewSchema),
  categories: z.array(categoryViewSchema),
  rounds: z.array(roundViewSchema),
  /** Overall score at the end of each round (index 0: the first scores). */
  overallTrajectory: z.array(z.number()),
  /** Overall confidence at the end of each round, where known. */
  confidenceTrajectory: z.array(share.nullable()),
  /** Every debated challenge: the red team's point, the defence, the ruling, how it ended. */
  challenges: z.array(challengeViewSchema),
  /** The convergence check after each completed round, oldest first. */
  convergence: z.array(convergenceReportViewSchema),
  /** The check that decided the lock (measured once more at the lock), else the latest. */
  latestConvergence: convergenceReportViewSchema.nullable(),
  narrative: narrativeSchema.nullable(),
  reopenConditions: z.array(z.string()),
  /** The final synthesis document as markdown (what synthesis.md holds), once locked. */
  synthesisMarkdown: z.string().nullable(),
  /** What the evaluation waits for now, in words (“the arbiter’s ruling on “Market size”: …”). */
  awaiting: z.array(z.string()),
  entries: z.array(evaluationEntrySchema),
});
export type EvaluationDetail = z.infer<typeof evaluationDetailSchema>;

const provider = z.enum(PROVIDERS);
const budgetUsd = z.number().positive('must be more than 0').max(1000, 'must be at most 1000 USD');

export const evaluationEstimateSchema = z.strictObject({
  calls: count,
  usd,
  /** Every call the mode allows, each at its worst (USD; the budget caps it). */
  worstCalls: count,
  worstUsd: usd,
  budgetUsd: usd,
  rounds: count,
  personas: z.array(z.string()),
  basis: z.string(),
  /** Why the chosen provider cannot run now (no key, no server), or null: Start stays off until it can. */
  cannotRun: z.string().nullable(),
});
export type EvaluationEstimateView = z.infer<typeof evaluationEstimateSchema>;

export const evaluationStartSchema = z.strictObject({
  slug,
  mode: evaluationModeSchema.default('standard'),
  provider,
  seed: z.number().int().nonnegative().optional(),
  /** The most it may spend (USD; default 3). */
  budgetUsd: budgetUsd.optional(),
  /** It locks with TIMEOUT after this long. */
  timeLimitMinutes: z
    .number()
    .positive('must be more than 0')
    .max(24 * 60)
    .optional(),
  /** The debate options (seed 12.5); each one left out keeps its default. */
  options: evaluationOptionsSchema.optional(),
});

export const MIN_DISPUTE_REASON_CHARS = 50;

export const leaderboardRowSchema = z.strictObject({
  rank: z.number().int().positive(),
  slug: z.string(),
  title: z.string(),
  type: z.string().nullable(),
  stage: z.string(),
  overallScore: z.number().nullable(),
  /** Category id → final score. */
  categoryScores: z.record(z.string(), z.number()),
  confidence: z.number().nullable(),
  redTeamSurvival: z.number().nullable(),
  recommendation: z.string().nullable(),
  lockReason: z.string().nullable(),
  evaluationId: z.string().nullable(),
  evaluatedAt: z.string().nullable(),
  stale: z.boolean(),
});
export type LeaderboardRowView = z.infer<typeof leaderboardRowSchema>;

export const personaRatingSchema = z.strictObject({
  id: z.string(),
  role: z.enum(['red-team', 'evaluator']),
  exchanges: count,
  wins: count,
  draws: count,
  losses: count,
  /** (wins + draws / 2) / exchanges. */
  winRate: share,
});
export type PersonaRatingView = z.infer<typeof personaRatingSchema>;

const categoryHeader = z.strictObject({ id: z.string(), name: z.string(), weight: z.number() });

export const evaluationsChannels = {
  /** Evaluations, newest first: running, stopped, failed and locked ones, optionally of one idea. */
  'evaluations:list': {
    input: z.strictObject({ slug: slug.optional(), status: runStatusSchema.optional() }),
    output: z.strictObject({
      evaluations: z.array(evaluationSummarySchema),
      /**
       * Locked evaluations on disk that no look has read yet (a workspace copied in, or opened for
       * the first time): the list lacks them while they are read in the background, and an
       * `evaluation:listed` push says when to ask again. 0 for one idea's list, read whole.
       */
      reading: count,
    }),
  },
  /** One evaluation: its record once locked, or the progress so far. */
  'evaluations:get': { input: byId, output: evaluationDetailSchema },
  /** What an evaluation of an idea would likely cost, before it starts; starts nothing. */
  'evaluations:estimate': {
    input: z.strictObject({
      slug,
      mode: evaluationModeSchema.default('standard'),
      provider,
      budgetUsd: budgetUsd.optional(),
    }),
    output: evaluationEstimateSchema,
  },
  /** Starts an evaluation and answers at once with its id; it runs on in the background. */
  'evaluations:start': {
    input: evaluationStartSchema,
    output: z.strictObject({ id: z.string(), estimate: evaluationEstimateSchema }),
  },
  /** Stops a running evaluation after the calls in flight; its checkpoint stays, to resume. */
  'evaluations:cancel': {
    input: byId,
    output: z.strictObject({ id: z.string(), status: runStatusSchema, stopRequested: z.boolean() }),
  },
  /** Continues a stopped or interrupted evaluation from its checkpoint (a failed one starts over). */
  'evaluations:resume': { input: byId, output: z.strictObject({ id: z.string() }) },
  /** Accepts the scores of a running evaluation as they stand: it locks with USER_APPROVED. */
  'evaluations:approve': { input: byId, output: z.strictObject({ id: z.string() }) },
  /**
   * Grants a running evaluation one more round than its limit (never past five): fed to it before
   * its next batch of calls and recorded in its log. Answers the limit it will have.
   */
  'evaluations:addRound': {
    input: byId,
    output: z.strictObject({ id: z.string(), roundLimit: z.number().int().positive() }),
  },
  /** Disputes one criterion of an idea's locked evaluation: one targeted round, a new evaluation. */
  'evaluations:dispute': {
    input: z.strictObject({
      slug,
      criterion: z.string().trim().min(1, 'needs a criterion'),
      reason: z
        .string()
        .trim()
        .min(
          MIN_DISPUTE_REASON_CHARS,
          `needs at least ${MIN_DISPUTE_REASON_CHARS} characters: say what is wrong and why`,
        )
        .max(5000),
      provider: provider.default('simulated'),
      seed: z.number().int().nonnegative().optional(),
      budgetUsd: budgetUsd.optional(),
    }),
    output: z.strictObject({ id: z.string() }),
  },
  /** Ideas ranked by overall score (unevaluated ones last), with the categories for the columns. */
  'evaluations:leaderboard': {
    input: z.strictObject({}),
    output: z.strictObject({ categories: z.array(categoryHeader), ideas: z.array(leaderboardRowSchema) }),
  },
  /** Red-team personas and evaluators ranked by the arbiter's rulings over current evaluations. */
  'evaluations:personaRatings': {
    input: z.strictObject({}),
    output: z.strictObject({ personas: z.array(personaRatingSchema) }),
  },
  /**
   * Every idea × every criterion of its current evaluation: `scores[i]` and `confidence[i]` belong
   * to `criteria[i]` (null: not scored).
   */
  'evaluations:matrix': {
    input: z.strictObject({}),
    output: z.strictObject({
      categories: z.array(categoryHeader),
      criteria: z.array(
        z.strictObject({ id: z.string(), name: z.string(), category: z.string(), critical: z.boolean() }),
      ),
      ideas: z.array(
        z.strictObject({
          slug: z.string(),
          title: z.string(),
          stage: z.string(),
          evaluationId: z.string().nullable(),
          overallScore: z.number().nullable(),
          stale: z.boolean(),
          scores: z.array(z.number().nullable()),
          confidence: z.array(share.nullable()),
        }),
      ),
    }),
  },
} as const;

export const evaluationsPushEvents = {
  /**
   * Records read or transcripts counted in the background since the last push (see `reading` of
   * `evaluations:list` and `transcripts:list`): the lists are worth asking for again. Pushed as the
   * work goes on (every second or two) and once when it is done (both 0).
   */
  'evaluation:listed': z.strictObject({
    /** Locked records still to read. */
    reading: count,
    /** Transcripts of locked evaluations whose entries are still to count. */
    counting: count,
  }),
  /** What a running evaluation did; `from` is the `seq` of the first entry. */
  'evaluation:event': z.strictObject({
    evaluationId: z.string(),
    slug: z.string(),
    from: count,
    entries: z.array(evaluationEntrySchema),
    phase: z.enum(PHASES),
    round: count,
    costUsd: usd,
    budgetUsd: usd,
    progress: evaluationProgressSchema,
  }),
} as const;
