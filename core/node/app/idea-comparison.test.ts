import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import type { EvaluationDetail } from '../../contract';
import { Workspace } from '../workspace/workspace';
import { type ComparisonSources, type CruxOfIdea, compareIdeas } from './idea-comparison';

// Shared cruxes from a fake of what the debates reached (the handler test compares real evaluations).

describe('the cruxes a comparison shows', () => {
  let ws: Workspace;
  let cleanup: () => void;
  beforeEach(() => {
    const temp = tempWorkspace();
    cleanup = temp.cleanup;
    for (const slug of ['alpha', 'beta', 'gamma']) writeFile(temp.root, `ideas/${slug}/README.md`, readme(slug));
    ws = Workspace.open(temp.root);
    ws.sync();
  });
  afterEach(() => {
    ws.close();
    cleanup();
  });

  it('names a crux that debates of two or more of the ideas reached — one node of the crux graph, or the same words — and only crystallized ones', async () => {
    const cruxes: CruxOfIdea[] = [
      { ideaSlug: 'alpha', question: 'Will buyers pay for maintenance?', crystallized: true, node: 'd1/t1' },
      // Worded otherwise in another debate, held to be the same question by the graph.
      { ideaSlug: 'beta', question: 'Will the buyers pay for its maintenance?', crystallized: true, node: 'd1/t1' },
      { ideaSlug: 'gamma', question: 'Will buyers pay for maintenance?', crystallized: false, node: 'd1/t1' },
      // The same words, yet two nodes: the graph's measure decides.
      { ideaSlug: 'alpha', question: 'Is the permit process short?', crystallized: true, node: 'd1/t2' },
      { ideaSlug: 'gamma', question: 'Is the permit process short?', crystallized: true, node: 'd3/t1' },
      // Outside the graph, the words decide (case, spacing and the question mark aside).
      { ideaSlug: 'beta', question: 'Can one volunteer run it?', crystallized: true, node: null },
      { ideaSlug: 'gamma', question: '  can one VOLUNTEER run it ', crystallized: true, node: null },
      { ideaSlug: 'other', question: 'Can one volunteer run it?', crystallized: true, node: null },
    ];
    // Only the fields a comparison reads; the rest of a detail does not matter here.
    const evaluation = { id: 'e', categories: [], criteria: [], stale: true } as unknown as EvaluationDetail;
    const sources: ComparisonSources = { currentEvaluation: () => evaluation, cruxes: () => cruxes };
    const view = await compareIdeas(ws, sources, ['alpha', 'beta', 'gamma']);
    expect({
      shared: view.sharedCruxes,
      each: view.ideas.map((i) => [i.slug, i.cruxes, i.stale]),
    }).toEqual({
      shared: [
        { question: 'Will buyers pay for maintenance?', slugs: ['alpha', 'beta'] },
        { question: 'Can one volunteer run it?', slugs: ['beta', 'gamma'] },
      ],
      each: [
        ['alpha', ['Will buyers pay for maintenance?', 'Is the permit process short?'], true],
        ['beta', ['Will the buyers pay for its maintenance?', 'Can one volunteer run it?'], true],
        ['gamma', ['Is the permit process short?', '  can one VOLUNTEER run it '], true],
      ],
    });
  });
});
