import { z } from 'zod';
import type { Stakes } from './actions';
import type { EpisodeOutput, OutcomeOutput, ProposalOutput, ReviewOutput } from './answers';
import { type Flag, historyEntrySchema } from './flags';
import type { Tiebreak } from './tiebreak';
import { type CouncilAgent, type Weights, weightOverridesSchema, weightsWith } from './values';
import type { AppliedAdjustment, RefusedAdjustment } from './weights';

/** What starts a council task: the task, the idea it is about, limits, and (in a replay) weights and history. */
export const councilConfigSchema = z.strictObject({
  /** Voting rounds on the task after which the researcher decides. */
  maxRounds: z.number().int().min(1).max(1000).default(10),
  /** Model calls on the task after which the researcher decides. */
  maxCalls: z.number().int().min(1).max(10_000).default(50),
  /** Discussion rounds (ladder level 1) before the integrator's compromise. */
  discussionRounds: z.number().int().min(0).max(3).default(3),
});
export type CouncilConfig = z.infer<typeof councilConfigSchema>;

export const councilHeaderSchema = z.strictObject({
  task: z.string().trim().min(1),
  idea: z
    .string()
    .regex(/^[^/\\._][^/\\]*$/, 'must be an idea folder name')
    .nullable()
    .default(null),
  config: councilConfigSchema.default(councilConfigSchema.parse({})),
  /** Laid over the starting weights (a live task reads them from `council/values/weights.json`). */
  weights: weightOverridesSchema.optional(),
  /** Earlier proposals' tools, targets and outcomes (the last episodes'), for REPEATS_FAILED. */
  history: z.array(historyEntrySchema).default([]),
  /** Past episodes and the researcher's precedents, as lines every brief of the task carries. */
  memory: z.array(z.string()).default([]),
});
export type CouncilHeader = z.infer<typeof councilHeaderSchema>;

export type VersionKind = 'proposal' | 'revision' | 'compromise';

/** One version of a proposal and the round of votes on it. */
export interface Version {
  n: number;
  kind: VersionKind;
  author: CouncilAgent;
  output: ProposalOutput;
  stakes: Stakes;
  /** Computed before any review. */
  flags: Flag[];
  /** Who reviews it, in order (the author's own vote is an approval). */
  reviewers: CouncilAgent[];
  reviews: Partial<Record<CouncilAgent, ReviewOutput>>;
}

/** Why a proposal waits for the researcher. */
export type WaitReason = 'stakes' | 'flags' | 'ladder' | 'tie' | 'limit';

/** The one thing a proposal waits for next, or null once it has settled. */
export type Awaiting =
  | { kind: 'review'; agent: CouncilAgent }
  | { kind: 'revision' }
  | { kind: 'compromise' }
  | { kind: 'researcher'; reason: WaitReason }
  | { kind: 'execute'; action: number }
  | { kind: 'check' }
  | { kind: 'outcome' };

export type ProposalStatus =
  | 'PROPOSED'
  | 'VERIFYING'
  | 'INTEGRATING'
  | 'AWAITING_RESEARCHER'
  | 'EXECUTING'
  | 'CHECKING'
  | 'RECORDED'
  | 'REJECTED'
  | 'FAILED'
  | 'REVERTED';

/** What one file operation of an executed action did. */
export interface FileChange {
  path: string;
  change: 'created' | 'modified' | 'deleted' | 'moved' | 'read';
  /** Set when the file had changed meanwhile: our version went to this conflict copy instead. */
  conflictCopy?: string;
  /** For a move, where the file went. */
  to?: string;
}

export interface ActionResult {
  action: number;
  ok: boolean;
  detail: string;
  changes: FileChange[];
}

export interface Postcondition {
  action: number;
  holds: boolean;
  detail: string;
}

export interface ProposalState {
  id: string;
  status: ProposalStatus;
  versions: Version[];
  /** Highest ladder level reached: 0 consensus at once, 1 discussion, 2 compromise, 3 tiebreak, 4 researcher. */
  ladder: 0 | 1 | 2 | 3 | 4;
  revisions: number;
  tiebreak: Tiebreak | null;
  decision: 'approved' | 'rejected' | 'awaiting_researcher' | null;
  decidedBy: 'consensus' | 'tiebreak' | 'researcher' | null;
  researcherNote: string | null;
  awaiting: Awaiting | null;
  results: ActionResult[];
  postconditions: Postcondition[] | null;
  outcome: OutcomeOutput | null;
  executed: boolean;
  checked: boolean;
}

export interface CouncilState {
  header: CouncilHeader;
  weightsBefore: Weights;
  weights: Weights;
  proposals: ProposalState[];
  /** What the task is doing: asking for a proposal, taking one through its lifecycle, recording the episode. */
  phase: 'proposing' | 'deliberating' | 'recording' | 'done';
  calls: number;
  rounds: number;
  /** Set when a limit (rounds, calls) ended the deliberation. */
  limit: string | null;
  /** Set when the run was stopped from outside (budget, time, a cancel). */
  stopped: string | null;
  episode: EpisodeOutput | null;
  applied: AppliedAdjustment[];
  refused: RefusedAdjustment[];
}

export function initCouncil(header: CouncilHeader, weights?: Weights): CouncilState {
  const start = weights ?? weightsWith(header.weights ?? {});
  return {
    header,
    weightsBefore: start,
    weights: start,
    proposals: [],
    phase: 'proposing',
    calls: 0,
    rounds: 0,
    limit: null,
    stopped: null,
    episode: null,
    applied: [],
    refused: [],
  };
}

export function currentProposal(state: CouncilState): ProposalState | null {
  return state.phase === 'deliberating' ? (state.proposals[state.proposals.length - 1] ?? null) : null;
}

export function lastVersion(p: ProposalState): Version {
  const v = p.versions[p.versions.length - 1];
  if (!v) throw new Error(`proposal ${p.id} has no version`);
  return v;
}
