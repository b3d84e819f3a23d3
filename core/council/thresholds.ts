import { approves } from './answers';
import type { Version } from './state';

/** Approvals of a round: the author's own vote, plus every approve or approve_with_concerns. */
export function approvalsOf(v: Version): number {
  return 1 + Object.values(v.reviews).filter((r) => r && approves(r.decision)).length;
}

/**
 * The stakes' threshold: low stakes pass with 2 of 3 approvals, medium and high need all 3 (high
 * then still goes to the researcher).
 */
export function consensusReached(v: Version): boolean {
  return approvalsOf(v) >= (v.stakes === 'low' ? 2 : 3);
}
