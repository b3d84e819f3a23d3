import type * as fs from 'node:fs';

/**
 * `stat` of many paths at once, shared out between this thread and a helper thread. A restart of a
 * large library stats every folder and file it recorded (~37,000 at 10,000 ideas), and on this
 * kind of machine a `stat` is mostly the system call: two threads do it in about half the time.
 *
 * The paths are cut into chunks claimed through shared memory, so neither side waits for the
 * other to hand out work and the synchronous walk stays synchronous. A helper that never comes, or
 * comes late, only means this thread stats more.
 */

/** Paths per claim: small enough to share out evenly, large enough that claiming costs nothing. */
const CHUNK = 512;
/** Shared cells: [0] the next chunk to claim, then one state cell per chunk (free, taken, done). */
const FIRST_CHUNK = 1;
const TAKEN = 1;
const DONE = 2;
/** Numbers per path in the results: kind (0 none, 1 file, 2 folder, 3 other), size, mtimeMs, ctimeMs. */
const FIELDS = 4;
/** Longest this thread waits for a chunk the helper took before statting it itself. */
const HELPER_WAIT_MS = 2_000;

/** What a helper thread is handed (all of it can cross to a worker). */
export interface StatJob {
  paths: string[];
  cells: SharedArrayBuffer;
  results: SharedArrayBuffer;
}

/** One path's stat as the walk needs it; null when there is nothing (or nothing readable) there. */
export interface PathStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * Claims and stats chunks of `job` until none is left. Self-contained (nothing but its arguments
 * and globals): a helper thread runs its source text (see `integrity-check.ts`).
 */
export function runStatJob(statSync: typeof fs.statSync, job: StatJob): void {
  // The layout constants again, as literals: this body must stand alone (see above).
  const chunkSize = 512;
  const cells = new Int32Array(job.cells);
  const results = new Float64Array(job.results);
  const chunks = cells.length - 1;
  for (;;) {
    const chunk = Atomics.add(cells, 0, 1);
    if (chunk >= chunks) return;
    if (Atomics.compareExchange(cells, 1 + chunk, 0, 1) !== 0) continue;
    const end = Math.min(job.paths.length, (chunk + 1) * chunkSize);
    for (let i = chunk * chunkSize; i < end; i++) {
      const stat = statSync(job.paths[i] as string, { throwIfNoEntry: false });
      const at = i * 4;
      if (!stat) results[at] = 0;
      else {
        results[at] = stat.isFile() ? 1 : stat.isDirectory() ? 2 : 3;
        results[at + 1] = stat.size;
        results[at + 2] = stat.mtimeMs;
        results[at + 3] = stat.ctimeMs;
      }
    }
    Atomics.store(cells, 1 + chunk, 2);
    Atomics.notify(cells, 1 + chunk);
  }
}

export function createStatJob(paths: string[]): StatJob {
  const chunks = Math.ceil(paths.length / CHUNK);
  return {
    paths,
    cells: new SharedArrayBuffer(4 * (FIRST_CHUNK + chunks)),
    results: new SharedArrayBuffer(8 * FIELDS * paths.length),
  };
}

/**
 * Stats every path of `job` here, except what a helper (handed `job` beforehand, or never) does
 * meanwhile, and returns a lookup by path. A path the lookup was not made for answers `undefined`.
 */
export function statShared(
  statSync: typeof fs.statSync,
  job: StatJob,
  helperWaitMs = HELPER_WAIT_MS,
): (path: string) => PathStat | null | undefined {
  runStatJob(statSync, job);
  const cells = new Int32Array(job.cells);
  const chunks = cells.length - FIRST_CHUNK;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const cell = FIRST_CHUNK + chunk;
    if (Atomics.load(cells, cell) === DONE) continue;
    // Taken by the helper and not finished: give it a moment, then take the chunk back.
    if (Atomics.wait(cells, cell, TAKEN, helperWaitMs) === 'timed-out' && Atomics.load(cells, cell) !== DONE) {
      return statLookup(statSync, job, chunk);
    }
  }
  return statLookup(statSync, job, chunks);
}

/** A lookup over the results; chunks from `unfinished` on are not trusted and stat afresh. */
function statLookup(
  statSync: typeof fs.statSync,
  job: StatJob,
  unfinished: number,
): (path: string) => PathStat | null | undefined {
  const results = new Float64Array(job.results);
  const index = new Map<string, number>();
  const trusted = Math.min(job.paths.length, unfinished * CHUNK);
  for (let i = 0; i < job.paths.length; i++) index.set(job.paths[i] as string, i);
  return (path) => {
    const i = index.get(path);
    if (i === undefined) return undefined;
    if (i >= trusted) {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat
        ? {
            isFile: stat.isFile(),
            isDirectory: stat.isDirectory(),
            size: stat.size,
            mtimeMs: stat.mtimeMs,
            ctimeMs: stat.ctimeMs,
          }
        : null;
    }
    const at = i * FIELDS;
    const kind = results[at];
    if (kind === 0) return null;
    return {
      isFile: kind === 1,
      isDirectory: kind === 2,
      size: results[at + 1] as number,
      mtimeMs: results[at + 2] as number,
      ctimeMs: results[at + 3] as number,
    };
  };
}
