import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import { parseMarkdownWith } from '../markdown';
import { readFolders } from './read-folder';
import { ideaFolderNames } from './scan';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-reader-'));
});
afterEach(() => cleanup());

/** What a read markdown file must hold, worked out the plain way: one file, read whole, hashed, parsed. */
function expected(path: string): { hash: string; doc?: unknown; error?: string } {
  const bytes = readFileSync(join(root, path));
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (bytes.includes(0)) return { hash, error: 'looks like a binary file, not markdown text' };
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return { hash, error: 'is not valid UTF-8 text' };
  const parsed = parseMarkdownWith(matter, text);
  return parsed.ok ? { hash, doc: { data: parsed.data, body: parsed.body } } : { hash, error: parsed.message };
}

describe('reading many folders at once', () => {
  it('gives every file its own bytes, hash and parse, bad files between good ones included', () => {
    // Files of different sizes and fates in every folder, so that a result handed to a neighbour
    // (within a folder or across folders) cannot look right.
    for (let i = 0; i < 9; i++) {
      const slug = `idea-${i}`;
      writeFile(root, `ideas/${slug}/README.md`, readme(`Idea ${i}`, {}, `Body ${'of text '.repeat(i * 7)}`));
      writeFile(
        root,
        `ideas/${slug}/development.md`,
        `---\nkind: development\nidea: ${slug}\n---\n${'Q. '.repeat(i)}\n`,
      );
      if (i % 3 === 0)
        writeFile(root, `ideas/${slug}/research/r${i}.md`, `---\nsource: "s${i}"\n---\nFindings ${i}.\n`);
      if (i % 4 === 1) writeFile(root, `ideas/${slug}/notes/bad.md`, '---\ntitle: [open\n---\n');
      if (i % 4 === 2) writeFile(root, `ideas/${slug}/notes/binary.md`, Buffer.from([0x2d, 0x00, 0x41]));
      if (i % 4 === 3) writeFile(root, `ideas/${slug}/notes/latin1.md`, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      if (i % 2 === 0) writeFile(root, `ideas/${slug}/assets/p${i}.bin`, Buffer.alloc(i + 1, i));
    }
    const slugs = ideaFolderNames(root).sort();
    const together = readFolders(
      root,
      slugs.map((slug) => ({ slug, files: null })),
    );
    expect(together.map((f) => f.slug)).toEqual(slugs);

    let markdown = 0;
    for (const folder of together) {
      for (const file of folder.files) {
        const size = readFileSync(join(root, file.path)).length;
        if (file.kind === 'asset') {
          expect({ path: file.path, size: file.size, hash: file.hash }).toEqual({ path: file.path, size, hash: null });
          continue;
        }
        markdown++;
        const { path, size: gotSize, hash, doc, error } = file;
        expect({ path, size: gotSize, hash, doc, error }).toEqual({
          path,
          size,
          doc: undefined,
          error: undefined,
          ...expected(path),
        });
      }
    }
    expect(markdown).toBe(9 * 2 + 3 + 6);

    // One folder at a time gives the same; an empty batch gives nothing.
    expect(readFolders(root, [])).toEqual([]);
    expect(slugs.flatMap((slug) => readFolders(root, [{ slug, files: null }]))).toStrictEqual(together);
  });
});
