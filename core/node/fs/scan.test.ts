import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FolderListing, ListingRow, ScannedFile } from '../../sync/types';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { statAllInHelper } from '../../../tests/helpers/stat-helper';
import { readFolder } from './read-folder';
import { scanIdeas, walkWithListings } from './scan';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-scan-'));
  writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
  writeFile(root, 'ideas/alpha/research/one.md', 'One.\n');
  writeFile(root, 'ideas/alpha/assets/photo.bin', Buffer.from([1, 2, 3]));
  writeFile(root, 'ideas/beta/README.md', readme('Beta'));
  writeFile(root, 'ideas/beta/.README.md.swp', 'swap');
});
afterEach(() => cleanup());

/** Everything has settled: any folder may be recorded. */
const LATER = () => Date.now() + 60_000;
const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
/** Listings as a restart reads them back from the index. */
const asMap = (listings: FolderListing[]) =>
  new Map(
    listings.map((l): [string, ListingRow] => [
      l.path,
      [l.path, l.mtimeMs, l.ctimeMs, l.subfolders.join('\n'), l.files],
    ]),
  );

describe('a restart walk with recorded folder listings', () => {
  it('lists everything the first time and records each folder', () => {
    const first = walkWithListings(root, new Map(), LATER());
    expect(first.unconfirmed.sort()).toEqual(['alpha', 'beta']);
    expect(first.files.sort(byPath)).toEqual(scanIdeas(root).sort(byPath));
    expect(first.record.map((l) => l.path).sort()).toEqual([
      'ideas/alpha',
      'ideas/alpha/assets',
      'ideas/alpha/research',
      'ideas/beta',
    ]);
    expect(first.record.find((l) => l.path === 'ideas/alpha')).toMatchObject({ subfolders: ['assets', 'research'] });
  });

  it('confirms unchanged folders without listing them, and still sees an edit, a new note, a new and a removed folder', () => {
    const first = walkWithListings(root, new Map(), LATER()).record;
    const recorded = asMap(first);
    expect(walkWithListings(root, recorded, LATER())).toMatchObject({
      unconfirmed: [],
      files: [],
      record: [],
      stale: [],
    });

    // An edit in place changes no folder time, only the file's size and mtime.
    writeFileSync(join(root, 'ideas/beta/README.md'), readme('Beta, longer title'));
    // A new note changes its folder's times.
    writeFile(root, 'ideas/alpha/research/two.md', 'Two.\n');
    writeFile(root, 'ideas/gamma/README.md', readme('Gamma'));
    const next = walkWithListings(root, recorded, LATER());
    expect(next.unconfirmed.sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(next.files.map((f: ScannedFile) => f.path).sort()).toEqual([
      'ideas/alpha/README.md',
      'ideas/alpha/assets/photo.bin',
      'ideas/alpha/research/one.md',
      'ideas/alpha/research/two.md',
      'ideas/beta/README.md',
      'ideas/gamma/README.md',
    ]);
    // An idea folder that changed anywhere is listed afresh, all of it, and recorded again.
    expect(next.record.map((l) => l.path).sort()).toEqual([
      'ideas/alpha',
      'ideas/alpha/assets',
      'ideas/alpha/research',
      'ideas/beta',
      'ideas/gamma',
    ]);

    rmSync(join(root, 'ideas/alpha'), { recursive: true });
    const after = walkWithListings(root, asMap([...first, ...next.record]), LATER());
    expect(after.stale.sort()).toEqual(['ideas/alpha', 'ideas/alpha/assets', 'ideas/alpha/research']);
  });

  it('walks the same when a helper thread took its stats', () => {
    const recorded = asMap(walkWithListings(root, new Map(), LATER()).record);
    writeFileSync(join(root, 'ideas/beta/README.md'), readme('Beta, longer title'));
    writeFile(root, 'ideas/alpha/research/two.md', 'Two.\n');
    writeFile(root, 'ideas/gamma/README.md', readme('Gamma'));
    rmSync(join(root, 'ideas/alpha/assets'), { recursive: true });
    const sorted = (walk: ReturnType<typeof walkWithListings>) => ({
      ...walk,
      unconfirmed: [...walk.unconfirmed].sort(),
      files: [...walk.files].sort(byPath),
      record: [...walk.record].sort(byPath),
      stale: [...walk.stale].sort(),
    });
    let shared = 0;
    const helped = walkWithListings(root, recorded, LATER(), {
      share: {
        to: (job) => {
          shared = job.paths.length;
          statAllInHelper(job);
        },
        minPaths: 0,
      },
    });
    // Every recorded folder and file: alpha, its README, assets, the photo, research, its note, beta
    // and its README (gamma was never recorded, the swap file never is).
    expect(shared).toBe(8);
    expect(sorted(helped)).toEqual(sorted(walkWithListings(root, recorded, LATER())));
    expect(helped.unconfirmed.sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(helped.stale).toEqual(['ideas/alpha/assets']);
  });

  it('sees a file rewritten to the same size with its mtime set back', () => {
    const recorded = asMap(walkWithListings(root, new Map(), LATER()).record);
    const readmePath = join(root, 'ideas/beta/README.md');
    writeFileSync(readmePath, readme('Beta'));
    utimesSync(readmePath, new Date('2020-01-01'), new Date('2020-01-01'));
    expect(walkWithListings(root, recorded, LATER()).unconfirmed).toEqual(['beta']);
  });

  it('lists every folder when asked, and so sees a name its times did not show', () => {
    // A drive that keeps no folder times: a folder's times match its record, yet the record misses
    // a name. Here the record is taken after the change and the name cut from it.
    writeFile(root, 'ideas/beta/notes.md', 'Notes.\n');
    writeFile(root, 'ideas/alpha/research/deep/more.md', 'More.\n');
    const recorded = asMap(walkWithListings(root, new Map(), LATER()).record);
    const cut = (path: string, edit: (row: ListingRow) => ListingRow) =>
      recorded.set(path, edit(recorded.get(path) as ListingRow));
    cut('ideas/beta', ([p, m, c, subs, files]) => [p, m, c, subs, files.replace(/\n?notes\.md\t[^\n]*/, '')]);
    cut('ideas/alpha/research', ([p, m, c, , files]) => [p, m, c, '', files]);
    recorded.delete('ideas/alpha/research/deep');
    expect(walkWithListings(root, recorded, LATER()).unconfirmed).toEqual([]);

    const listed = walkWithListings(root, recorded, LATER(), { listEvery: true });
    expect(listed.unconfirmed.sort()).toEqual(['alpha', 'beta']);
    expect(listed.files.map((f) => f.path).sort()).toEqual([
      'ideas/alpha/README.md',
      'ideas/alpha/assets/photo.bin',
      'ideas/alpha/research/deep/more.md',
      'ideas/alpha/research/one.md',
      'ideas/beta/README.md',
      'ideas/beta/notes.md',
    ]);
    // A folder that holds exactly its record is still confirmed, swap files aside.
    const whole = asMap(walkWithListings(root, new Map(), LATER()).record);
    expect(walkWithListings(root, whole, LATER(), { listEvery: true })).toMatchObject({ unconfirmed: [], files: [] });
  });

  it('records no folder that changed after the walk began', () => {
    expect(walkWithListings(root, new Map(), Date.now() - 60_000).record).toEqual([]);
  });

  it('gets from a reader that walks while reading the same listings as from the walk', () => {
    const trust = LATER();
    const walked = walkWithListings(root, new Map(), trust).record.filter((l) => l.path.startsWith('ideas/alpha'));
    const read = readFolder(root, 'alpha', null, trust).listings ?? [];
    expect(read.sort(byPath)).toEqual(walked.sort(byPath));
  });
});
