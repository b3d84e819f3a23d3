import type { Stakes } from './actions';
import { hadDissent } from './lifecycle';
import { statusOf } from './result';
import { spread } from './weights';
import type { CouncilState, ProposalState } from './state';
import { BASE_VALUES, type CouncilValue, round } from './values';

/**
 * The council's figures (COUNCIL-PROTOCOL.md, "Figures"): observational, never shown to the agents.
 * Each task's are a fold of its log (its state, and the calls and cost the runner metered); over
 * time they are the tasks in the order they started, with a day-by-day summary and the whole.
 */
export interface TaskFigures {
  taskId: string;
  /** When the task started (its log's first record) and when its log last moved. */
  startedAt: string;
  updatedAt: string;
  task: string;
  idea: string | null;
  status: ReturnType<typeof statusOf>;
  /** The task has recorded its episode (it waits for nobody). */
  done: boolean;
  /** `simple`: every proposal agreed at once (ladder 0); `complex`: some went up the ladder. */
  complexity: 'simple' | 'complex';
  proposals: number;
  /** Rounds (versions fully reviewed) per proposal, overall and by the proposal's stakes; null: none. */
  roundsPerProposal: number | null;
  roundsPerProposalByStakes: Record<Stakes, number | null>;
  /** Proposals with at least one concern or rejection, over proposals. */
  dissentRate: number | null;
  /** Proposals rejected in some round. */
  conflicts: number;
  /** …of which a later version (a revision or a compromise) was approved. */
  productiveConflicts: number;
  /** …over the proposals that met a rejection (null: none did). */
  productiveConflictRate: number | null;
  /** Episodes the task's briefs carried, and proposals citing at least one. */
  memory: { offered: number; citingProposals: number; rate: number | null };
  /** σ across the three agents of each value's weight after the task, and the smallest of them. */
  weightDiversity: Record<CouncilValue, number>;
  minWeightDiversity: number;
  calls: number;
  costUsd: number;
}

/** Where a figure should be (the seed's targets), for a view to draw the line. */
export const FIGURE_TARGETS = {
  roundsPerProposal: { low: 2, medium: 4 },
  dissentRate: { min: 0.15, max: 0.3 },
  costUsd: { simple: 0.1, complex: 0.5 },
  weightDiversityFloor: 0.15,
} as const;

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : round(xs.reduce((s, x) => s + x, 0) / xs.length, 4));
const share = (n: number, of: number) => (of === 0 ? null : round(n / of, 4));

/** A proposal's rounds: its versions whose reviews are all in. */
function roundsOf(p: ProposalState): number {
  return p.versions.filter((v) => v.reviewers.every((r) => v.reviews[r] !== undefined)).length;
}

function rejectedAt(p: ProposalState): number {
  return p.versions.findIndex((v) => Object.values(v.reviews).some((r) => r?.decision === 'reject'));
}

export function taskFigures(
  taskId: string,
  state: CouncilState,
  log: { startedAt: string; updatedAt: string; calls: number; costUsd: number },
): TaskFigures {
  const ps = state.proposals;
  const stakesOf = (p: ProposalState): Stakes => p.versions[p.versions.length - 1]?.stakes ?? 'low';
  const byStakes = (s: Stakes) => mean(ps.filter((p) => stakesOf(p) === s).map(roundsOf));
  const rejected = ps.filter((p) => rejectedAt(p) >= 0);
  const productive = rejected.filter((p) => p.decision === 'approved' && p.versions.length > rejectedAt(p) + 1);
  const citing = ps.filter((p) => p.versions.some((v) => (v.output.citesEpisodes ?? []).length > 0));
  const diversity = Object.fromEntries(BASE_VALUES.map((v) => [v, round(spread(state.weights, v), 4)])) as Record<
    CouncilValue,
    number
  >;
  return {
    taskId,
    startedAt: log.startedAt,
    updatedAt: log.updatedAt,
    task: state.header.task,
    idea: state.header.idea,
    status: statusOf(state),
    done: state.phase === 'done',
    complexity: ps.every((p) => p.ladder === 0) ? 'simple' : 'complex',
    proposals: ps.length,
    roundsPerProposal: mean(ps.map(roundsOf)),
    roundsPerProposalByStakes: { low: byStakes('low'), medium: byStakes('medium'), high: byStakes('high') },
    dissentRate: share(ps.filter(hadDissent).length, ps.length),
    conflicts: rejected.length,
    productiveConflicts: productive.length,
    productiveConflictRate: share(productive.length, rejected.length),
    memory: {
      offered: state.header.memory.length,
      citingProposals: citing.length,
      rate: share(citing.length, ps.length),
    },
    weightDiversity: diversity,
    minWeightDiversity: Math.min(...Object.values(diversity)),
    calls: log.calls,
    costUsd: round(log.costUsd, 6),
  };
}

