import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareIndexEntries, type IndexEntry, renderIndex } from '../../idea/index-md';
import type { FolderSnapshot } from '../../sync/types';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { readFolder } from './read-folder';
import { readInOrder, renderIndexAside } from './read-pool';
import { ideaFolderNames, scanIdeas } from './scan';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-pool-'));
});
afterEach(() => cleanup());

/** Blocks this thread for a moment, as planning and writing a batch would. */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('reading folders on worker threads', () => {
  it('gives exactly what this thread reads, bad files included, in order', () => {
    for (let i = 0; i < 120; i++) {
      const slug = `idea-${String(i).padStart(3, '0')}`;
      writeFile(
        root,
        `ideas/${slug}/README.md`,
        readme(`Idea ${i}`, { tags: '[energy, Local]', created: '2026-01-02' }),
      );
      if (i % 3 === 0) writeFile(root, `ideas/${slug}/research/r.md`, '---\nkind: research\n---\nFindings.\n');
      if (i % 7 === 0) writeFile(root, `ideas/${slug}/assets/p.bin`, Buffer.from([0, 1, 2]));
    }
    writeFile(root, 'ideas/bad-yaml/README.md', '---\ntitle: [open\n---\n');
    writeFile(root, 'ideas/binary/README.md', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00]));
    writeFile(root, 'ideas/latin1/README.md', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFile(root, 'ideas/huge/README.md', `---\ntitle: Huge\n---\n${'x'.repeat(2 * 1024 * 1024 + 1)}`);
    writeFile(root, 'ideas/nested/notes/deep/n.md', 'A note.\n');
    writeFile(root, 'ideas/nested/README.md', readme('Nested'));
    writeFile(root, 'ideas/nested/.README.md.swp', 'swap');
    symlinkSync(join(root, 'ideas/nested/notes'), join(root, 'ideas/nested/linked'));

    const slugs = ideaFolderNames(root).sort();
    const walked = new Map<string, ReturnType<typeof scanIdeas>>();
    for (const file of scanIdeas(root)) {
      const slug = file.path.split('/')[1] as string;
      walked.set(slug, [...(walked.get(slug) ?? []), file]);
    }
    for (const withWalk of [false, true]) {
      const tasks = slugs.map((slug) => ({ slug, files: withWalk ? (walked.get(slug) ?? []) : null }));
      const got: FolderSnapshot[] = [];
      const stats = readInOrder(
        root,
        tasks,
        8,
        (folders) => {
          got.push(...folders);
          busy(15);
        },
        { minFolders: 1 },
      );
      const here = tasks.map((t) => readFolder(root, t.slug, t.files));
      expect(got).toStrictEqual(here);
      expect(stats.workers).toBeGreaterThan(0);
      expect(stats.byWorkers).toBeGreaterThan(0);
    }
    const errors = Object.fromEntries(
      readFolder(root, 'huge', null)
        .files.concat(readFolder(root, 'latin1', null).files)
        .map((f) => [f.slug, f.error]),
    );
    expect(errors).toEqual({ huge: expect.stringMatching(/^too large to index/), latin1: 'is not valid UTF-8 text' });
  });

  it('reads ahead here while it would wait for a reader, and still hands out every batch in order', () => {
    for (let i = 0; i < 160; i++) {
      writeFile(root, `ideas/idea-${String(i).padStart(3, '0')}/README.md`, readme(`Idea ${i}`));
      if (i % 2 === 0) writeFile(root, `ideas/idea-${String(i).padStart(3, '0')}/research/r.md`, 'Findings.\n');
    }
    const tasks = ideaFolderNames(root)
      .sort()
      .map((slug) => ({ slug, files: null }));
    const here = tasks.map((t) => readFolder(root, t.slug, t.files));
    // With nothing to do per batch this thread is the faster side and waits on the readers: it
    // should read some batches itself. Whether it does in one pass is up to the scheduler, so a
    // few passes are allowed to show it.
    let stolen = 0;
    for (let attempt = 0; attempt < 5 && stolen === 0; attempt++) {
      const got: FolderSnapshot[] = [];
      const stats = readInOrder(root, tasks, 4, (folders) => got.push(...folders), { minFolders: 1 });
      expect(got).toEqual(here);
      stolen = stats.stolen;
      expect(stats.byWorkers + stolen).toBeLessThanOrEqual(40);
    }
    expect(stolen).toBeGreaterThan(0);
  });

  it('renders ideas/_index.md on a reader thread a pass left idle, exactly as this thread does', () => {
    for (let i = 0; i < 12; i++) writeFile(root, `ideas/idea-${i}/README.md`, readme(`Idea ${i}`));
    const tasks = ideaFolderNames(root).map((slug) => ({ slug, files: null }));
    expect(readInOrder(root, tasks, 2, () => busy(5), { minFolders: 1 }).workers).toBeGreaterThan(0);

    // Titles that only the index's own order tells apart: case, accents, emoji, equal titles.
    const titles = ['alpha', 'Alpha', 'Émile', 'émile', 'zed 🙂', 'Zed', 'pipe | title', '  spaced  out '];
    const entries: IndexEntry[] = Array.from({ length: 700 }, (_, i) => ({
      slug: `idea-${(i * 7919) % 700}`,
      title: `${titles[i % titles.length]} ${i % 50}`,
      type: i % 3 === 0 ? null : 'product',
      stage: i % 2 === 0 ? 'SPARK' : 'EVALUATED',
      tags: i % 4 === 0 ? [] : ['energy', `t${i % 9}`],
      updated: i % 5 === 0 ? null : '2026-03-04',
      overallScore: i % 6 === 0 ? null : (i % 100) / 10,
      stale: i % 12 === 1,
    }));
    const before = structuredClone(entries);
    const expected = renderIndex([...entries].sort(compareIndexEntries));

    expect(renderIndexAside(entries)()).toEqual({ text: expected, aside: true });
    expect(entries).toEqual(before);
    // A few ideas are rendered where they are written.
    expect(renderIndexAside(entries.slice(0, 20))().aside).toBe(false);
  });
});
