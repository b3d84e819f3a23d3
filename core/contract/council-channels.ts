import { z } from 'zod';
import { DECISIONS, outcomeOutputSchema, proposalOutputSchema, reviewOutputSchema } from '../council/answers';
import { FLAGS } from '../council/flags';
import { agentSchema, BASE_VALUES, COUNCIL_AGENTS, valueSchema } from '../council/values';
import { PROVIDERS, runEstimateSchema } from './entities';
import { runIdSchema, slugSchema } from './ids';
import { runStatusSchema } from './runs-channels';

/**
 * `council:*`: the council (executor, verifier, integrator) acting on the workspace, and the
 * researcher in its loop. A task runs in the background (`council:run` answers at once); its
 * proposals are read with `council:list` / `council:get`, the ones waiting for the researcher with
 * `council:approvals`, each with a before/after of every file it would change (`council:preview`,
 * computed without writing anything). The researcher approves or rejects with a note (a precedent
 * for later councils) and reverts an executed proposal in one step. `proposal:changed` is pushed
 * whenever a proposal moves (a version, a vote, a decision, an execution, a revert), so the inbox,
 * its badge and the council view follow without asking; the run itself is a run like any other
 * (`run:status`, protocol `council`). Spread into `channels` and `pushEvents` of core/contract.ts.
 *
 * The area is `council` (as the CLI's `council` command), so the pushed event's subject is the
 * proposal: an event never shares its first half with a channel area.
 */

const count = z.number().int().nonnegative();
const stakesSchema = z.enum(['low', 'medium', 'high']);
const flagSchema = z.enum(FLAGS);
const voteSchema = z.enum(DECISIONS);

/** A council task is a run: its id is a run id. */
export const councilTaskIdSchema = runIdSchema;
/** A proposal under `council/proposals/`: `<task id>-p1`. */
export const proposalIdSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,90}-p[1-9][0-9]{0,3}$/, 'is not a council proposal id (<task id>-p1)');

export const PROPOSAL_STATUSES = [
  'PROPOSED',
  'VERIFYING',
  'INTEGRATING',
  'AWAITING_RESEARCHER',
  'EXECUTING',
  'CHECKING',
  'RECORDED',
  'REJECTED',
  'FAILED',
  'REVERTED',
] as const;
export const proposalStatusSchema = z.enum(PROPOSAL_STATUSES);
export type ProposalStatusView = z.infer<typeof proposalStatusSchema>;

/** Why a proposal waits for the researcher (core/council/state.ts `WaitReason`). */
export const WAIT_REASONS = ['stakes', 'flags', 'ladder', 'tie', 'limit'] as const;
export const TASK_OUTCOMES = ['COMPLETED', 'AWAITING_RESEARCHER', 'REJECTED', 'FAILED', 'LIMIT'] as const;

const fileChangeSchema = z.strictObject({
  path: z.string(),
  change: z.enum(['created', 'modified', 'deleted', 'moved', 'read']),
  conflictCopy: z.string().optional(),
  to: z.string().optional(),
});
export type CouncilFileChange = z.infer<typeof fileChangeSchema>;

const reviewEntrySchema = z.strictObject({
  agent: agentSchema,
  review: reviewOutputSchema,
});

const versionSchema = z.strictObject({
  n: z.number().int().positive(),
  kind: z.enum(['proposal', 'revision', 'compromise']),
  author: agentSchema,
  /** What the author proposed: goal, actions, value justification, expected outcomes, risks. */
  output: proposalOutputSchema,
  /** The highest of its actions' stakes. */
  stakes: stakesSchema,
  /** Gaming flags, computed before any reviewer saw it. */
  flags: z.array(flagSchema),
  /** The reviews, in the order they were given (the author's own vote is an approval). */
  reviews: z.array(reviewEntrySchema),
  /** Who still has to review it (empty once its round is decided). */
  pendingReviewers: z.array(agentSchema),
});
export type CouncilVersionView = z.infer<typeof versionSchema>;

const weightsSchema = z.record(agentSchema, z.record(valueSchema, z.number()));
export type CouncilWeightsView = z.infer<typeof weightsSchema>;

