import { movesInRound } from './figures';
import type { EvaluationState } from './state';

// "Prediction: about N more rounds" (seed 12A.10) while an evaluation runs: each convergence
// condition still unmet after the last finished round is projected forward on its own trend, and the
// slowest one decides, within the rounds the limit still allows. It reads the state only.

export type Condition = 'stability' | 'confidence' | 'resolution' | 'saturation';

export interface ConditionNeed {
  condition: Condition;
  /** Rounds it needs by its trend; null: its trend never meets it (only the limit ends it). */
  rounds: number | null;
  reason: string;
}

export interface RoundsPrediction {
  /** Rounds still to run, the one in progress included. */
  more: number;
  /** The limit ends it before (or instead of) convergence. */
  atLimit: boolean;
  /** Rounds the limit still allows, the one in progress included. */
  left: number;
  /** Every unmet condition, slowest first. */
  needs: ConditionNeed[];
}

const RUNNING = ['EVALUATING', 'DEBATING', 'SYNTHESIZING'];
const two = (n: number) => String(Math.round(n * 100) / 100);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Consecutive rounds, counting back from `round`, in which nothing moved more than the limit. */
function stableRun(state: EvaluationState, round: number): number {
  const ids = state.criteria.map((c) => c.id);
  const { maxDelta, aggregateDelta } = state.config.stability;
  let run = 0;
  for (let r = round; r >= 1; r--) {
    const moves = Object.values(movesInRound(state.snapshots, r, ids));
    const sum = moves.reduce((a, b) => a + b, 0);
    if (moves.some((m) => m > maxDelta) || (r === round && sum > aggregateDelta)) break;
    run++;
  }
  return run;
}

/** How far the least confident criterion is below what it needs (0 when none is). */
function shortfall(below: readonly { confidence: number; required: number }[]): number {
  return below.reduce((worst, b) => Math.max(worst, b.required - b.confidence), 0);
}

/**
 * The rounds an evaluation that still runs will likely take, from the trend of its convergence
 * checks; null before it runs its rounds or once the lock is decided.
 */
export function predictRounds(state: EvaluationState): RoundsPrediction | null {
  if (!RUNNING.includes(state.phase)) return null;
  const reports = state.convergence;
  const last = reports[reports.length - 1];
  const previous = reports[reports.length - 2];
  const done = last?.round ?? 0;
  const left = Math.max(0, state.roundLimit - done);
  if (left === 0) return null;
  const needs: ConditionNeed[] = [];
  const needed = state.config.stability.rounds;

  if (!last) {
    needs.push({
      condition: 'stability',
      rounds: needed,
      reason: `stability needs ${plural(needed, 'stable round')} in a row and none has finished`,
    });
  } else {
    const { stability, confidence, resolution, saturation } = last.conditions;
    if (!stability.met) {
      const run = stableRun(state, done);
      const rounds = Math.max(1, needed - run);
      needs.push({
        condition: 'stability',
        rounds,
        reason:
          run === 0
            ? `scores still moved in round ${done}: stability needs ${plural(needed, 'stable round')} in a row`
            : `${plural(run, 'stable round')} of the ${needed} stability needs`,
      });
    }
    if (!confidence.met) {
      const gap = shortfall(confidence.below);
      const before = previous ? shortfall(previous.conditions.confidence.below) : null;
      const rise = before === null ? null : before - gap;
      needs.push(
        rise === null
          ? { condition: 'confidence', rounds: 1, reason: `confidence is ${two(gap)} short; no trend yet` }
          : rise > 0
            ? {
                condition: 'confidence',
                rounds: Math.ceil(gap / rise - 1e-9),
                reason: `confidence is ${two(gap)} short and closing ${two(rise)} a round`,
              }
            : { condition: 'confidence', rounds: null, reason: `confidence is ${two(gap)} short and not rising` },
      );
    }
    if (!resolution.met) {
      if (resolution.critical.unresolved.length > 0) {
        // A ruled challenge never changes again: an unresolved CRITICAL one stays unresolved.
        needs.push({
          condition: 'resolution',
          rounds: null,
          reason: `CRITICAL challenge ${resolution.critical.unresolved.join(', ')} is unresolved, and stays so`,
        });
      } else {
        const { resolved, total, required } = resolution.major;
        // Resolving x more of x more raised: (resolved + x) / (total + x) reaches the share required.
        const missing = required >= 1 ? Number.POSITIVE_INFINITY : Math.ceil((required * total - resolved) / (1 - required) - 1e-9);
        const lastRound = state.challenges.filter(
          (c) => c.round === done && c.severity === 'MAJOR' && c.ruling !== null && c.resolved,
        ).length;
        needs.push(
          lastRound > 0 && Number.isFinite(missing)
            ? {
                condition: 'resolution',
                rounds: Math.ceil(missing / lastRound),
                reason: `${missing} more MAJOR challenge(s) must be resolved; ${lastRound} were in round ${done}`,
              }
            : {
                condition: 'resolution',
                rounds: null,
                reason: Number.isFinite(missing)
                  ? `${missing} more MAJOR challenge(s) must be resolved and none was in round ${done}`
                  : 'every MAJOR challenge must be resolved, and one is not',
              },
        );
      }
    }
    if (!saturation.met) {
      const now = saturation.newInsights;
      const excess = now - saturation.minNewInsights + 1;
      const before = previous?.conditions.saturation.newInsights ?? null;
      const drop = before === null ? null : before - now;
      needs.push(
        drop === null
          ? { condition: 'saturation', rounds: 1, reason: `${plural(now, 'new insight')} in round ${done}; no trend yet` }
          : drop > 0
            ? {
                condition: 'saturation',
                rounds: Math.ceil(excess / drop),
                reason: `${plural(now, 'new insight')} in round ${done}, ${drop} fewer a round`,
              }
            : {
                condition: 'saturation',
                rounds: null,
                reason: `${plural(now, 'new insight')} in round ${done}, not falling`,
              },
      );
    }
  }

  needs.sort((a, b) => (b.rounds ?? Number.POSITIVE_INFINITY) - (a.rounds ?? Number.POSITIVE_INFINITY));
  const slowest = needs[0]?.rounds;
  const atLimit = slowest === null || (slowest ?? 1) > left;
  return { more: atLimit ? left : Math.max(1, slowest ?? 1), atLimit, left, needs };
}

/** The prediction in one line, as the views and the CLI show it. */
export function predictionText(p: RoundsPrediction): string {
  const rounds = plural(p.more, 'more round');
  const why = p.needs[0]?.reason;
  return p.atLimit
    ? `about ${rounds}, to the round limit${why ? ` (${why})` : ''}`
    : `about ${rounds} to convergence${why ? ` (${why})` : ''}`;
}
