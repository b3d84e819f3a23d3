import { ELO_START, eloAfter } from '../../../arena/elo';
import { foldRatings } from '../../../arena/ratings';
import { activeIds, lastJudgment } from '../../../arena/state';
import type { ArenaPersonaRating, ArenaRatings, RatingPoint } from '../../../contract';
import { readArenaLogs } from '../../arena/arena-logs';
import { completedArenas } from '../../arena/arena-setup';

const r1 = (x: number) => Math.round(x * 10) / 10;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

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
    if (state.outcome === null || !judgment) continue;
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
    // Tournaments (ideas as contestants) are not in this build yet: no idea has an Elo to show.
    ideas: [],
    counted: done.length,
    leftOut: [...leftOut.entries()].map(([status, n]) => ({ status, arenas: n })),
    errors,
  };
}
