// The sentences of a finished evaluation's outcome card, kept apart from the card so they can be
// read and tested as words.

export interface ScoredCriterion {
  id: string;
  name: string;
  score: number | null;
}

/**
 * The `n` highest and `n` lowest scored criteria (ties by name, so the same scores always give the
 * same lists); never the same criterion in both, so a short list is split between them.
 */
export function strongestAndWeakest<C extends ScoredCriterion>(
  criteria: readonly C[],
  n = 3,
): { strongest: C[]; weakest: C[] } {
  const scored = criteria
    .filter((c): c is C & { score: number } => c.score !== null)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  const take = Math.min(n, Math.floor(scored.length / 2));
  return { strongest: scored.slice(0, take), weakest: scored.slice(scored.length - take).reverse() };
}

/** Whether to trust the lock, in a sentence: only converged scores are settled. */
export function lockSentence(reason: string | null, converged: boolean | null): string {
  switch (reason) {
    case 'CONVERGENCE':
      return 'Its scores converged: every condition held before it locked.';
    case 'MAX_ROUNDS':
      return 'It locked at its round limit before its scores converged: read them as provisional.';
    case 'BUDGET':
      return 'It locked when its budget was spent, before its scores converged: read them as provisional.';
    case 'TIMEOUT':
      return 'It locked at its time limit, before its scores converged: read them as provisional.';
    case 'USER_APPROVED':
      return converged
        ? 'You locked it by hand; its scores had converged.'
        : 'You locked it by hand before its scores converged: read them as provisional.';
    default:
      return 'Why it locked was not recorded.';
  }
}

/** What an evaluation confidence means against its threshold, in words. */
export function confidenceSentence(confidence: number | null, minimum: number): string {
  if (confidence === null) return 'No confidence was measured.';
  const at = confidence.toFixed(2);
  return confidence >= minimum
    ? `${at} of 1, at or above the ${minimum.toFixed(2)} an evaluation needs for its scores to count as settled.`
    : `${at} of 1, below the ${minimum.toFixed(2)} an evaluation needs for its scores to count as settled.`;
}
