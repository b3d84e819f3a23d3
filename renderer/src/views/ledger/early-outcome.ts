import type { FALSIFIER_OUTCOMES } from '../../../../core/contract';

type Outcome = (typeof FALSIFIER_OUTCOMES)[number];

/**
 * What recording `outcome` on `resolvedOn` before the falsifier's deadline means. "Survived" says
 * the deadline passed without the threshold being crossed, so before the deadline it cannot be
 * true: refused. "Ambiguous" or "void" ahead of it may be right (the question fell away) but often
 * is a slip: asked. "Falsified" can happen any day the threshold is crossed. Undated falsifiers
 * (no readable deadline) are never held back. Days are YYYY-MM-DD, so they compare as strings.
 */
export function earlyOutcome(
  outcome: Outcome,
  resolvedOn: string,
  deadlineDate: string | null,
): 'refuse' | 'ask' | null {
  if (deadlineDate === null || resolvedOn >= deadlineDate || outcome === 'falsified') return null;
  return outcome === 'survived' ? 'refuse' : 'ask';
}
