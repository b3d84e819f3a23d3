import { foldRatings, type PersonaRating } from '../../arena/ratings';
import { readArenaLogs } from './arena-logs';
import { completedArenas } from './arena-setup';

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

/** The ratings as a fold over the completed arena logs of the workspace folder (never the index). */
export function ratingsReport(root: string): RatingsReport {
  const { arenas, errors } = readArenaLogs(root);
  const done = completedArenas(arenas);
  const leftOut: Record<string, number> = {};
  for (const a of arenas) if (!done.includes(a)) leftOut[a.status] = (leftOut[a.status] ?? 0) + 1;
  const ratings = foldRatings(done.map((a) => ({ id: a.id, completedAt: a.statusAt ?? '', state: a.state }))).map(
    (r) => ({ ...r, elo: r1(r.elo), voteBrier: r.voteBrier === null ? null : r4(r.voteBrier) }),
  );
  return { ratings, counted: done.length, leftOut, errors };
}
