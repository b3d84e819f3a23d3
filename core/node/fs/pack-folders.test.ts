import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { packFolders, unpackFolders } from './pack-folders';
import { readFolder } from './read-folder';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-pack-'));
});
afterEach(() => cleanup());

describe('folders packed for the trip between threads', () => {
  it('come back as the same objects, with the same fields present and absent', () => {
    writeFile(root, 'ideas/full/README.md', readme('Full', { tags: '[a, b]', created: '2026-01-02' }));
    writeFile(root, 'ideas/full/development.md', '---\nkind: development\n---\n### Q: Why?\n');
    writeFile(root, 'ideas/full/research/r.md', 'Findings.\n');
    writeFile(root, 'ideas/full/assets/p.bin', Buffer.from([0, 1, 2]));
    writeFile(root, 'ideas/broken/README.md', '---\ntitle: [open\n---\n');
    writeFile(root, 'ideas/broken/notes/n.md', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    writeFile(root, 'ideas/empty/.keep', '');

    // Walked with listings (a first sync), walked without, and read from a given file list.
    const trustAll = Date.now() + 60_000;
    const folders = [
      ...['full', 'broken', 'empty'].map((slug) => readFolder(root, slug, null, trustAll)),
      readFolder(root, 'full', null),
      readFolder(root, 'full', [{ path: 'ideas/full/README.md', size: 1, mtimeMs: 2 }]),
    ];
    expect(folders[0]?.listings?.length).toBe(3);
    expect(folders[1]?.files.map((f) => [f.kind, f.error ?? null, f.doc === undefined])).toEqual([
      ['readme', expect.stringMatching(/^bad YAML frontmatter/), true],
      ['note', 'is not valid UTF-8 text', true],
    ]);

    expect(unpackFolders(structuredClone(packFolders(folders)))).toStrictEqual(folders);
  });
});
