import { describe, expect, it } from 'vitest';
import { LEDGER_PREAMBLE, parseLedger, upsertEntry } from './ledger-md';

const entry = {
  key: 'd1/t1/ana',
  outcome: 'survived' as const,
  resolvedOn: '2027-12-31',
  recordedAt: '2028-01-02T09:00:00.000Z',
  falsifier: 'Ana (YES): members ≥ 200 by 2027-12-31',
  note: 'Membership reached 240.\n# not a heading\n- outcome: falsified (quoted, not a field)',
};

describe('ledger.md', () => {
  it('writes an entry that reads back the same, the note kept whole', () => {
    const text = upsertEntry(null, entry);
    expect(text.startsWith(LEDGER_PREAMBLE)).toBe(true);
    const { entries, problems } = parseLedger(text);
    expect(problems).toEqual([]);
    expect(entries.get('d1/t1/ana')).toEqual({ ...entry, line: expect.any(Number) });
  });

  it('replaces the entry for the same falsifier in place and keeps the rest byte for byte', () => {
    const own = '# My ledger\r\n\r\nSome words of my own.\r\n';
    const two = upsertEntry(upsertEntry(own, entry), { ...entry, key: 'd1/t2/ben', note: 'Second.' });
    const again = upsertEntry(two, { ...entry, outcome: 'falsified', note: 'Corrected.' });
    expect(again.startsWith(own)).toBe(true);
    expect(again.includes('\n') && !/[^\r]\n/.test(again)).toBe(true);
    const { entries, problems } = parseLedger(again);
    expect(problems).toEqual([]);
    expect([...entries.keys()]).toEqual(['d1/t1/ana', 'd1/t2/ben']);
    expect(entries.get('d1/t1/ana')).toMatchObject({ outcome: 'falsified', note: 'Corrected.' });
    expect(entries.get('d1/t2/ben')).toMatchObject({ note: 'Second.' });
  });

  it('reports a damaged entry by its line and still reads the others', () => {
    const text = [
      '# Ledger',
      '## d1/t1/ana',
      '- outcome: maybe',
      '- resolved: 2027-01-01',
      '## just a heading',
      '## d1/t1/ben',
      '- outcome: Void',
      '- resolved: 2027-1-1',
      '## d1/t1/cy',
      '- outcome: void',
      '- resolved: 2027-01-01',
      'Moot.',
    ].join('\n');
    const { entries, problems } = parseLedger(text);
    expect(problems.map((p) => p.line)).toEqual([2, 5, 6]);
    expect(problems[0]?.reason).toContain('"maybe" is not one of falsified, survived, ambiguous, void');
    expect([...entries.values()]).toEqual([
      {
        key: 'd1/t1/cy',
        outcome: 'void',
        resolvedOn: '2027-01-01',
        recordedAt: null,
        falsifier: null,
        note: 'Moot.',
        line: 9,
      },
    ]);
  });
});
