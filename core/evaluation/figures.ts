import type { CategoryInfo } from './state';

// The protocol's numbers as pure functions of plain values (seed appendix C, the design page). They
// return unrounded numbers; only the final document rounds.

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Category score = the mean of its criteria's scores. */
export function categoryScores(
  scores: Readonly<Record<string, number>>,
  categories: readonly CategoryInfo[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const category of categories) {
    out[category.id] = mean(category.criteria.map((id) => scores[id] ?? 0));
  }
  return out;
}

/** Overall score = Σ category score × category weight. */
export function overallScore(scores: Readonly<Record<string, number>>, categories: readonly CategoryInfo[]): number {
  const byCategory = categoryScores(scores, categories);
  return categories.reduce((sum, c) => sum + (byCategory[c.id] ?? 0) * c.weight, 0);
}

/** (max − min) / 10 of the overall score over the last `window` points (round 0 included). */
export function volatility(overallByRound: readonly number[], window = 3): number {
  const recent = overallByRound.slice(-window);
  if (recent.length === 0) return 0;
  return (Math.max(...recent) - Math.min(...recent)) / 10;
}

/** Answered ÷ asked development questions; 0 when none were asked. */
export function informationCompleteness(information: { asked: number; answered: number }): number {
  return information.asked === 0 ? 0 : information.answered / information.asked;
}

export interface ConfidenceParts {
  /** Challenges the evaluator won. */
  defended: number;
  /** Challenges that reached a ruling. */
  challenges: number;
  firstPrinciplesBonuses: number;
  /** Exchanges that reached a ruling (the same count as `challenges`: one exchange per challenge). */
  exchanges: number;
  volatility: number;
  completeness: number;
}

/** A share that is 0 when there is nothing to share: no challenge means no evidence of survival. */
export function ratioOrZero(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

/**
 * confidence = 0.4·defended/challenges + 0.2·bonuses/exchanges + 0.2·(1 − volatility)
 *            + 0.2·completeness
 */
export function evaluationConfidence(parts: ConfidenceParts): number {
  return (
    0.4 * ratioOrZero(parts.defended, parts.challenges) +
    0.2 * ratioOrZero(parts.firstPrinciplesBonuses, parts.exchanges) +
    0.2 * (1 - parts.volatility) +
    0.2 * parts.completeness
  );
}

/** Challenges the evaluator won ÷ all challenges; null when nothing was challenged. */
export function survivalRate(won: number, total: number): number | null {
  return total === 0 ? null : won / total;
}

/** |score(r) − score(r−1)| per criterion for round r ≥ 1 of the snapshots. */
export function movesInRound(
  snapshots: readonly Readonly<Record<string, number>>[],
  round: number,
  criteria: readonly string[],
): Record<string, number> {
  const now = snapshots[round];
  const before = snapshots[round - 1];
  const out: Record<string, number> = {};
  for (const id of criteria) out[id] = now && before ? Math.abs((now[id] ?? 0) - (before[id] ?? 0)) : 0;
  return out;
}

/**
 * Stability index: the share of criteria that held still — moved at most `maxDelta` — in each of
 * the last `rounds` rounds (fewer when fewer were run; 1 when none were). 1 means nothing is
 * moving any more; 0.8 means one criterion in five still moved recently.
 */
export function stabilityIndex(
  snapshots: readonly Readonly<Record<string, number>>[],
  criteria: readonly string[],
  maxDelta: number,
  rounds = 2,
): number {
  const last = snapshots.length - 1;
  const considered: number[] = [];
  for (let r = last; r >= 1 && considered.length < rounds; r--) considered.push(r);
  if (considered.length === 0 || criteria.length === 0) return 1;
  const moves = considered.map((r) => movesInRound(snapshots, r, criteria));
  const still = criteria.filter((id) => moves.every((m) => (m[id] ?? 0) <= maxDelta));
  return still.length / criteria.length;
}
