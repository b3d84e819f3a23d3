import { describe, expect, it } from 'vitest';
import { ideaTerms, scoreLibrary } from './similarity';

const library = [
  ideaTerms({
    slug: 'solar',
    title: 'Solar co-op',
    summary: 'Panels on school roofs, owned by members.',
    body: 'Roof leases.',
  }),
  ideaTerms({
    slug: 'kiln',
    title: 'Community kiln',
    summary: 'A shared kiln for potters, owned by members.',
    body: '',
  }),
  ideaTerms({ slug: 'empty', title: 'Untitled', summary: '', body: '' }),
];

describe('scoreLibrary', () => {
  it('scores the share of the capture’s rarity-weighed terms each idea holds, best first, with the rarest shared terms', () => {
    // "panel", "school" and "roof" are only in `solar`, "shared" only in `kiln` (idf ln(4/1.5));
    // "member" is in two ideas (ln(4/2.5)); "battery" is in none (ln(4/0.5)) and pulls every score down.
    const idf = (df: number) => Math.log(4 / (df + 0.5));
    const total = 4 * idf(1) + idf(2) + idf(0);
    const { terms, ranked } = scoreLibrary('Battery for the panels on the school roof, shared by members', library);
    expect({ terms, ranked }).toEqual({
      terms: 6,
      ranked: [
        {
          slug: 'solar',
          title: 'Solar co-op',
          score: Math.round(((3 * idf(1) + idf(2)) / total) * 1000) / 1000,
          shared: ['panel', 'roof', 'school', 'member'],
        },
        {
          slug: 'kiln',
          title: 'Community kiln',
          score: Math.round(((idf(1) + idf(2)) / total) * 1000) / 1000,
          shared: ['shared', 'member'],
        },
        { slug: 'empty', title: 'Untitled', score: 0, shared: [] },
      ],
    });
  });

  it('has nothing to rank for a text without terms or a library without ideas', () => {
    expect([scoreLibrary('the and of', library), scoreLibrary('solar roofs', [])]).toEqual([
      { terms: 0, ranked: [] },
      { terms: 2, ranked: [] },
    ]);
  });
});
