import { describe, expect, it } from 'vitest';
import {
  clusterGraph,
  edgesAmong,
  type GraphEdge,
  type GraphIdea,
  mostLinked,
  neighbourhood,
} from '../../renderer/src/views/graph/graph-model';

// The graph of a large library: groups with the relationships between them counted, one group's
// most connected ideas, one idea's neighbourhood.

const idea = (slug: string, stage: string, type: string | null = 'tool'): GraphIdea => ({
  slug,
  title: slug.toUpperCase(),
  stage,
  type,
});
const edge = (source: string, target: string, type = 'related'): GraphEdge => ({
  id: `${source}|${type}|${target}`,
  source,
  target,
  type,
  strength: null,
  reason: null,
});

const IDEAS = [
  idea('a', 'SPARK'),
  idea('b', 'SPARK'),
  idea('c', 'RESEARCH', null),
  idea('d', 'RESEARCH'),
  idea('e', 'TEST', 'business'),
];
const BY_SLUG = new Map(IDEAS.map((i) => [i.slug, i]));
const EDGES = [edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd'), edge('d', 'e'), edge('e', 'gone')];

describe('clusterGraph', () => {
  it('counts the ideas of each group, the links inside it and the links between groups, in the taxonomy’s order', () => {
    const slugs = [...IDEAS.map((i) => i.slug), 'gone'];
    expect(clusterGraph(slugs, EDGES, BY_SLUG, 'stage', ['SPARK', 'RESEARCH', 'TEST'])).toEqual({
      clusters: [
        { id: 'SPARK', size: 2, inside: 1 },
        { id: 'RESEARCH', size: 2, inside: 1 },
        { id: 'TEST', size: 1, inside: 0 },
        { id: '(missing)', size: 1, inside: 0 },
      ],
      edges: [
        { id: 'RESEARCH|SPARK', source: 'RESEARCH', target: 'SPARK', count: 2 },
        { id: '(missing)|TEST', source: '(missing)', target: 'TEST', count: 1 },
        { id: 'RESEARCH|TEST', source: 'RESEARCH', target: 'TEST', count: 1 },
      ],
    });
  });

  it('groups by type, an idea without one in its own group, and leaves out links to ideas not shown', () => {
    const { clusters, edges } = clusterGraph(['a', 'c', 'e'], EDGES, BY_SLUG, 'type');
    expect(clusters).toEqual([
      { id: '(no type)', size: 1, inside: 0 },
      { id: 'business', size: 1, inside: 0 },
      { id: 'tool', size: 1, inside: 0 },
    ]);
    // Only a–c has both ends among the ideas shown: it crosses from a tool to an idea without a type.
    expect(edges.map((e) => `${e.id}:${e.count}`)).toEqual(['(no type)|tool:1']);
  });
});

describe('mostLinked and neighbourhood', () => {
  it('keeps the most connected ideas first, ties by slug', () => {
    expect(mostLinked(['a', 'b', 'c', 'd', 'e'], EDGES, 3)).toEqual(['d', 'a', 'b']);
  });

  it('walks out from one idea, nearest first, until the limit', () => {
    expect(neighbourhood('a', EDGES, 10, 1)).toEqual(['a', 'b', 'c']);
    expect(neighbourhood('a', EDGES, 10)).toEqual(['a', 'b', 'c', 'd']);
    expect(neighbourhood('a', EDGES, 10, 3)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(neighbourhood('a', EDGES, 2)).toEqual(['a', 'b']);
    expect(edgesAmong(EDGES, new Set(neighbourhood('a', EDGES, 10)))).toEqual([
      edge('a', 'b'),
      edge('a', 'c'),
      edge('b', 'd'),
      edge('c', 'd'),
    ]);
  });
});
