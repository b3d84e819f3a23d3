import { ELO_START } from './elo';
import type { PersonaRating } from './ratings';

/**
 * Team selection (`--agents auto --size N`, ARENA-PROTOCOL.md "Ratings"): the N − 1 debater personas
 * with the highest Elo (ties: the lower vote Brier, then id), plus the least-played debater persona,
 * so that new personas get rated.
 */

export interface TeamPick {
  /** The team, in the order picked: the N − 1 best-rated first, the least-played last. */
  agents: string[];
  /** Why each was picked, in words, for the researcher. */
  reasons: Record<string, string>;
}

interface Standing {
  id: string;
  elo: number;
  arenas: number;
  voteBrier: number | null;
}

/**
 * `debaters` are the ids of every debater persona; `ratings` the persona fold (a persona that never
 * played an arena is at 1500, with no Brier, 0 arenas). A persona with no vote scored yet ranks after
 * any with a Brier on an Elo tie: an unknown calibration is not a good one.
 */
export function selectTeam(debaters: readonly string[], ratings: readonly PersonaRating[], size: number): TeamPick {
  const unique = [...new Set(debaters)];
  if (!Number.isInteger(size) || size < 2 || size > 12)
    throw new RangeError(`--size must be a whole number from 2 to 12 (got ${size})`);
  if (size > unique.length)
    throw new RangeError(`--size ${size} asks for more debaters than the ${unique.length} there are`);
  const standing = (id: string): Standing => {
    const r = ratings.find((x) => x.id === id);
    return { id, elo: r?.elo ?? ELO_START, arenas: r?.arenas ?? 0, voteBrier: r?.voteBrier ?? null };
  };
  const all = unique.map(standing);
  const brier = (s: Standing) => s.voteBrier ?? Number.POSITIVE_INFINITY;
  const best = [...all]
    .sort((a, b) => b.elo - a.elo || brier(a) - brier(b) || a.id.localeCompare(b.id))
    .slice(0, size - 1);
  const rest = all.filter((s) => !best.some((b) => b.id === s.id));
  // The least-played of those left (ties by id): a persona with no arena yet comes first.
  const newcomer = [...rest].sort((a, b) => a.arenas - b.arenas || a.id.localeCompare(b.id))[0] as Standing;
  const reasons: Record<string, string> = {};
  best.forEach((s, i) => {
    reasons[s.id] =
      `rank ${i + 1} by Elo (${s.elo.toFixed(1)}${s.voteBrier === null ? '' : `, vote Brier ${s.voteBrier.toFixed(3)}`})`;
  });
  reasons[newcomer.id] = `the least-played of the others (${newcomer.arenas} arena${newcomer.arenas === 1 ? '' : 's'})`;
  return { agents: [...best.map((s) => s.id), newcomer.id], reasons };
}
