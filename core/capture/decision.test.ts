import { describe, expect, it } from 'vitest';
import { offeredPlacements, placementWords } from './choice';
import { decideLexically } from './decision';
import type { CandidateScore } from './similarity';

const scored = (...scores: number[]): CandidateScore[] =>
  scores.map((score, i) => ({ slug: `idea-${i + 1}`, title: `Idea ${i + 1}`, score, shared: ['word'] }));

describe('the lexical rule', () => {
  it('decides by the thresholds, offers the closest idea as an inspiration when not EXISTING, and never places a title', () => {
    const cases: [string, CandidateScore[], number][] = [
      ['clear leader', scored(0.82, 0.4), 8],
      ['two leaders', scored(0.82, 0.75, 0.61, 0.3), 8],
      ['between', scored(0.45, 0.31, 0.2), 8],
      ['close but new', scored(0.25, 0.1), 8],
      ['far', scored(0.12), 8],
      ['nothing shared', scored(0, 0), 8],
      ['a title', scored(1), 2],
    ];
    const decided = cases.map(([name, ranked, terms]) => {
      const c = decideLexically(ranked, terms, 'id');
      return [
        name,
        c.decision,
        c.slug,
        c.candidates.map((x) => x.slug),
        c.inspiredBy,
        offeredPlacements(c).map(placementWords),
      ];
    });
    expect(decided).toEqual([
      ['clear leader', 'EXISTING', 'idea-1', ['idea-1', 'idea-2'], null, ['existing:idea-1', 'inspired:idea-1', 'new']],
      [
        'two leaders',
        'AMBIGUOUS',
        null,
        ['idea-1', 'idea-2'],
        'idea-1',
        ['existing:idea-1', 'existing:idea-2', 'inspired:idea-1', 'new'],
      ],
      [
        'between',
        'AMBIGUOUS',
        null,
        ['idea-1', 'idea-2'],
        'idea-1',
        ['existing:idea-1', 'existing:idea-2', 'inspired:idea-1', 'new'],
      ],
      ['close but new', 'NEW', null, ['idea-1', 'idea-2'], 'idea-1', ['new', 'inspired:idea-1']],
      ['far', 'NEW', null, ['idea-1'], null, ['new']],
      ['nothing shared', 'NEW', null, [], null, ['new']],
      ['a title', 'NEW', null, ['idea-1'], 'idea-1', ['new', 'inspired:idea-1']],
    ]);
  });
});
