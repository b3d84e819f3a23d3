import { describe, expect, it } from 'vitest';
import { jaccard, lexicalScore, lexicalTerms, lexicalTokens } from './similarity';

describe('lexical similarity', () => {
  it('reads Unicode letter and digit runs as lowercased tokens, with unigrams and bigrams as terms', () => {
    expect({
      tokens: lexicalTokens("Élève's A-level: 61% — naïve Straße, 二零二四年 hindī हिन्दी Cafe\u0301 ok"),
      terms: [...lexicalTerms('Log hours. Log hours!')].sort(),
    }).toEqual({
      tokens: ['élève', 's', 'a', 'level', '61', 'naïve', 'straße', '二零二四年', 'hindī', 'हिन्दी', 'café', 'ok'],
      terms: ['hours', 'hours log', 'log', 'log hours'],
    });
  });

  it('is Jaccard over those terms, 0 for two empty texts, and the mean over every pair', () => {
    const p = (title: string, summary: string, body: string) => ({ title, summary, body });
    // 8 shared terms of 14 (docs/arena-protocol.md, the split script), 4 of 18 twice.
    const three = [
      p('Pilot quizzes', 'Two sections.', 'Log hours.'),
      p('Pilot quizzes', 'Three sections.', 'Log hours.'),
      p('Randomize sections', 'Delayed test.', 'Log hours.'),
    ];
    expect({
      empty: jaccard(new Set(), new Set()),
      same: lexicalScore([p('a b', '', ''), p('A  B', '', '')]),
      three: lexicalScore(three),
      one: lexicalScore(three.slice(0, 1)),
    }).toEqual({ empty: 0, same: 1, three: (8 / 14 + 4 / 18 + 4 / 18) / 3, one: 0 });
  });
});
