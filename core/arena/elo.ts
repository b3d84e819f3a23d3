import type { Ballot } from './votes';

/** Every persona and idea starts here. */
export const ELO_START = 1500;

/** The chance the Elo model gives `r` of beating `opponent`. */
export function expectedScore(r: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - r) / 400));
}

/**
 * One completed arena as games: every pair of its contestants plays one game decided by the final
 * judge scores (a win is 1, a tie 0.5). All games use the ratings from before the arena, so the order
 * of the pairs does not matter, and each contestant's change is scaled by K / (N − 1) so an arena of
 * twelve moves a rating no more than an arena of two.
 */
export function eloAfter(
  contestants: readonly string[],
  scores: Readonly<Record<string, number>>,
  before: Readonly<Record<string, number>>,
  k: number,
): Record<string, number> {
  const n = contestants.length;
  const rating = (id: string) => before[id] ?? ELO_START;
  const after: Record<string, number> = {};
  for (const i of contestants) {
    let sum = 0;
    for (const j of contestants) {
      if (j === i) continue;
      const si = scores[i] ?? 0;
      const sj = scores[j] ?? 0;
      const s = si > sj ? 1 : si === sj ? 0.5 : 0;
      sum += s - expectedScore(rating(i), rating(j));
    }
    after[i] = n < 2 ? rating(i) : rating(i) + (k / (n - 1)) * sum;
  }
  return after;
}

/**
 * Vote calibration: each vote forecasts, with its confidence, that the proposal voted for ranks
 * first; its Brier score is (confidence − won)², 0 for a sure and right vote, 1 for a sure and wrong one.
 */
export function voteBrierScores(ballots: Readonly<Record<string, Ballot>>, winner: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(ballots).map(([agent, b]) => [agent, (b.confidence - (b.vote === winner ? 1 : 0)) ** 2]),
  );
}
