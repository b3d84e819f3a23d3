import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadlineDay } from '../core/ledger/deadline';

/**
 * A relative deadline counts from the debate's day where the researcher is, the day the ledger's
 * "today" and its resolutions use: otherwise an evening debate west of UTC gets a deadline a day
 * late, and "survived" on the real deadline day is refused as early.
 */
describe('a relative deadline in the researcher’s time zone', () => {
  const was = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Pacific/Honolulu';
  });
  afterEach(() => {
    if (was === undefined) delete process.env.TZ;
    else process.env.TZ = was;
  });

  it('counts from the local day of a debate started at 23:00 in UTC−10', () => {
    const start = new Date(2026, 2, 15, 23, 0); // 15 March, 23:00 local: 16 March in UTC
    expect(start.toISOString().slice(0, 10)).toBe('2026-03-16');
    expect(deadlineDay('within 18 months', start)).toBe('2027-09-15');
    expect(deadlineDay('in 30 days', start)).toBe('2026-04-14');
  });
});
