import { describe, expect, it } from 'vitest';
import { normalise } from './normalise';

describe('normalise', () => {
  it('names the fresh ids, the temporary path, the instants and the durations, and leaves every other byte', () => {
    const text = JSON.stringify(
      {
        id: '01m8d7smjmw7etx08ewzhvzed2',
        log: '/tmp/crucible-x/lab/ideas/a/debates/01m8d7smjmw7etx08ewzhvzed2.jsonl',
        createdAt: '2026-11-27T00:51:57.653Z',
        durationMs: 55,
        falsifier: { deadline: '2027-12-31', threshold: 'below 40%' },
        note: 'created: 2026-11-27T00:51:57Z, durationMs 12',
        stale: 'its confidence 0.76 has decayed to 0.76; it may be stale from 2027-02-10',
        other: '01m8d7smjmw7etx08ewzhvzed3',
      },
      null,
      2,
    );
    const known = { '/tmp/crucible-x/lab': '<workspace>', '01m8d7smjmw7etx08ewzhvzed2': '<debate-id>' };
    expect(JSON.parse(normalise(text, known))).toEqual({
      id: '<debate-id>',
      log: '<workspace>/ideas/a/debates/<debate-id>.jsonl',
      createdAt: '<timestamp>',
      durationMs: '<duration-ms>',
      falsifier: { deadline: '2027-12-31', threshold: 'below 40%' },
      note: 'created: <timestamp>, durationMs 12',
      // Counted from the wall clock at the lock, unlike the deadline above.
      stale: 'its confidence 0.76 has decayed to 0.76; it may be stale from <date>',
      // An id it was not told about is not guessed at: the goldens would show it.
      other: '01m8d7smjmw7etx08ewzhvzed3',
    });
  });

  it('refuses an empty value, which would otherwise insert its placeholder between every character', () => {
    expect(() => normalise('abc', { '': '<workspace>' })).toThrow('the value for <workspace> is empty');
  });
});
