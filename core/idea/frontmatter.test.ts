import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import { readIdeaFrontmatter } from './frontmatter';

const taxonomy = testTaxonomy();
const read = (data: unknown, body = '') => readIdeaFrontmatter(data, { slug: 'solar-coop', body, taxonomy });

describe('readIdeaFrontmatter', () => {
  it('normalises a full frontmatter', () => {
    expect(
      read({
        id: '01JABC',
        slug: 'something-else',
        title: 'Solar co-op',
        type: 'Research',
        stage: 'research',
        tags: ['Energy', 'local', 'energy'],
        summary: ' Shared panels. ',
        created: new Date('2026-01-05T00:00:00Z'),
        updated: '2026-02-01T10:30:00Z',
        relationships: [{ target: 'wind', type: 'related', strength: 0.4 }],
        extra: 'kept by the researcher',
      }),
    ).toEqual({
      ok: true,
      meta: {
        id: '01JABC',
        slug: 'solar-coop',
        title: 'Solar co-op',
        type: 'research',
        stage: 'RESEARCH',
        tags: ['energy', 'local'],
        summary: 'Shared panels.',
        created: '2026-01-05',
        updated: '2026-02-01T10:30:00Z',
        relationships: [{ target: 'wind', type: 'related', strength: 0.4, reason: null }],
      },
    });
  });

  it('fills what is missing: title from the first heading, stage SPARK, id from the folder', () => {
    const result = read(undefined, 'Intro\n\n# Community solar\n\ntext');
    expect(result).toMatchObject({ ok: true, meta: { id: 'slug:solar-coop', title: 'Community solar', stage: 'SPARK', type: null, tags: [] } });
  });

  it('names each wrong field', () => {
    expect(read({ title: ['a'], tags: 5, relationships: [{ target: 'x', type: 'cousin' }] })).toEqual({
      ok: false,
      problems: [
        'title: must be text',
        'tags: must be a list of tags, e.g. [energy, local]',
        'relationships[0].type: Invalid option: expected one of "parent"|"child"|"related"|"combines"|"conflicts"|"inspired_by"',
      ],
    });
    expect(read({ stage: 'DREAM', type: 'poetry' })).toEqual({
      ok: false,
      problems: [
        'stage: unknown stage "DREAM" (one of SPARK, RESEARCH, ABANDONED)',
        'type: unknown idea type "poetry" (one of research)',
      ],
    });
  });
});
