import { describe, expect, it } from 'vitest';
import { earlyOutcome, earlyOutcomeRefusal } from './early-outcome';

const falsifier = {
  agentName: 'Regulator',
  metric: 'members',
  threshold: '< 200',
  deadline: 'end of 2027',
  deadlineDate: '2027-12-31',
};

describe('outcomes ahead of a deadline', () => {
  it('refuses survived, asks for ambiguous and void, lets falsified through, and holds nothing back undated', () => {
    expect(earlyOutcome('survived', '2027-12-30', '2027-12-31')).toBe('refuse');
    expect(earlyOutcome('ambiguous', '2027-12-30', '2027-12-31')).toBe('ask');
    expect(earlyOutcome('void', '2027-12-30', '2027-12-31')).toBe('ask');
    expect(earlyOutcome('falsified', '2027-12-30', '2027-12-31')).toBeNull();
    expect(earlyOutcome('survived', '2027-12-31', '2027-12-31')).toBeNull();
    expect(earlyOutcome('survived', '2020-01-01', null)).toBeNull();
  });

  it('says why in words that name the falsifier and its deadline', () => {
    expect(earlyOutcomeRefusal(falsifier, 'survived', '2026-12-31', '2027-01-10', true)).toBe(
      `"survived" means the deadline passed without the threshold being crossed, but Regulator's falsifier (members < 200 by end of 2027) is due 2027-12-31, after 2026-12-31: record it on or after 2027-12-31, or as falsified if the threshold was crossed`,
    );
    expect(earlyOutcomeRefusal(falsifier, 'void', '2026-12-31', '2027-01-10', false)).toContain(
      'to record it as void ahead of its deadline, say so (early: true; --early on the command line)',
    );
    expect(earlyOutcomeRefusal(falsifier, 'void', '2026-12-31', '2027-01-10', true)).toBeNull();
    expect(earlyOutcomeRefusal(falsifier, 'falsified', '2027-01-11', '2027-01-10', false)).toContain(
      '2027-01-11 has not come yet (today is 2027-01-10)',
    );
    expect(earlyOutcomeRefusal(falsifier, 'survived', '2028-01-02', '2028-01-10', false)).toBeNull();
  });
});
