import type { Phase } from './vocabulary';
import { PHASES } from './vocabulary';

/**
 * The phase machine of the design page: PENDING → EVALUATING → DEBATING ⇄ SYNTHESIZING → REVIEWING
 * → LOCKED, any live phase → FAILED, FAILED → PENDING (a retry). LOCKED is terminal. Appendix G of
 * the seed also lets DEBATING fall back to EVALUATING and REVIEWING to DEBATING; the design page
 * does not, so neither does this table (a dispute reopens a *new* evaluation instead). A round cut
 * short while debating still passes through SYNTHESIZING on its way to REVIEWING.
 */
export const TRANSITIONS: Readonly<Record<Phase, readonly Phase[]>> = {
  PENDING: ['EVALUATING', 'FAILED'],
  EVALUATING: ['DEBATING', 'FAILED'],
  DEBATING: ['SYNTHESIZING', 'FAILED'],
  SYNTHESIZING: ['DEBATING', 'REVIEWING', 'FAILED'],
  REVIEWING: ['LOCKED', 'FAILED'],
  LOCKED: [],
  FAILED: ['PENDING'],
};

/** A phase change the machine does not allow; the message names both phases and the way out. */
export class InvalidTransitionError extends Error {
  readonly from: Phase;
  readonly to: Phase;

  constructor(from: Phase, to: Phase) {
    const allowed = TRANSITIONS[from];
    super(
      `invalid phase transition ${from} → ${to}: ${
        allowed.length === 0 ? `${from} is terminal` : `${from} may only go to ${allowed.join(', ')}`
      }`,
    );
    this.name = 'InvalidTransitionError';
    this.from = from;
    this.to = to;
  }
}

export function canTransition(from: Phase, to: Phase): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Returns `to` when the move is allowed; throws InvalidTransitionError otherwise. */
export function transition(from: Phase, to: Phase): Phase {
  if (!canTransition(from, to)) throw new InvalidTransitionError(from, to);
  return to;
}

export function isPhase(value: unknown): value is Phase {
  return typeof value === 'string' && (PHASES as readonly string[]).includes(value);
}
