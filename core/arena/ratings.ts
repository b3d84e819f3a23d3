import { ELO_START, eloAfter, voteBrierScores } from './elo';
import { type ArenaState, activeIds, lastJudgment, lastVote } from './state';

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
 * ones never reach here. A tournament's arenas are left to `foldIdeaRatings`.
 */
const byCompletion = <T extends CompletedArena>(arenas: readonly T[]): T[] =>
  [...arenas].sort((a, b) => a.completedAt.localeCompare(b.completedAt) || a.id.localeCompare(b.id));

export function foldRatings(arenas: readonly CompletedArena[]): PersonaRating[] {
  const ordered = byCompletion(arenas);
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
    // A tournament's arena scores ideas, not the personas arguing them: it moves the ideas' table.
    if (state.outcome === null || !judgment || state.champions !== null) continue;
    const ids = activeIds(state);
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

/** One idea's standing, folded from the completed arenas of every tournament it took part in. */
export interface IdeaRating {
  /** The idea's slug. */
  id: string;
  elo: number;
  /** Head-to-head arenas it played, and how they went by the judge's final scores. */
  arenas: number;
  wins: number;
  draws: number;
  losses: number;
  /** The personas that championed it, in the order they first did. */
  champions: string[];
  /** The tournaments it played in. */
  tournaments: number;
}

/**
 * The ideas' Elo as a fold over the completed arenas of tournaments, in order of completion, exactly
 * as persona Elo is folded (ARENA-PROTOCOL.md: "the same Elo applies to ideas"): each arena's
 * contestants are the ideas its agents champion, its games are decided by the judge's final scores,
 * and it starts from the ratings the arenas before it left. Each arena names its tournament, to count
 * them. A tournament need not be complete for its completed arenas to count.
 */
export function foldIdeaRatings(arenas: readonly (CompletedArena & { tournament: string })[]): IdeaRating[] {
  const elo = new Map<string, number>();
  const played = new Map<
    string,
    { arenas: number; wins: number; draws: number; losses: number; champions: string[]; tournaments: Set<string> }
  >();
  for (const { state, tournament } of byCompletion(arenas)) {
    const judgment = lastJudgment(state);
    if (state.outcome === null || !judgment || state.champions === null) continue;
    const champions = state.champions;
    const agents = activeIds(state).filter((a) => champions[a] !== undefined);
    const ideas = agents.map((a) => champions[a] as string);
    const score = (a: string) => judgment.scores[a]?.overall ?? 0;
    const scores = Object.fromEntries(agents.map((a) => [champions[a] as string, score(a)]));
    const before = Object.fromEntries(ideas.map((i) => [i, elo.get(i) ?? ELO_START]));
    const after = eloAfter(ideas, scores, before, state.config.eloK);
    for (const agent of agents) {
      const idea = champions[agent] as string;
      elo.set(idea, after[idea] ?? ELO_START);
      let p = played.get(idea);
      if (!p) {
        p = { arenas: 0, wins: 0, draws: 0, losses: 0, champions: [], tournaments: new Set() };
        played.set(idea, p);
      }
      p.arenas++;
      const mine = score(agent);
      const best = Math.max(...agents.filter((a) => a !== agent).map(score));
      if (mine > best) p.wins++;
      else if (mine === best) p.draws++;
      else p.losses++;
      if (!p.champions.includes(agent)) p.champions.push(agent);
      p.tournaments.add(tournament);
    }
  }
  return [...played.entries()]
    .map(([id, p]) => ({
      id,
      elo: elo.get(id) ?? ELO_START,
      arenas: p.arenas,
      wins: p.wins,
      draws: p.draws,
      losses: p.losses,
      champions: p.champions,
      tournaments: p.tournaments.size,
    }))
    .sort((a, b) => b.elo - a.elo || a.id.localeCompare(b.id));
}
