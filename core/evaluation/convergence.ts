import { movesInRound } from './figures';
import type { EvaluationState } from './state';

// The convergence check after each round (design page step 4, seed 12A.4). Every condition is
// reported, met or not, with the numbers behind it, so a reader sees exactly what held the
// evaluation open.

export interface RoundMoves {
  round: number;
  maxMove: number;
  sumOfMoves: number;
  /** Criteria whose score changed, with the change. */
  moved: { criterion: string; from: number; to: number }[];
}

export interface StabilityCondition {
  met: boolean;
  maxDelta: number;
  aggregateDelta: number;
  /** Consecutive stable rounds required. */
  roundsNeeded: number;
  /** The last rounds examined, newest first. */
  rounds: RoundMoves[];
}

export interface ConfidenceCondition {
  met: boolean;
  minimum: number;
  criticalMinimum: number;
  lowest: number | null;
  below: { criterion: string; confidence: number; required: number }[];
}

export interface ResolutionCondition {
  met: boolean;
  critical: { resolved: number; total: number; unresolved: string[] };
  major: { resolved: number; total: number; share: number | null; required: number };
}

export interface SaturationCondition {
  /** Saturated, or the round limit reached. */
  met: boolean;
  saturated: boolean;
  newInsights: number;
  minNewInsights: number;
  repeats: number;
  raised: number;
  /** repeats ÷ raised; null when nothing was raised (which counts as saturated). */
  repeatShare: number | null;
  maxRepeatShare: number;
  roundLimitReached: boolean;
}

export interface ConvergenceReport {
  round: number;
  roundLimit: number;
  converged: boolean;
  /** LOCK at convergence or at the round limit; CONTINUE otherwise. */
  decision: 'LOCK' | 'CONTINUE';
  lockReason: 'CONVERGENCE' | 'MAX_ROUNDS' | null;
  conditions: {
    stability: StabilityCondition;
    confidence: ConfidenceCondition;
    resolution: ResolutionCondition;
    saturation: SaturationCondition;
  };
  /** One sentence per unmet condition part, in the order above. */
  blockers: string[];
}

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);
const pct = (n: number): string => `${Math.round(n * 1000) / 10}%`;

function stability(state: EvaluationState, round: number, blockers: string[]): StabilityCondition {
  const { maxDelta, aggregateDelta, rounds: needed } = state.config.stability;
  const ids = state.criteria.map((c) => c.id);
  const rounds: RoundMoves[] = [];
  for (let r = round; r >= 1 && rounds.length < needed; r--) {
    const moves = movesInRound(state.snapshots, r, ids);
    const before = state.snapshots[r - 1] ?? {};
    const now = state.snapshots[r] ?? {};
    rounds.push({
      round: r,
      maxMove: Math.max(0, ...ids.map((id) => moves[id] ?? 0)),
      sumOfMoves: ids.reduce((sum, id) => sum + (moves[id] ?? 0), 0),
      moved: ids
        .filter((id) => (moves[id] ?? 0) > 0)
        .map((id) => ({ criterion: id, from: before[id] ?? 0, to: now[id] ?? 0 })),
    });
  }
  let met = true;
  if (rounds.length < needed) {
    met = false;
    blockers.push(`stability: ${round} round${round === 1 ? '' : 's'} run, stability needs ${needed} in a row`);
  }
  for (const r of rounds) {
    for (const m of r.moved) {
      if (Math.abs(m.to - m.from) > maxDelta) {
        met = false;
        blockers.push(
          `stability: ${m.criterion} moved ${fmt(Math.abs(m.to - m.from))} in round ${r.round} (limit ${fmt(maxDelta)})`,
        );
      }
    }
  }
  const last = rounds[0];
  if (last && last.sumOfMoves > aggregateDelta) {
    met = false;
    blockers.push(
      `stability: moves in round ${last.round} add up to ${fmt(last.sumOfMoves)} (limit ${fmt(aggregateDelta)})`,
    );
  }
  return { met, maxDelta, aggregateDelta, roundsNeeded: needed, rounds };
}

