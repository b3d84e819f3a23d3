import { ELO_START, eloAfter, voteBrierScores } from './elo';
import { type ArenaState, agentIds, lastJudgment, lastVote } from './state';

/** One persona's standing, folded from every completed arena it took part in. */
export interface PersonaRating {
  id: string;
  elo: number;
  arenas: number;
  /** Arenas it ranked first in. */
  wins: number;
  /** Votes scored against the final ranking, and their mean Brier (null before the first). */
  votes: number;
  voteBrier: number | null;
}

export interface CompletedArena {
  id: string;
  /** When it completed (its last status record): the fold's order, ties by id. */
  completedAt: string;
  state: ArenaState;
}

/**
 * Ratings as a fold over completed arenas in order of completion: every arena's Elo uses the ratings
 * the fold has reached before it (not the snapshot its header took when it started), so the table
 * depends only on the logs. The caller passes completed arenas only; cancelled, failed and partial
 * ones never reach here.
 */
export function foldRatings(arenas: readonly CompletedArena[]): PersonaRating[] {
  const ordered = [...arenas].sort((a, b) => a.completedAt.localeCompare(b.completedAt) || a.id.localeCompare(b.id));
  const elo = new Map<string, number>();
  const played = new Map<string, { arenas: number; wins: number; brier: number[] }>();
  const entry = (id: string) => {
    let p = played.get(id);
    if (!p) {
      p = { arenas: 0, wins: 0, brier: [] };
      played.set(id, p);
    }
    return p;
  };
  for (const { state } of ordered) {
    const judgment = lastJudgment(state);
    const vote = lastVote(state);
    if (state.outcome === null || !judgment) continue;
    const ids = agentIds(state);
    const before = Object.fromEntries(ids.map((id) => [id, elo.get(id) ?? ELO_START]));
    const scores = Object.fromEntries(ids.map((id) => [id, judgment.scores[id]?.overall ?? 0]));
    const after = eloAfter(ids, scores, before, state.config.eloK);
    const winner = judgment.ranking[0] ?? '';
    const brier = vote ? voteBrierScores(vote.ballots, winner) : {};
    for (const id of ids) {
      elo.set(id, after[id] ?? ELO_START);
      const p = entry(id);
      p.arenas++;
      if (id === winner) p.wins++;
      if (brier[id] !== undefined) p.brier.push(brier[id]);
    }
  }
  return [...played.entries()]
    .map(([id, p]) => ({
      id,
      elo: elo.get(id) ?? ELO_START,
      arenas: p.arenas,
      wins: p.wins,
      votes: p.brier.length,
      voteBrier: p.brier.length ? p.brier.reduce((s, x) => s + x, 0) / p.brier.length : null,
    }))
    .sort((a, b) => b.elo - a.elo || a.id.localeCompare(b.id));
}