/** One proposal with every version, vote, flag, decision, execution result and check. */
export const councilProposalSchema = z.strictObject({
  /** The file id under council/proposals/: `<task id>-p1`. */
  id: z.string(),
  taskId: z.string(),
  task: z.string(),
  idea: z.string().nullable(),
  /** `p1`, `p2` … within the task. */
  proposal: z.string(),
  status: proposalStatusSchema,
  /** The last version's goal, stakes and flags (what is voted on now, or was last). */
  goal: z.string(),
  stakes: stakesSchema,
  flags: z.array(flagSchema),
  /** Highest rung reached: 0 consensus at once, 1 discussion, 2 compromise, 3 tiebreak, 4 the researcher. */
  ladder: z.number().int().min(0).max(4),
  tiebreak: z.strictObject({ proposal: z.number(), objection: z.number() }).nullable(),
  decision: z.enum(['approved', 'rejected', 'awaiting_researcher']).nullable(),
  decidedBy: z.enum(['consensus', 'tiebreak', 'researcher']).nullable(),
  researcherNote: z.string().nullable(),
  /** Why it waits for the researcher, while it does. */
  waitReason: z.enum(WAIT_REASONS).nullable(),
  /** What it waits for now, in words (null once settled). */
  waitsFor: z.string().nullable(),
  /** The last round's votes: the author's own approval and each review given so far. */
  votes: z.partialRecord(agentSchema, voteSchema),
  versions: z.array(versionSchema),
  results: z.array(
    z.strictObject({ action: count, ok: z.boolean(), detail: z.string(), changes: z.array(fileChangeSchema) }),
  ),
  postconditions: z.array(z.strictObject({ action: count, holds: z.boolean(), detail: z.string() })).nullable(),
  outcome: outcomeOutputSchema.nullable(),
  executed: z.boolean(),
  checked: z.boolean(),
  reverted: z
    .strictObject({ at: z.string(), changes: z.array(fileChangeSchema), conflicts: z.array(z.string()) })
    .nullable(),
  /** Executed, not yet reverted, and no longer running: the revert button applies. */
  revertable: z.boolean(),
  /** A decision the researcher gave is being carried out in this app now. */
  deciding: z.boolean(),
});
export type CouncilProposalView = z.infer<typeof councilProposalSchema>;

const runSchema = z.strictObject({
  status: runStatusSchema,
  reason: z.string().nullable(),
  /** Driven by this app right now. */
  live: z.boolean(),
  provider: z.string().nullable(),
  costUsd: z.number().nonnegative(),
  startedAt: z.string(),
  updatedAt: z.string(),
});

const proposalSummarySchema = councilProposalSchema.pick({
  id: true,
  proposal: true,
  status: true,
  goal: true,
  stakes: true,
  flags: true,
  ladder: true,
  decision: true,
  decidedBy: true,
  executed: true,
  revertable: true,
});

export const councilTaskSummarySchema = z.strictObject({
  id: z.string(),
  task: z.string(),
  idea: z.string().nullable(),
  /** The task's result status as the protocol names it (COMPLETED, AWAITING_RESEARCHER …). */
  outcome: z.enum(TASK_OUTCOMES),
  /** What the task does or waits for now, in words. */
  waitsFor: z.string(),
  /** Its run log, or null for a task replayed from a script (no run log). */
  run: runSchema.nullable(),
  proposals: z.array(proposalSummarySchema),
  /** The last thing that went wrong carrying out the researcher's decision in this app, if any. */
  error: z.string().nullable(),
});
export type CouncilTaskSummary = z.infer<typeof councilTaskSummarySchema>;

export const councilTaskSchema = councilTaskSummarySchema.extend({
  proposals: z.array(councilProposalSchema),
  phase: z.enum(['proposing', 'deliberating', 'recording', 'done']),
  calls: count,
  rounds: count,
  /** Set when a limit (rounds, calls) ended the deliberation. */
  limit: z.string().nullable(),
  /** The weights the task started from and left; null for a task replayed from a script (no run log). */
  weights: z.strictObject({ before: weightsSchema, after: weightsSchema }).nullable(),
  episode: z
    .strictObject({
      keyLearnings: z.array(z.string()),
      valuesServed: z.array(valueSchema),
    })
    .nullable(),
  applied: z.array(
    z.strictObject({ agent: agentSchema, value: valueSchema, delta: z.number(), from: z.number(), to: z.number() }),
  ),
  refused: z.array(z.strictObject({ agent: agentSchema, value: valueSchema, delta: z.number(), reason: z.string() })),
  figures: z.strictObject({ calls: count, proposalsWithDissent: count, dissentRate: z.number().min(0).max(1) }),
});
export type CouncilTaskView = z.infer<typeof councilTaskSchema>;

