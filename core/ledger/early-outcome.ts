import type { Outcome } from './ledger-md';

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

/** The falsifier as the refusals name it: whose, what it measures and by when. */
export interface EarlyFalsifier {
  agentName: string;
  metric: string;
  threshold: string;
  deadline: string;
  deadlineDate: string | null;
}

/**
 * Why an outcome may not be recorded as given, or null when it may. The app's handler and the CLI
 * both go through this, so "survived a year early" is refused wherever it is written; `early` is
 * the caller's explicit "yes, ahead of the deadline" for an ambiguous or void outcome. A day after
 * `today` has not happened, whatever the outcome.
 */
export function earlyOutcomeRefusal(
  falsifier: EarlyFalsifier,
  outcome: Outcome,
  resolvedOn: string,
  today: string,
  early: boolean,
): string | null {
  const what = `${falsifier.agentName}'s falsifier (${falsifier.metric} ${falsifier.threshold} by ${falsifier.deadline})`;
  if (resolvedOn > today)
    return `${resolvedOn} has not come yet (today is ${today}): ${what} cannot have resolved on it`;
  const ahead = earlyOutcome(outcome, resolvedOn, falsifier.deadlineDate);
  if (ahead === 'refuse') {
    return `"survived" means the deadline passed without the threshold being crossed, but ${what} is due ${falsifier.deadlineDate}, after ${resolvedOn}: record it on or after ${falsifier.deadlineDate}, or as falsified if the threshold was crossed`;
  }
  if (ahead === 'ask' && !early) {
    return `${what} is due ${falsifier.deadlineDate}, after ${resolvedOn}: to record it as ${outcome} ahead of its deadline, say so (early: true; --early on the command line)`;
  }
  return null;
}