/** A span of tasks summed up: per day, or the whole. */
export interface FiguresSummary {
  tasks: number;
  proposals: number;
  /** Means over the span's proposals (not over its tasks): a task of five proposals weighs five. */
  roundsPerProposal: number | null;
  dissentRate: number | null;
  productiveConflictRate: number | null;
  memoryUseRate: number | null;
  /** The smallest σ after the span's last task. */
  minWeightDiversity: number | null;
  calls: number;
  costUsd: number;
  callsPerTask: number | null;
  costPerTask: { simple: number | null; complex: number | null };
}

export interface CouncilFigures {
  tasks: TaskFigures[];
  byDay: ({ day: string } & FiguresSummary)[];
  overall: FiguresSummary;
  targets: typeof FIGURE_TARGETS;
}

function summary(tasks: readonly TaskFigures[]): FiguresSummary {
  const proposals = tasks.reduce((s, t) => s + t.proposals, 0);
  const weighted = (f: (t: TaskFigures) => number | null, of: (t: TaskFigures) => number) => {
    const counted = tasks.filter((t) => f(t) !== null);
    const n = counted.reduce((s, t) => s + of(t), 0);
    return n === 0 ? null : round(counted.reduce((s, t) => s + (f(t) as number) * of(t), 0) / n, 4);
  };
  const calls = tasks.reduce((s, t) => s + t.calls, 0);
  const cost = tasks.reduce((s, t) => s + t.costUsd, 0);
  const costOf = (c: TaskFigures['complexity']) => mean(tasks.filter((t) => t.complexity === c).map((t) => t.costUsd));
  return {
    tasks: tasks.length,
    proposals,
    roundsPerProposal: weighted(
      (t) => t.roundsPerProposal,
      (t) => t.proposals,
    ),
    dissentRate: weighted(
      (t) => t.dissentRate,
      (t) => t.proposals,
    ),
    productiveConflictRate: weighted(
      (t) => t.productiveConflictRate,
      (t) => t.conflicts,
    ),
    memoryUseRate: weighted(
      (t) => t.memory.rate,
      (t) => t.proposals,
    ),
    minWeightDiversity: tasks.length === 0 ? null : (tasks[tasks.length - 1] as TaskFigures).minWeightDiversity,
    calls,
    costUsd: round(cost, 6),
    callsPerTask: mean(tasks.map((t) => t.calls)),
    costPerTask: { simple: costOf('simple'), complex: costOf('complex') },
  };
}

/** Every task's figures in the order the tasks started, summed up per day (UTC) and as a whole. */
export function figuresOverTime(tasks: readonly TaskFigures[]): CouncilFigures {
  const sorted = [...tasks].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.taskId.localeCompare(b.taskId));
  const days = [...new Set(sorted.map((t) => t.startedAt.slice(0, 10)))];
  return {
    tasks: sorted,
    byDay: days.map((day) => ({ day, ...summary(sorted.filter((t) => t.startedAt.slice(0, 10) === day)) })),
    overall: summary(sorted),
    targets: FIGURE_TARGETS,
  };
}
