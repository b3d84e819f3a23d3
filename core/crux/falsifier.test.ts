import { describe, expect, it } from 'vitest';
import { isValidFalsifier, parseFalsifier } from './falsifier';

describe('falsifier validity', () => {
  const base = { metric: 'Output per employee', threshold: 'falls by 5', deadline: '2027-06-30' };

  it('needs non-blank fields, no vague words in metric or threshold, and a checkable threshold', () => {
    const cases: [Partial<typeof base>, boolean][] = [
      [{}, true],
      [{ threshold: 'under half' }, false],
      [{ threshold: '> half' }, true],
      [{ threshold: '≥ half' }, true],
      [{ threshold: '≤ half' }, true],
      [{ threshold: '<= half' }, true],
      [{ threshold: 'equal = par' }, true],
      [{ threshold: 'a fifth %' }, true],
      [{ threshold: 'rises by ٥' }, true], // any decimal digit
      [{ metric: '' }, false],
      [{ metric: '   ' }, false],
      [{ threshold: ' \t' }, false],
      [{ deadline: '' }, false],
      [{ metric: 'Output, generally' }, false],
      [{ threshold: 'probably above 5%' }, false],
      [{ deadline: 'seems like 2027' }, true], // the deadline is not checked for vagueness
    ];
    expect(cases.map(([patch]) => isValidFalsifier({ ...base, ...patch }))).toEqual(cases.map(([, valid]) => valid));
  });
});

describe('reading a falsifier from meta', () => {
  it('separates a wrong shape from missing fields', () => {
    expect(parseFalsifier('soon')).toEqual({
      ok: false,
      reason: 'falsifier must be an object {metric, threshold, deadline, reasoning?}',
    });
    expect(parseFalsifier([])).toMatchObject({ ok: false });
    expect(parseFalsifier({ metric: 'x', threshold: 3 })).toEqual({ ok: false, reason: 'falsifier.threshold must be a string' });
    expect(parseFalsifier({ metric: 'x', reasoning: 1 })).toEqual({ ok: false, reason: 'falsifier.reasoning must be a string' });
    expect(parseFalsifier({ metric: 'x', threshold: null })).toEqual({
      ok: true,
      falsifier: { metric: 'x', threshold: '', deadline: '' },
    });
    expect(parseFalsifier({ metric: 'm', threshold: '> 1', deadline: 'd', reasoning: 'r', extra: 1 })).toEqual({
      ok: true,
      falsifier: { metric: 'm', threshold: '> 1', deadline: 'd', reasoning: 'r' },
    });
  });
});
