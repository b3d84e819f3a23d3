import { describe, expect, it } from 'vitest';
import { wordDiff } from './word-diff';

describe('wordDiff', () => {
  it('marks the words a new version removed and added, and keeps the rest in runs', () => {
    const before = 'Start with a pilot in two sections. Log hours.';
    const after = 'Start with a small pilot in three sections.\nLog hours and cost.';
    const parts = wordDiff(before, after);
    expect(parts).toEqual([
      { op: 'same', text: 'Start with a ' },
      { op: 'added', text: 'small ' },
      { op: 'same', text: 'pilot in ' },
      { op: 'removed', text: 'two ' },
      { op: 'added', text: 'three ' },
      // "hours." is not "hours": the word with its full stop is what changed.
      { op: 'same', text: 'sections.\nLog ' },
      { op: 'removed', text: 'hours.' },
      { op: 'added', text: 'hours and cost.' },
    ]);
    // The kept and added parts are the new text, spacing included.
    expect(
      parts
        .filter((p) => p.op !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe(after);
  });

  it('says an unchanged text is kept whole, and an emptied one removed', () => {
    expect(wordDiff('same words', 'same words')).toEqual([{ op: 'same', text: 'same words' }]);
    expect(wordDiff('gone now', '')).toEqual([{ op: 'removed', text: 'gone now' }]);
    expect(wordDiff('', '')).toEqual([]);
  });
});
