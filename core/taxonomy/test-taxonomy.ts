import { buildTaxonomy, type Taxonomy } from './taxonomy';

/** A small valid taxonomy for unit tests that must not read files. */
export function testTaxonomy(): Taxonomy {
  return buildTaxonomy({
    stages: {
      file: 'stages.md',
      data: {
        kind: 'lifecycle-stages',
        stages: ['SPARK', 'RESEARCH', 'ABANDONED'].map((id) => ({ id, name: id, description: id })),
      },
    },
    criteria: {
      file: 'criteria.md',
      data: {
        kind: 'evaluation-criteria',
        scale: { min: 1, max: 10 },
        categories: [
          { id: 'problem', name: 'Problem', weight: 0.5, criteria: [criterion('problem-clarity', true)] },
          { id: 'risk', name: 'Risk', weight: 0.5, criteria: [criterion('execution-risk')] },
        ],
      },
    },
    types: {
      file: 'types.md',
      data: {
        kind: 'idea-types',
        types: [
          { id: 'research', name: 'R', description: 'r' },
          { id: 'technical', name: 'T', description: 't' },
        ],
      },
    },
    tags: {
      file: 'tags.md',
      data: { kind: 'tags', categories: [{ id: 'domain', name: 'D', tags: [{ id: 'energy' }] }] },
    },
  });
}

function criterion(id: string, critical?: boolean) {
  return { id, name: id, description: id, scale: { low: 'bad', high: 'good' }, ...(critical ? { critical } : {}) };
}
