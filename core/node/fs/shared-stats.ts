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
 * The stats of a job's paths by position in `job.paths`: what `statShared` returns. Read by index
 * (no object per path), because a restart looks up ~37,000 of them in walk order.
 */
export class StatTable {
  constructor(private readonly values: Float64Array) {}

  isFile(i: number): boolean {
    return this.values[i * FIELDS] === 1;
  }

  isDirectory(i: number): boolean {
    return this.values[i * FIELDS] === 2;
  }

  size(i: number): number {
    return this.values[i * FIELDS + 1] as number;
  }

  mtimeMs(i: number): number {
    return this.values[i * FIELDS + 2] as number;
  }

  ctimeMs(i: number): number {
    return this.values[i * FIELDS + 3] as number;
  }
}

/**
 * Stats every path of `job` here, except what a helper (handed `job` beforehand, or never) does
 * meanwhile. A chunk the helper took and has not finished within `helperWaitMs` is statted here
 * again, into a copy of the results, so a helper that is only slow cannot write under the reader.
 */
export function statShared(statSync: typeof fs.statSync, job: StatJob, helperWaitMs = HELPER_WAIT_MS): StatTable {
  runStatJob(statSync, job);
  const cells = new Int32Array(job.cells);
  const chunks = cells.length - FIRST_CHUNK;
  const deadline = Date.now() + helperWaitMs;
  const unfinished: number[] = [];
  for (let chunk = 0; chunk < chunks; chunk++) {
    const cell = FIRST_CHUNK + chunk;
    if (Atomics.load(cells, cell) === DONE) continue;
    // Taken by the helper and not finished: give it until the deadline, then take the chunk back.
    Atomics.wait(cells, cell, TAKEN, Math.max(0, deadline - Date.now()));
    if (Atomics.load(cells, cell) !== DONE) unfinished.push(chunk);
  }
  if (unfinished.length === 0) return new StatTable(new Float64Array(job.results));
  const values = new Float64Array(job.results.byteLength / 8);
  values.set(new Float64Array(job.results));
  for (const chunk of unfinished) {
    const end = Math.min(job.paths.length, (chunk + 1) * CHUNK);
    for (let i = chunk * CHUNK; i < end; i++) {
      const stat = statSync(job.paths[i] as string, { throwIfNoEntry: false });
      const at = i * FIELDS;
      values[at] = !stat ? 0 : stat.isFile() ? 1 : stat.isDirectory() ? 2 : 3;
      if (stat) {
        values[at + 1] = stat.size;
        values[at + 2] = stat.mtimeMs;
        values[at + 3] = stat.ctimeMs;
      }
    }
  }
  return new StatTable(values);
}
