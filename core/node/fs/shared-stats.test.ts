import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statAllInHelper } from '../../../tests/helpers/stat-helper';
import { createStatJob, type StatTable, statShared } from './shared-stats';

let dir: string;
let paths: string[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-stats-'));
  paths = [];
  for (let f = 0; f < 30; f++) {
    const folder = join(dir, `f${f}`);
    mkdirSync(folder);
    paths.push(folder);
    for (let i = 0; i < 60; i++) {
      writeFileSync(join(folder, `n${i}.md`), 'x'.repeat(f * 60 + i));
      paths.push(join(folder, `n${i}.md`));
    }
  }
  // Paths that are not there answer null, wherever they were statted.
  paths.splice(100, 0, join(dir, 'gone.md'));
  paths.splice(2000, 0, join(dir, 'f3', 'gone', 'deeper.md'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** What `stat` says of a path now, in the shape read back from a table (null: nothing there). */
function expected(path: string): Seen | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  const { size, mtimeMs, ctimeMs } = stat;
  return { isFile: stat.isFile(), isDirectory: stat.isDirectory(), size, mtimeMs, ctimeMs };
}

function seen(table: StatTable, i: number): Seen | null {
  if (!table.isFile(i) && !table.isDirectory(i)) return null;
  return {
    isFile: table.isFile(i),
    isDirectory: table.isDirectory(i),
    size: table.size(i),
    mtimeMs: table.mtimeMs(i),
    ctimeMs: table.ctimeMs(i),
  };
}

describe('stats shared with a helper thread', () => {
  it('gives every path the stat it has, whoever took it', () => {
    const alone = statShared(statSync, createStatJob(paths));
    // The helper takes every chunk before this thread looks: all of it crosses through shared memory.
    const job = createStatJob(paths);
    statAllInHelper(job);
    const shared = statShared(statSync, job);
    const want = paths.map(expected);
    expect(want.filter((w) => w === null)).toHaveLength(2);
    expect(paths.map((_, i) => seen(shared, i))).toEqual(want);
    expect(paths.map((_, i) => seen(alone, i))).toEqual(want);
  });

  it('stats a chunk itself when the helper took it and never finished', () => {
    const job = createStatJob(paths);
    // A helper that claimed the second chunk and then died.
    Atomics.store(new Int32Array(job.cells), 2, 1);
    const table = statShared(statSync, job, 50);
    expect(paths.map((_, i) => seen(table, i))).toEqual(paths.map(expected));
  });
});
