import { describe, expect, it } from 'vitest';
import { BLOCK_REASONS, INTERVENTION_KINDS, THREAD_STATUSES } from '../../core/crux/vocabulary';
import { glossaryEntry, plainWords } from '../../renderer/src/ui/glossary';

/**
 * Every code the crux engine puts on a message or a thread that the debate view and the transcript
 * show as a badge: each must have plain words and a sentence in the glossary, or the page shows the
 * raw code ("blocked: stageRestriction") with a (?) that leads nowhere.
 */
describe('the crux protocol’s codes in the glossary', () => {
  it.each([...BLOCK_REASONS, ...INTERVENTION_KINDS, ...THREAD_STATUSES])('%s has words and a sentence', (code) => {
    const entry = glossaryEntry(code);
    expect(entry, code).not.toBeNull();
    expect(plainWords(code)).not.toBe(code);
    expect(entry?.sentence.length).toBeGreaterThan(30);
  });

  it('says a refused message was refused, and why, in words', () => {
    expect(BLOCK_REASONS.map((r) => plainWords(r))).toEqual([
      'refused: the thread is closed',
      'refused: not allowed at this stage',
      'refused: too many replies to one message',
      'refused: not a well-formed move',
      'refused: steelman the other side first',
      'refused: the falsifier is vague',
    ]);
  });
});
