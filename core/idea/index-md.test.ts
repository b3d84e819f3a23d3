import { describe, expect, it } from 'vitest';
import { type IndexEntry, renderIndex } from './index-md';

const entry = (title: string, tags: string[] = []): IndexEntry => ({
  slug: 'x',
  title,
  type: 'product',
  stage: 'SPARK',
  tags,
  updated: '2026-01-02',
  overallScore: null,
  stale: false,
});

/** The table row `renderIndex` writes for one idea. */
const row = (e: IndexEntry) => renderIndex([e]).trimEnd().split('\n').at(-1);

describe('ideas/_index.md', () => {
  it('keeps clean titles as they are and makes every other one a single table cell', () => {
    const cases: [string, string][] = [
      ['Tidal kites for island grids', 'Tidal kites for island grids'],
      ['Pipes | and bars', 'Pipes \\| and bars'],
      ['  Leading and trailing  ', 'Leading and trailing'],
      ['Two  spaces', 'Two spaces'],
      ['Line\nbreak and\ttab', 'Line break and tab'],
      ['No\u00a0break space', 'No break space'],
      ['Ünïcödé 🙂 title', 'Ünïcödé 🙂 title'],
    ];
    for (const [title, cell] of cases) {
      expect(row(entry(title, ['a|b', 'c']))).toBe(
        `| [${cell}](x/README.md) | product | SPARK | a\\|b, c | 2026-01-02 | — |`,
      );
    }
  });
});
