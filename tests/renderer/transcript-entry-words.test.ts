import { describe, expect, it } from 'vitest';
import type { EvaluationEntry } from '../../core/contract';
import { entryWordsText } from '../../renderer/src/views/evaluation/entry-words';
import { entrySearchText } from '../../renderer/src/views/transcripts/entry-search';

// An evaluation's transcript shows its phases in words while its log keeps the codes: the find must
// match an entry by what the row shows and by what the log says.

const entry = (over: Partial<EvaluationEntry>): EvaluationEntry => ({
  seq: 1,
  type: 'phase_changed',
  at: null,
  column: 'transcript',
  round: null,
  agent: null,
  title: 'PENDING → EVALUATING',
  text: 'nucleation: 6 evaluators score in parallel',
  criterion: null,
  severity: null,
  winner: null,
  scoreBefore: null,
  scoreAfter: null,
  challengeId: null,
  dropped: null,
  ...over,
});

describe('an evaluation entry in words', () => {
  it('says a phase change in words', () => {
    expect(entryWordsText(entry({}))).toBe(
      'about to start → first scoring: first scores: 6 evaluators score in parallel',
    );
    expect(entryWordsText(entry({ title: 'REVIEWING → LOCKED', text: 'crystallized: MAX_ROUNDS' }))).toBe(
      'writing the verdict → locked: locked: round limit reached',
    );
  });

  it('is found by its codes and by its words', () => {
    const text = entrySearchText(entry({}));
    expect(text).toContain('PENDING → EVALUATING');
    expect(text).toContain('about to start → first scoring');
  });

  it('is searched once where words and log agree', () => {
    const ruling = entry({ type: 'ruling', title: 'Ruling · Market size', text: 'The evaluator holds.' });
    expect(entrySearchText(ruling)).toBe('Ruling · Market size: The evaluator holds.');
  });
});
