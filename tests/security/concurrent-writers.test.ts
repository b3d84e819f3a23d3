import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LISTING_SETTLE_MS } from '../../core/node/fs/scan';
import { passInput, runSyncPass } from '../../core/node/workspace/sync-pass';
import { Workspace } from '../../core/node/workspace/workspace';
import { cli, cliJson } from '../helpers/run-cli';
import { cliAsync } from '../helpers/run-cli-async';
import { readme, sleep, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 6: of six `capture`s run at once, one exited 3 with "database is locked" although
// its idea had been written (a retry then made it twice). A sync pass read the index and then wrote
// to it in one deferred transaction; SQLite fails such a transaction at once when another process
// holds the write lock, whatever the busy timeout. Here a seventh connection holds that lock while
// the captures write their ideas, so every capture meets it, deterministically; the same for `stage`
// (with a busy watcher, 3 to 7 of 30 failed so).

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-concurrent-'));
  writeFile(root, 'ideas/seed/README.md', readme('Seed'));
});
afterEach(() => cleanup());

const TITLES = ['Tidal batteries', 'Moss insulation', 'Bee radar', 'Salt roads', 'Glass soil', 'Kelp paper'];

type Run = Awaited<ReturnType<typeof cliAsync>>;

/** Two syncs, the second once the folders have settled: the index then records their listings and
 * the next command's opening sync has nothing to write (see LISTING_SETTLE_MS). */
async function settledSync(): Promise<void> {
  expect(cli(['sync', '--workspace', root]).code).toBe(0);
  await sleep(LISTING_SETTLE_MS + 200);
  expect(cli(['sync', '--workspace', root]).code).toBe(0);
}

/**
 * Starts the runs while another connection holds the index's write lock, and lets it go half a second
 * after `wrote()` first holds: well within the busy timeout of runs waiting for the lock, long
 * enough for them to reach it after writing their files.
 */
async function whileLocked(start: () => Promise<Run>[], wrote: () => boolean): Promise<Run[]> {
  const holder = new Database(join(root, '.crucible', 'index.db'));
  holder.prepare('BEGIN IMMEDIATE').run();
  try {
    let settled = 0;
    const runs = start().map((run) =>
      run.finally(() => {
        settled++;
      }),
    );
    const started = Date.now();
    while (!wrote() && settled < runs.length) {
      if (Date.now() - started > 60_000) throw new Error('nothing was written within a minute');
      await sleep(10);
    }
    await sleep(500);
    holder.prepare('COMMIT').run();
    return await Promise.all(runs);
  } finally {
    holder.close();
  }
}

const folders = () => readdirSync(join(root, 'ideas')).filter((name) => !name.startsWith('_'));

describe('concurrent CLI writers', { timeout: 180_000 }, () => {
  it('six captures at once, while another process holds the write lock: all succeed, each idea once', async () => {
    await settledSync();
    const runs = await whileLocked(
      () => TITLES.map((title) => cliAsync(['capture', '--workspace', root, '--title', title])),
      () => folders().some((slug) => slug !== 'seed' && existsSync(join(root, 'ideas', slug, 'README.md'))),
    );
    const listed = cliJson<{ ideas: { title: string }[] }>(['list', '--workspace', root]).ideas;
    const count = (titles: string[]) =>
      Object.fromEntries(TITLES.map((t) => [t, titles.filter((x) => x === t).length]));
    expect({
      codes: runs.map((r) => r.code),
      errors: runs.map((r) => r.stderr).filter((e) => e !== ''),
      indexed: count(listed.map((i) => i.title)),
      folders: folders().length,
    }).toEqual({
      codes: TITLES.map(() => 0),
      errors: [],
      indexed: count(TITLES),
      folders: TITLES.length + 1,
    });
  });

  it('three stage changes at once, while another process holds the write lock: all succeed and are indexed', async () => {
    const slugs = ['seed', 'second', 'third'];
    writeFile(root, 'ideas/second/README.md', readme('Second'));
    writeFile(root, 'ideas/third/README.md', readme('Third'));
    await settledSync();
    const runs = await whileLocked(
      () => slugs.map((slug) => cliAsync(['stage', slug, 'CLARIFY', '--workspace', root])),
      () =>
        slugs.some((slug) => readFileSync(join(root, 'ideas', slug, 'README.md'), 'utf8').includes('stage: CLARIFY')),
    );
    const listed = cliJson<{ ideas: { slug: string; stage: string }[] }>(['list', '--workspace', root]).ideas;
    expect({
      codes: runs.map((r) => r.code),
      errors: runs.map((r) => r.stderr).filter((e) => e !== ''),
      stages: Object.fromEntries(listed.map((i) => [i.slug, i.stage])),
    }).toEqual({
      codes: [0, 0, 0],
      errors: [],
      stages: { seed: 'CLARIFY', second: 'CLARIFY', third: 'CLARIFY' },
    });
  });

  it('a first sync that finds the index filled by another process once it holds the lock syncs normally', () => {
    // Two processes opening a workspace with no index both see it empty; the one that gets the write
    // lock second used to load every row again ("UNIQUE constraint failed: files.path").
    const first = Workspace.open(root);
    const second = Workspace.open(root);
    try {
      const seenEmpty = passInput(root, second.db, null);
      first.sync();
      const { report } = runSyncPass(root, second.db, second.taxonomy, null, () => new Date(), seenEmpty);
      expect({ fromEmpty: seenEmpty.fromEmpty, ideas: report.ideas, added: report.added }).toEqual({
        fromEmpty: true,
        ideas: 1,
        added: 0,
      });
    } finally {
      second.close();
      first.close();
    }
  });
});
