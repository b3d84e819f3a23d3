import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import { emptySections, findGaps } from './gaps';
import { answerQuestion, appendQuestions, readQuestions } from './questions';

const FILE = `---
kind: development
---
# Development — Solar

Some notes of my own that must survive.

### Q: Who pays for the panels?
<!-- asked: 2026-01-02; source: ai; gap: problem-clarity -->

The members, through shares.

### Q: How long is the roof lease?
<!-- asked: 2026-01-03; source: user; gap: execution-risk -->

_Unanswered._
`;

describe('development.md questions', () => {
  it('reads questions with their metadata and whether they are answered', () => {
    expect(readQuestions(FILE)).toEqual([
      { number: 1, question: 'Who pays for the panels?', asked: '2026-01-02', source: 'ai', gap: 'problem-clarity', answer: 'The members, through shares.' },
      { number: 2, question: 'How long is the roof lease?', asked: '2026-01-03', source: 'user', gap: 'execution-risk', answer: null },
    ]);
  });

  it('appends new questions and records an answer without touching anything else', () => {
    const more = appendQuestions(FILE, [{ question: 'Which roofs first?', gap: 'Problem' }], '2026-02-01');
    const answered = answerQuestion(more, 2, 'Twenty years, renewable.');
    expect(answered).toBe(
      FILE.replace('_Unanswered._\n', 'Twenty years, renewable.\n') +
        '\n### Q: Which roofs first?\n<!-- asked: 2026-02-01; source: ai; gap: Problem -->\n\n_Unanswered._\n',
    );
    expect(readQuestions(answered).map((q) => q.answer !== null)).toEqual([true, true, false]);
    expect(() => answerQuestion(FILE, 5, 'x')).toThrow(/no question 5 \(the file has 2\)/);
  });
});

describe('gaps', () => {
  it('puts empty README sections first, then unscored or unsure criteria, skipping what was asked', () => {
    const readme = '# Solar\n\n## Problem\n\n_What hurts?_\n\n## Who it is for\n\nTenants of flat roofs.\n';
    expect(emptySections(readme)).toEqual(['Problem']);
    const asked = readQuestions(FILE);
    expect(findGaps(readme, testTaxonomy(), null, asked)).toEqual(['Problem']);
    expect(findGaps(readme, testTaxonomy(), { 'problem-clarity': { score: 6, confidence: 0.9 }, 'execution-risk': { score: 5, confidence: 0.4 } }, [])).toEqual([
      'Problem',
      'execution-risk',
    ]);
  });
});
