import { ELO_START, eloAfter } from '../../../arena/elo';
import { foldIdeaRatings, foldRatings } from '../../../arena/ratings';
import { activeIds, lastJudgment } from '../../../arena/state';
import type { ArenaIdeaRating, ArenaPersonaRating, ArenaRatings, RatingPoint } from '../../../contract';
import { type ArenaLog, readArenaLogs } from '../../arena/arena-logs';
import { completedArenas, tournamentArenas } from '../../arena/arena-setup';

const r1 = (x: number) => Math.round(x * 10) / 10;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

type Ordered = { id: string; completedAt: string; state: ArenaLog['state']; ideaSlug: string | null };

/**
 * The ideas' Elo with each idea's rating after every completed tournament arena it played, the idea
 * fold (`foldIdeaRatings`) step by step: in a tournament's arena each agent stands for the idea it
 * champions, so the judge's scores are the ideas' game. Its last point is the table's rating.
 */
function ideaRatingsWithHistory(done: readonly ArenaLog[], ordered: readonly Ordered[]): ArenaIdeaRating[] {
  const titles = new Map(done.flatMap((a) => a.tournament?.ideas.map((i) => [i.slug, i.title] as const) ?? []));
  const elo = new Map<string, number>();
  const history = new Map<string, RatingPoint[]>();
  for (const arena of ordered) {
    const { state } = arena;
    const judgment = lastJudgment(state);
    const champions = state.champions;
    if (state.outcome === null || !judgment || champions === null) continue;
    const agents = activeIds(state).filter((a) => champions[a] !== undefined);
    const ideas = agents.map((a) => champions[a] as string);
    const score = (a: string) => judgment.scores[a]?.overall ?? 0;
    const scores = Object.fromEntries(agents.map((a) => [champions[a] as string, score(a)]));
    const before = Object.fromEntries(ideas.map((i) => [i, elo.get(i) ?? ELO_START]));
    const after = eloAfter(ideas, scores, before, state.config.eloK);
    for (const idea of ideas) {
      const next = after[idea] ?? ELO_START;
      elo.set(idea, next);
      const points = history.get(idea) ?? [];
      points.push({
        arenaId: arena.id,
        at: arena.completedAt,
        topic: state.topic,
        ideaSlug: idea,
        before: r1(before[idea] ?? ELO_START),
        after: r1(next),
        // Ties share a place: a head-to-head the judge scored level is a draw.
        rank: 1 + ideas.filter((other) => (scores[other] ?? 0) > (scores[idea] ?? 0)).length,
        of: ideas.length,
      });
      history.set(idea, points);
    }
  }
  return foldIdeaRatings(tournamentArenas(done)).map((r) => ({
    slug: r.id,
    title: titles.get(r.id) ?? r.id,
    elo: r1(r.elo),
    arenas: r.arenas,
    wins: r.wins,
    draws: r.draws,
    losses: r.losses,
    tournaments: r.tournaments,
    champions: r.champions,
    history: history.get(r.id) ?? [],
  }));
}

/**
 * The ratings tab's table: persona Elo and vote calibration as `ratings` folds them (core/arena/
 * ratings.ts, read from the logs in the folder, never the index), with each persona's rating after
 * every completed arena it took part in, for the chart. The history is the same fold step by step:
 * its last point is the rating the table shows (a test holds the two together).
 */
export function ratingsWithHistory(root: string): ArenaRatings {
  const { arenas, errors } = readArenaLogs(root);
  const done = completedArenas(arenas);
  const leftOut = new Map<string, number>();
  for (const a of arenas) if (!done.includes(a)) leftOut.set(a.status, (leftOut.get(a.status) ?? 0) + 1);

  const ordered = done
    .map((a) => ({ id: a.id, completedAt: a.statusAt ?? '', state: a.state, ideaSlug: a.ideaSlug }))
    .sort((a, b) => a.completedAt.localeCompare(b.completedAt) || a.id.localeCompare(b.id));
  const elo = new Map<string, number>();
  const history = new Map<string, RatingPoint[]>();
  const names = new Map<string, string>();
  for (const arena of ordered) {
    const { state } = arena;
    const judgment = lastJudgment(state);
    // A tournament's arena rates the ideas its agents champion, not the agents (as `foldRatings`).
    if (state.outcome === null || !judgment || state.champions !== null) continue;
    // An agent that left the arena played none of its games.
    const ids = activeIds(state);
    const before = Object.fromEntries(ids.map((id) => [id, elo.get(id) ?? ELO_START]));
    const scores = Object.fromEntries(ids.map((id) => [id, judgment.scores[id]?.overall ?? 0]));
    const after = eloAfter(ids, scores, before, state.config.eloK);
    for (const agent of state.agents) names.set(agent.id, agent.name);
    for (const id of ids) {
      const next = after[id] ?? ELO_START;
      elo.set(id, next);
      const points = history.get(id) ?? [];
      points.push({
        arenaId: arena.id,
        at: arena.completedAt,
        topic: state.topic,
        ideaSlug: arena.ideaSlug,
        before: r1(before[id] ?? ELO_START),
        after: r1(next),
        rank: judgment.ranking.indexOf(id) + 1,
        of: ids.length,
      });
      history.set(id, points);
    }
  }

  const personas: ArenaPersonaRating[] = foldRatings(ordered).map((r) => ({
    id: r.id,
    name: names.get(r.id) ?? r.id,
    elo: r1(r.elo),
    arenas: r.arenas,
    wins: r.wins,
    votes: r.votes,
    voteBrier: r.voteBrier === null ? null : r4(r.voteBrier),
    history: history.get(r.id) ?? [],
  }));
  return {
    personas,
    ideas: ideaRatingsWithHistory(done, ordered),
    counted: done.filter((a) => a.tournament === null).length,
    tournamentCounted: done.filter((a) => a.tournament !== null).length,
    leftOut: [...leftOut.entries()].map(([status, n]) => ({ status, arenas: n })),
    errors,
  };
}
