import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 5: the parser skips a leading byte order mark, but the stage edit looked for `---`
// at the very start, so it wrote a second frontmatter block above the researcher's, which became
// body text: the id turned into `slug:…`, the tags and the summary were gone. A BOM stays where it
// is and the block behind it is edited in place.

let root: string;
let cleanup: () => void;
beforeEach(() => ({ root, cleanup } = tempWorkspace('crucible-bom-')));
afterEach(() => cleanup());

type Shown = { id: string; stage: string; tags: string[]; summary: string; readme: string };
const shown = (slug: string) => {
  const { id, stage, tags, summary, readme } = cliJson<Shown>(['show', slug, '--workspace', root]);
  return { id, stage, tags, summary, readme };
};

describe('a README that starts with a byte order mark', { timeout: 120_000 }, () => {
  it('keeps its id, tags, summary and BOM through `stage` (real CLI processes)', () => {
    const original = `\ufeff${readme('Marked', { tags: '[optics, lasers]' })}`;
    writeFile(root, 'ideas/marked/README.md', original);
    expect(cli(['sync', '--workspace', root]).code).toBe(0);
    const before = shown('marked');
    const run = cli(['stage', 'marked', 'RESEARCH', '--workspace', root]);
    const today = new Date().toISOString().slice(0, 10);
    expect({
      code: run.code,
      file: readFileSync(join(root, 'ideas/marked/README.md'), 'utf8'),
      shown: shown('marked'),
    }).toEqual({
      code: 0,
      file: original.replace('stage: SPARK', 'stage: RESEARCH').replace(/^updated: .*$/m, `updated: ${today}`),
      shown: { ...before, stage: 'RESEARCH' },
    });
    expect(before).toMatchObject({ id: expect.stringMatching(/^01JTEST/), tags: ['optics', 'lasers'] });
  });
});
