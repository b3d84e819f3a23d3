import { describe, expect, it } from 'vitest';
import { buildTaxonomy, TaxonomyError } from './taxonomy';
import { testTaxonomy } from './test-taxonomy';

describe('buildTaxonomy', () => {
  it('joins the four files into lookups', () => {
    const t = testTaxonomy();
    expect({
      stages: [...t.stageIds],
      types: [...t.typeIds],
      criteria: t.criteria.map((c) => [c.id, c.category, c.critical]),
      energy: t.tagCategory.get('energy'),
    }).toEqual({
      stages: ['SPARK', 'RESEARCH', 'ABANDONED'],
      types: ['research', 'technical'],
      criteria: [
        ['problem-clarity', 'problem', true],
        ['execution-risk', 'risk', false],
      ],
      energy: 'domain',
    });
  });

  it('collects every problem of every file, each naming the file and the field', () => {
    let problems: string[] = [];
    try {
      buildTaxonomy({
        stages: { file: 'taxonomy/lifecycle-stages.md', data: { kind: 'lifecycle-stages', stages: [{ id: 'spark', name: 'S', description: 'd' }] } },
        criteria: {
          file: 'taxonomy/evaluation-criteria.md',
          data: {
            kind: 'evaluation-criteria',
            scale: { min: 1, max: 10 },
            categories: [
              { id: 'problem', name: 'P', weight: 0.7, criteria: [{ id: 'x', name: 'X', description: 'x', scale: { low: 'l', high: 'h' } }] },
              { id: 'risk', name: 'R', weight: 0.2, criteria: [{ id: 'x', name: 'X', description: 'x', scale: { low: 'l', high: 'h' } }] },
            ],
          },
        },
        types: { file: 'taxonomy/idea-types.md', data: { kind: 'idea-types', types: [{ id: 'research', name: 'R', description: 'r', focus: ['markets'] }] } },
        tags: { file: 'taxonomy/tags.md', data: { kind: 'tags', categories: [{ id: 'domain', name: 'D', tags: [{ id: 5 }] }] } },
      });
    } catch (error) {
      expect(error).toBeInstanceOf(TaxonomyError);
      problems = (error as TaxonomyError).problems;
    }
    expect(problems).toEqual([
      'taxonomy/lifecycle-stages.md: stages[0].id: must be an upper-case code such as SPARK',
      'taxonomy/tags.md: categories[0].tags[0].id: Invalid input: expected string, received number',
      'taxonomy/evaluation-criteria.md: categories: weights add up to 0.9000, they must add up to 1',
      'taxonomy/evaluation-criteria.md: criteria: the id x appears twice',
      'taxonomy/idea-types.md: types[0].focus[0]: unknown category markets',
    ]);
  });
});
