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
        secondaryTypes: ['Technical', 'research'],
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
        // Lower-cased, and the primary type named again is dropped.
        secondaryTypes: ['technical'],
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
    expect(result).toMatchObject({
      ok: true,
      meta: {
        id: 'slug:solar-coop',
        title: 'Community solar',
        stage: 'SPARK',
        type: null,
        secondaryTypes: [],
        tags: [],
      },
    });
    // A comma-separated line, as tags may be written.
    expect(read({ secondaryTypes: 'technical, Research' })).toMatchObject({
      meta: { secondaryTypes: ['technical', 'research'] },
    });
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
        'type: unknown idea type "poetry" (one of research, technical)',
      ],
    });
    expect(read({ secondaryTypes: ['technical', 'poetry'] })).toEqual({
      ok: false,
      problems: ['secondaryTypes: unknown idea type "poetry" (one of research, technical)'],
    });
    expect(read({ secondaryTypes: 7 })).toEqual({
      ok: false,
      problems: ['secondaryTypes: must be a list of idea types, e.g. [research, technical]'],
    });
  });
});