const previewFileSchema = z.strictObject({
  path: z.string(),
  change: z.enum(['created', 'modified', 'deleted', 'moved']),
  /** For a move, where the file goes. */
  to: z.string().nullable(),
  /** The file's text now (null: there is none) and after the proposal (null: gone); null for a move. */
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** A text was cut to its first 100,000 characters. */
  truncated: z.boolean(),
  /** The actions (0-based) that touch this file. */
  actions: z.array(count),
});
export type CouncilPreviewFile = z.infer<typeof previewFileSchema>;

export const councilPreviewSchema = z.strictObject({
  id: z.string(),
  /** The version previewed (the last). */
  version: z.number().int().positive(),
  files: z.array(previewFileSchema),
  /** Files the actions only read. */
  reads: z.array(z.string()),
  /** An action that could not be planned on the files as they are (execution would stop there). */
  failures: z.array(z.strictObject({ action: count, tool: z.string(), detail: z.string() })),
});
export type CouncilPreview = z.infer<typeof councilPreviewSchema>;

const weightPointSchema = z.strictObject({
  /** When the task that moved the weights recorded its episode; null for the starting weights. */
  at: z.string().nullable(),
  taskId: z.string().nullable(),
  weights: weightsSchema,
});

export const councilWeightsSchema = z.strictObject({
  agents: z.array(agentSchema),
  values: z.array(valueSchema),
  /** The weights now (council/values/weights.json, else the starting weights). */
  current: weightsSchema,
  starting: weightsSchema,
  /** The spread (population standard deviation across the three agents) of each value now. */
  spread: z.record(valueSchema, z.number()),
  bounds: z.strictObject({ min: z.number(), max: z.number(), maxDelta: z.number(), diversityFloor: z.number() }),
  /** Every adjustment the integrator proposed, applied or refused (with why), oldest first. */
  history: z.array(
    z.strictObject({
      at: z.string(),
      taskId: z.string(),
      agent: agentSchema,
      value: valueSchema,
      delta: z.number(),
      from: z.number().nullable(),
      to: z.number().nullable(),
      refused: z.string().nullable(),
    }),
  ),
  /** The starting weights, then the weights after each task that changed them: the chart's points. */
  series: z.array(weightPointSchema),
});
export type CouncilWeightsReport = z.infer<typeof councilWeightsSchema>;

const maybe = z.number().nullable();
const taskFiguresSchema = z.strictObject({
  taskId: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  task: z.string(),
  idea: z.string().nullable(),
  status: z.enum(TASK_OUTCOMES),
  done: z.boolean(),
  /** `simple`: every proposal agreed at once; `complex`: some went up the ladder. */
  complexity: z.enum(['simple', 'complex']),
  proposals: count,
  roundsPerProposal: maybe,
  roundsPerProposalByStakes: z.record(stakesSchema, maybe),
  dissentRate: maybe,
  conflicts: count,
  productiveConflicts: count,
  productiveConflictRate: maybe,
  memory: z.strictObject({ offered: count, citingProposals: count, rate: maybe }),
  weightDiversity: z.record(valueSchema, z.number()),
  minWeightDiversity: z.number(),
  calls: count,
  costUsd: z.number().nonnegative(),
});
export type CouncilTaskFigures = z.infer<typeof taskFiguresSchema>;

const figuresSummarySchema = z.strictObject({
  tasks: count,
  proposals: count,
  roundsPerProposal: maybe,
  dissentRate: maybe,
  productiveConflictRate: maybe,
  memoryUseRate: maybe,
  minWeightDiversity: maybe,
  calls: count,
  costUsd: z.number().nonnegative(),
  callsPerTask: maybe,
  costPerTask: z.strictObject({ simple: maybe, complex: maybe }),
});

