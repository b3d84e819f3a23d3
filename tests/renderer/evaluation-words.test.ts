import { describe, expect, it } from 'vitest';
import { entryParts, phaseTerm } from '../../renderer/src/views/evaluation/entry-words';
import {
  lockTone,
  phaseWords,
  showsPhase,
  statusClass,
  stopReasonWords,
} from '../../renderer/src/views/evaluation/format';
import {
  confidenceSentence,
  lockSentence,
  strongestAndWeakest,
} from '../../renderer/src/views/evaluation/outcome-words';
import { glossaryEntry, plainWords } from '../../renderer/src/ui/glossary';
import { PHASES, RECOMMENDATIONS, LOCK_REASONS } from '../../core/evaluation/vocabulary';

// The evaluation views' words: codes become plain words with the code kept for the tooltip, and a
// lock is green only when its scores converged.

const locked = { status: 'completed' as const, live: false, stopRequested: false };

describe('the colour of a lock', () => {
  it('is green for converged scores, amber for a limit, neutral by hand', () => {
    expect(statusClass({ ...locked, lockReason: 'CONVERGENCE' })).toBe('badge ok');
    expect(statusClass({ ...locked, lockReason: 'MAX_ROUNDS' })).toBe('badge warn');
    expect(statusClass({ ...locked, lockReason: 'BUDGET' })).toBe('badge warn');
    expect(statusClass({ ...locked, lockReason: 'USER_APPROVED' })).toBe('badge');
    expect(statusClass({ ...locked, lockReason: null })).toBe('badge');
    expect(lockTone('TIMEOUT')).toBe('warn');
  });
});

describe('the glossary of an evaluation', () => {
  it('has plain words for every phase, recommendation and lock reason', () => {
    for (const code of [...PHASES.map(phaseTerm), ...RECOMMENDATIONS, ...LOCK_REASONS]) {
      const entry = glossaryEntry(code);
      expect(entry, code).not.toBeNull();
      expect(entry?.plain, code).not.toBe(code);
    }
    // The evaluation's FAILED is not the council's.
    expect(glossaryEntry(phaseTerm('FAILED'))?.sentence).toMatch(/evaluation/);
  });
});

describe('entryParts', () => {
  it('turns a phase change and nucleation into words with their codes', () => {
    const parts = entryParts({
      type: 'phase_changed',
      title: 'PENDING → EVALUATING',
      text: 'nucleation: 6 evaluators score in parallel',
    });
    expect(parts).toEqual({
      title: [{ term: 'PENDING', code: 'PENDING' }, ' → ', { term: 'EVALUATING', code: 'EVALUATING' }],
      text: [{ term: 'nucleation', code: 'nucleation' }, ': 6 evaluators score in parallel'],
    });
    expect(plainWords('nucleation')).toBe('first scores');
  });

  it('turns a lock’s reason into words, in the phase change and in the lock', () => {
    expect(
      entryParts({ type: 'phase_changed', title: 'REVIEWING → LOCKED', text: 'crystallized: MAX_ROUNDS' }).text,
    ).toEqual(['locked: ', { term: 'MAX_ROUNDS', code: 'MAX_ROUNDS' }]);
    expect(entryParts({ type: 'evaluation_locked', title: 'Locked: CONVERGENCE', text: 'overall 6.10 / 10' })).toEqual({
      title: ['Locked: ', { term: 'CONVERGENCE', code: 'CONVERGENCE' }],
      text: ['overall 6.10 / 10'],
    });
    expect(entryParts({ type: 'phase_changed', title: 'DEBATING → FAILED', text: 'boom' }).title[2]).toEqual({
      term: 'evaluation-failed',
      code: 'FAILED',
    });
  });

  it('leaves other entries as they are', () => {
    expect(entryParts({ type: 'ruling', title: 'Ruling · Market size', text: 'The evaluator holds.' })).toEqual({
      title: ['Ruling · Market size'],
      text: ['The evaluator holds.'],
    });
  });
});

describe('the outcome card’s words', () => {
  const c = (name: string, score: number | null) => ({ id: name, name, score });
  it('picks the strongest and weakest criteria, never one in both', () => {
    const criteria = [c('a', 5), c('b', 9), c('c', 2), c('d', null), c('e', 9), c('f', 4), c('g', 7)];
    const { strongest, weakest } = strongestAndWeakest(criteria, 2);
    expect(strongest.map((x) => x.name)).toEqual(['b', 'e']);
    expect(weakest.map((x) => x.name)).toEqual(['c', 'f']);
    const few = strongestAndWeakest([c('a', 5), c('b', 6), c('c', 7)], 3);
    expect({ s: few.strongest.map((x) => x.name), w: few.weakest.map((x) => x.name) }).toEqual({ s: ['c'], w: ['a'] });
  });

  it('says a lock on a limit is provisional, and where the confidence stands against its threshold', () => {
    expect(lockSentence('MAX_ROUNDS', false)).toMatch(
      /round limit before its scores converged: read them as provisional/,
    );
    expect(lockSentence('CONVERGENCE', true)).toMatch(/converged/);
    expect(lockSentence('USER_APPROVED', false)).toMatch(/provisional/);
    expect(confidenceSentence(0.63, 0.7)).toBe(
      '0.63 of 1, below the 0.70 an evaluation needs for its scores to count as settled.',
    );
    expect(confidenceSentence(0.81, 0.7)).toMatch(/^0.81 of 1, at or above/);
  });
});

describe('the live view header', () => {
  const run = (over: Partial<Parameters<typeof showsPhase>[0]>) => ({
    status: 'running' as const,
    live: true,
    stopRequested: false,
    lockReason: null,
    phase: 'DEBATING',
    ...over,
  });

  it('shows the phase only where it adds to the status (not "locked locked", not "failed failed")', () => {
    expect(showsPhase(run({}))).toBe(true);
    expect(showsPhase(run({ status: 'paused', live: false }))).toBe(true);
    expect(showsPhase(run({ status: 'completed', live: false, phase: 'LOCKED', lockReason: 'MAX_ROUNDS' }))).toBe(
      false,
    );
    expect(showsPhase(run({ status: 'completed', live: false, phase: 'REVIEWING' }))).toBe(false);
    expect(showsPhase(run({ status: 'failed', live: false, phase: 'FAILED' }))).toBe(false);
  });

  it('says why it stopped in words, a failure in its own', () => {
    expect(stopReasonWords('cancelled')).toBe('you stopped it');
    expect(stopReasonWords('app closed')).toBe('the app was closed while it ran');
    expect(stopReasonWords('review gate')).toBe('held for your review (the pipeline’s review gate)');
    expect(stopReasonWords('interrupted')).toBe('interrupted: the app stopped while it ran');
    expect(stopReasonWords('the provider refused the request')).toBe('the provider refused the request');
  });
});

describe('phaseWords', () => {
  it('says a phase in words for a line of text (the idea page’s link to a running evaluation)', () => {
    expect(phaseWords('DEBATING')).toBe('red team debating');
    expect(phaseWords('FAILED')).toBe('failed');
    expect(phaseWords('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });
});
