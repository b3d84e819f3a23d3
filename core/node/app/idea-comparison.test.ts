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

  it('names a crux that debates of two or more of the ideas reached, as words, and only crystallized ones', async () => {
    const cruxes: CruxOfIdea[] = [
      { ideaSlug: 'alpha', question: 'Will buyers pay for maintenance?', crystallized: true },
      { ideaSlug: 'beta', question: '  will buyers  PAY for maintenance ', crystallized: true },
      { ideaSlug: 'gamma', question: 'Will buyers pay for maintenance?', crystallized: false },
      { ideaSlug: 'alpha', question: 'Is the permit process short?', crystallized: true },
      { ideaSlug: 'other', question: 'Is the permit process short?', crystallized: true },
    ];
    // Only the fields a comparison reads; the rest of a detail does not matter here.
    const evaluation = { id: 'e', categories: [], criteria: [], stale: true } as unknown as EvaluationDetail;
    const sources: ComparisonSources = { currentEvaluation: () => evaluation, cruxes: () => cruxes };
    const view = await compareIdeas(ws, sources, ['alpha', 'beta', 'gamma']);
    expect({
      shared: view.sharedCruxes,
      each: view.ideas.map((i) => [i.slug, i.cruxes, i.stale]),
    }).toEqual({
      shared: [{ question: 'Will buyers pay for maintenance?', slugs: ['alpha', 'beta'] }],
      each: [
        ['alpha', ['Will buyers pay for maintenance?', 'Is the permit process short?'], true],
        ['beta', ['  will buyers  PAY for maintenance '], true],
        ['gamma', [], true],
      ],
    });
  });
});
