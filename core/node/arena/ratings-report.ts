import { foldIdeaRatings, foldRatings, type IdeaRating, type PersonaRating } from '../../arena/ratings';
import { readArenaLogs } from './arena-logs';
import { completedArenas, tournamentArenas } from './arena-setup';

export interface RatingsReport {
  /** Persona Elo and vote calibration, best first. */
  ratings: PersonaRating[];
  /** Completed arenas folded. */
  counted: number;
  /** Arenas left out, by status (cancelled, failed, partial, and any not finished). */
  leftOut: Record<string, number>;
  /** Logs that could not be read. */
  errors: { file: string; reason: string }[];
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * The ratings as a fold over the completed arena logs of the workspace folder (never the index). A
 * tournament's arenas rate ideas (`ideaRatingsReport`), not personas, and are not counted here.
 */
export function ratingsReport(root: string): RatingsReport {
  const { arenas: all, errors } = readArenaLogs(root);
  const arenas = all.filter((a) => a.tournament === null);
  const done = completedArenas(arenas);
  const leftOut: Record<string, number> = {};
  for (const a of arenas) if (!done.includes(a)) leftOut[a.status] = (leftOut[a.status] ?? 0) + 1;
  const ratings = foldRatings(done.map((a) => ({ id: a.id, completedAt: a.statusAt ?? '', state: a.state }))).map(
    (r) => ({ ...r, elo: r1(r.elo), voteBrier: r.voteBrier === null ? null : r4(r.voteBrier) }),
  );
  return { ratings, counted: done.length, leftOut, errors };
}

export interface IdeaRatingsReport {
  /** Idea Elo, best first. */
  ratings: IdeaRating[];
  /** Completed tournament arenas folded, and the tournaments they belong to. */
  counted: number;
  tournaments: number;
  /** Tournament arenas left out, by status. */
  leftOut: Record<string, number>;
  errors: { file: string; reason: string }[];
}

/** The ideas' Elo as a fold over the completed arenas of every tournament in the workspace folder. */
export function ideaRatingsReport(root: string): IdeaRatingsReport {
  const { arenas: all, errors } = readArenaLogs(root);
  const arenas = all.filter((a) => a.tournament !== null);
  const done = completedArenas(arenas);
  const leftOut: Record<string, number> = {};
  for (const a of arenas) if (!done.includes(a)) leftOut[a.status] = (leftOut[a.status] ?? 0) + 1;
  const ratings = foldIdeaRatings(tournamentArenas(done)).map((r) => ({ ...r, elo: r1(r.elo) }));
  return {
    ratings,
    counted: done.length,
    tournaments: new Set(done.map((a) => a.tournament?.id)).size,
    leftOut,
    errors,
  };
}