/** The council's figures (core/council/figures.ts): each task's, per day, the whole, and the seed's targets. */
export const councilFiguresSchema = z.strictObject({
  tasks: z.array(taskFiguresSchema),
  byDay: z.array(figuresSummarySchema.extend({ day: z.string() })),
  overall: figuresSummarySchema,
  targets: z.strictObject({
    roundsPerProposal: z.strictObject({ low: z.number(), medium: z.number() }),
    dissentRate: z.strictObject({ min: z.number(), max: z.number() }),
    costUsd: z.strictObject({ simple: z.number(), complex: z.number() }),
    weightDiversityFloor: z.number(),
  }),
  /** Council logs that could not be read, by path (left out of the figures). */
  problems: z.array(z.strictObject({ file: z.string(), reason: z.string() })),
});
export type CouncilFiguresReport = z.infer<typeof councilFiguresSchema>;

const decisionInput = z.strictObject({
  id: proposalIdSchema,
  /** Why: kept as a precedent every later council is shown. */
  note: z.string().trim().max(2000).default(''),
});

export const councilChannels = {
  /**
   * Starts a council task in the background: answers once its log is begun; the task runs on, and
   * stops where it needs the researcher (`proposal:changed` says so).
   */
  /** What a task would likely cost on a provider, and at worst (its call limit); starts nothing. */
  'council:estimate': {
    input: z.strictObject({ provider: z.enum(PROVIDERS) }),
    output: runEstimateSchema,
  },
  'council:run': {
    input: z.strictObject({
      task: z.string().trim().min(1, 'say what the council should do').max(2000),
      idea: slugSchema.optional(),
      provider: z.enum(PROVIDERS),
      seed: z.number().int().optional(),
    }),
    output: councilTaskSummarySchema,
  },
  /** Every council task, newest first, with its proposals in brief; and how many wait for the researcher. */
  'council:list': {
    input: z.strictObject({}),
    output: z.strictObject({ tasks: z.array(councilTaskSummarySchema), waiting: count }),
  },
  /** One task with its proposals in full, its weights before and after, its episode and figures. */
  'council:get': { input: z.strictObject({ id: councilTaskIdSchema }), output: councilTaskSchema },
  /** The proposals waiting for the researcher (the inbox), oldest first. */
  'council:approvals': {
    input: z.strictObject({}),
    output: z.strictObject({ proposals: z.array(councilProposalSchema) }),
  },
  /** What a proposal not yet executed would do to every file, before and after; writes nothing. */
  'council:preview': { input: z.strictObject({ id: proposalIdSchema }), output: councilPreviewSchema },
  /** The researcher approves a waiting proposal: the task goes on (executes it) in the background. */
  'council:approve': { input: decisionInput, output: councilProposalSchema },
  /** The researcher rejects a waiting proposal: the task goes on to its next proposal in the background. */
  'council:reject': { input: decisionInput, output: councilProposalSchema },
  /** Undoes an executed proposal byte for byte, in one step (an edit made since is kept; see conflicts). */
  'council:revert': {
    input: decisionInput,
    output: z.strictObject({
      proposal: councilProposalSchema,
      changes: z.array(fileChangeSchema),
      conflicts: z.array(z.string()),
    }),
  },
  /** Continues a task that stopped without its end (the app closed, the process died). */
  'council:resume': { input: z.strictObject({ id: councilTaskIdSchema }), output: councilTaskSummarySchema },
  /** The agents' value weights now, their history and the chart's points. */
  'council:weights': { input: z.strictObject({}), output: councilWeightsSchema },
  /** The figures of every task over time, from their run logs (observational: never shown to the agents). */
  'council:figures': { input: z.strictObject({}), output: councilFiguresSchema },
} as const;

export const councilPushEvents = {
  /**
   * A council proposal moved: a new version, a vote, a decision, an execution, a check, a revert.
   * `waiting` is how many proposals wait for the researcher now (the inbox's badge). The same
   * proposal may be pushed twice with the same status (see `taskLive`).
   */
  'proposal:changed': z.strictObject({
    id: z.string(),
    taskId: z.string(),
    task: z.string(),
    status: proposalStatusSchema,
    stakes: stakesSchema,
    waitReason: z.enum(WAIT_REASONS).nullable(),
    waiting: count,
    /**
     * Its task is driven in this app now. When a drive stops (at the researcher, or at its end), the
     * proposals waiting for the researcher are pushed again with `false`: the task stands still.
     */
    taskLive: z.boolean(),
  }),
} as const;

/** The agents and values in their fixed order, for views that lay them out. */
export const COUNCIL_AGENT_NAMES = COUNCIL_AGENTS;
export const COUNCIL_VALUE_NAMES = BASE_VALUES;