function confidence(state: EvaluationState, blockers: string[]): ConfidenceCondition {
  const { minimum, criticalMinimum } = state.config.confidence;
  const below: ConfidenceCondition['below'] = [];
  let lowest: number | null = null;
  for (const c of state.criteria) {
    const value = state.scores[c.id]?.confidence ?? 0;
    lowest = lowest === null ? value : Math.min(lowest, value);
    const required = c.critical ? criticalMinimum : minimum;
    if (value < required) {
      below.push({ criterion: c.id, confidence: value, required });
      blockers.push(
        `confidence: ${c.id} is at ${fmt(value)}${c.critical ? ' (critical)' : ''}, needs ${fmt(required)}`,
      );
    }
  }
  return { met: below.length === 0, minimum, criticalMinimum, lowest, below };
}

function resolution(state: EvaluationState, blockers: string[]): ResolutionCondition {
  const ruled = state.challenges.filter((c) => c.ruling !== null);
  const critical = ruled.filter((c) => c.severity === 'CRITICAL');
  const major = ruled.filter((c) => c.severity === 'MAJOR');
  const unresolved = critical.filter((c) => !c.resolved).map((c) => c.id);
  const majorResolved = major.filter((c) => c.resolved).length;
  const share = major.length === 0 ? null : majorResolved / major.length;
  const required = state.config.majorResolvedShare;
  for (const id of unresolved) {
    const c = critical.find((x) => x.id === id);
    blockers.push(`resolution: CRITICAL challenge ${id} on ${c?.criterion ?? '?'} is unresolved`);
  }
  const majorMet = share === null || share >= required;
  if (!majorMet) {
    blockers.push(
      `resolution: ${majorResolved} of ${major.length} MAJOR challenges resolved (${pct(share ?? 0)}, needs ${pct(required)})`,
    );
  }
  return {
    met: unresolved.length === 0 && majorMet,
    critical: { resolved: critical.length - unresolved.length, total: critical.length, unresolved },
    major: { resolved: majorResolved, total: major.length, share, required },
  };
}

function saturation(state: EvaluationState, round: number, blockers: string[]): SaturationCondition {
  const { minNewInsights, repeatShare: maxRepeatShare } = state.config.saturation;
  const record = state.rounds.find((r) => r.round === round && r.status !== 'open');
  const newInsights = record?.newInsights.length ?? 0;
  const raised = record?.raised ?? 0;
  const repeats = record?.dropped.filter((d) => d.reason === 'repeat').length ?? 0;
  const repeatShare = raised === 0 ? null : repeats / raised;
  const saturated = newInsights < minNewInsights || repeatShare === null || repeatShare > maxRepeatShare;
  const roundLimitReached = round >= state.roundLimit;
  if (!saturated && !roundLimitReached) {
    blockers.push(
      `saturation: ${newInsights} new insights (saturated below ${minNewInsights}) and ${repeats} of ${raised} raised challenges were repeats (saturated above ${pct(maxRepeatShare)}), round ${round} of ${state.roundLimit}`,
    );
  }
  return {
    met: saturated || roundLimitReached,
    saturated,
    newInsights,
    minNewInsights,
    repeats,
    raised,
    repeatShare,
    maxRepeatShare,
    roundLimitReached,
  };
}

/** Measures the evaluation after its last finished round against all four conditions. */
export function checkConvergence(state: EvaluationState): ConvergenceReport {
  const round = Math.max(0, state.snapshots.length - 1);
  const blockers: string[] = [];
  const conditions = {
    stability: stability(state, round, blockers),
    confidence: confidence(state, blockers),
    resolution: resolution(state, blockers),
    saturation: saturation(state, round, blockers),
  };
  const converged =
    conditions.stability.met && conditions.confidence.met && conditions.resolution.met && conditions.saturation.met;
  const limit = conditions.saturation.roundLimitReached;
  return {
    round,
    roundLimit: state.roundLimit,
    converged,
    decision: converged || limit ? 'LOCK' : 'CONTINUE',
    lockReason: converged ? 'CONVERGENCE' : limit ? 'MAX_ROUNDS' : null,
    conditions,
    blockers,
  };
}
