import { describe, expect, it } from 'vitest';
import type { CruxNode } from '../../core/contract';
import { reviewWords } from '../../renderer/src/views/crux-map/history-words';

// The crux map's side panel: each challenge of a crux and the crystallizer's answer, with the crux as
// it stood before.

type Review = CruxNode['history'][number];
const names: Record<string, string> = { ben: 'Ben' };
const name = (id: string) => names[id] ?? id;

describe('a crux’s history in words', () => {
  it('says who challenged it and why, what the crystallizer answered, and what it was', () => {
    const sent: Review = {
      challenge: { messageId: 'm30', agent: 'ben', reason: 'NOT_BINARY' },
      outcome: 'NEEDS_CLARIFICATION',
      note: 'Say which tariff: the retail one or the feed-in one.',
      before: { question: 'Will the tariff rise by 2028?', validated: true, validationFailures: [] },
    };
    const redone: Review = {
      challenge: { messageId: 'm41', agent: 'cy', reason: 'MIS_STATED' },
      outcome: 'REEXTRACTED',
      note: null,
      before: {
        question: 'Will the tariff rise?',
        validated: false,
        validationFailures: ['NEEDS_CLARIFICATION', 'FEW_CRITERIA'],
      },
    };
    expect([reviewWords(sent, name), reviewWords(redone, name)]).toEqual([
      {
        challenge: 'Ben challenged it as not a yes/no question (m30)',
        answer: 'the crystallizer asked for clarification: Say which tariff: the retail one or the feed-in one.',
        before: 'Before: “Will the tariff rise by 2028?” (validated)',
      },
      {
        challenge: 'cy challenged it as mis-stated (m41)',
        answer: 'the crystallizer re-extracted it from the thread',
        before:
          'Before: “Will the tariff rise?” (not validated: a debater asked for it to be worded more clearly; fewer than two ways to settle it)',
      },
    ]);
  });
});
