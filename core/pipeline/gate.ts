import type { EvaluationState } from '../evaluation/state';
import { step } from '../evaluation/step';
import type { Phase, Severity, Winner } from '../evaluation/vocabulary';

/**
 * The review gate and the red team's target, as pure rules over an evaluation's challenges and
 * scores (seed §13.3: a red team that is too harsh kills good ideas, so the researcher reviews
 * CRITICAL issues before they count).
 */

/** A CRITICAL challenge as the pipeline log and the review gate show it. */
export interface CriticalChallenge {
  id: string;
  round: number;
  criterion: string;
  persona: string;
  challenge: string;
  /** Who won the exchange; null when it was never ruled (the round was cut short). */
  winner: Winner | null;
}

/** The longest challenge text a log line keeps (the evaluation's record keeps it whole). */
const CHALLENGE_CHARS = 400;

interface ChallengeLike {
  id: string;
  round: number;
  severity: Severity;
  criterion: string;
  persona: string;
  challenge: string;
  ruling: { winner: Winner } | null;
}

/**
 * The CRITICAL challenges raised after round `afterRound`: a fresh evaluation's all (0), a
 * red-team round's own (a reopened evaluation carries the earlier rounds' challenges along, and
 * those were reviewed when that evaluation locked).
 */
export function criticalChallenges(challenges: readonly ChallengeLike[], afterRound: number): CriticalChallenge[] {
  return challenges
    .filter((c) => c.severity === 'CRITICAL' && c.round > afterRound)
    .map((c) => ({
      id: c.id,
      round: c.round,
      criterion: c.criterion,
      persona: c.persona,
      challenge: c.challenge.length > CHALLENGE_CHARS ? `${c.challenge.slice(0, CHALLENGE_CHARS - 1)}…` : c.challenge,
      winner: c.ruling?.winner ?? null,
    }));
}

/** CRITICAL challenges the evaluator did not win: what sends an idea back to evaluation. */
export function undefended(critical: readonly CriticalChallenge[]): CriticalChallenge[] {
  return critical.filter((c) => c.winner !== 'EVALUATOR');
}

/**
 * Whether the gate holds an evaluation now: it has reached its review (only the narrative, which
 * locks it, is left), CRITICAL challenges were raised, and the researcher has not approved it yet.
 */
export function gateHolds(phase: Phase, critical: readonly CriticalChallenge[], approved: boolean): boolean {
  return phase === 'REVIEWING' && critical.length > 0 && !approved;
}

/**
 * The CRITICAL challenges an evaluation would lock with if the limit met now (its budget, its time)
 * ended it — a limit locks at once, from the figures, with no step between for the gate to hold at
 * REVIEWING — or null when the gate lets it: approved, no CRITICAL challenge of its own rounds in
 * what would lock (a round cut before its first ruling leaves no trace), or a limit that fails it
 * rather than locking it (before every criterion had its first score).
 */
export function gateHoldsAtLimit(
  state: EvaluationState,
  limit: 'budget' | 'time',
  afterRound: number,
  approved: boolean,
): CriticalChallenge[] | null {
  if (approved || state.phase === 'LOCKED' || state.phase === 'FAILED') return null;
  // The limit's own transition, on a copy: what the lock would hold is the machine's to say.
  const locked = step(state, { kind: limit === 'budget' ? 'budget_exhausted' : 'timeout', at: state.clock }).state;
  if (locked.phase !== 'LOCKED') return null;
  const critical = criticalChallenges(locked.challenges, afterRound);
  return critical.length > 0 ? critical : null;
}

export interface ScoredCriterion {
  criterion: string;
  name: string;
  finalScore: number;
  confidence: number;
  critical: boolean;
}

/**
 * What the red team attacks (seed §11.1: "challenges highest-scored criteria"): the criterion with
 * the highest final score; on a tie a critical one first, then the least confident, then the
 * evaluation's order. Null for an evaluation without scores.
 */
export function redTeamTarget(scores: readonly ScoredCriterion[]): ScoredCriterion | null {
  let best: ScoredCriterion | null = null;
  for (const s of scores) {
    if (
      best === null ||
      s.finalScore > best.finalScore ||
      (s.finalScore === best.finalScore && s.critical && !best.critical) ||
      (s.finalScore === best.finalScore && s.critical === best.critical && s.confidence < best.confidence)
    )
      best = s;
  }
  return best;
}

/** The dispute reason the red-team round is opened with (the protocol wants at least 50 characters). */
export function redTeamReason(target: ScoredCriterion): string {
  return (
    `The pipeline's red team: "${target.name}" scored ${target.finalScore}/10, the highest of this ` +
    'evaluation, so it is challenged once more after the lock (seed §11.1: the red team attacks the ' +
    'highest-scored criteria).'
  );
}
