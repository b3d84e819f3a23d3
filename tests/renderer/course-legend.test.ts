import { describe, expect, it } from 'vitest';
import { dcgSeriesNames } from '../../renderer/src/views/convergence/course-data';

// The DCG chart's legend names each line by its crux question, not by the thread's id.

const QUESTION = 'Will the community-owned solar co-op meet its stated target for member savings within 18 months?';

describe('dcgSeriesNames', () => {
  it('names both lines by the question, shortened, the whole and the id for the tooltip', () => {
    const names = dcgSeriesNames({ id: 't1', question: QUESTION, topic: 'solar co-op', primary: true });
    expect(names.provisional).toBe('“Will the community-owned solar co-op…” so far');
    expect(names.final).toBe('“Will the community-owned solar co-op…” (primary crux)');
    expect(names.title).toBe(`${QUESTION} (thread t1)`);
    expect(`${names.provisional} ${names.final}`).not.toMatch(/\bt1\b/);
  });

  it('falls back to the topic while the thread has no question, and names a crux that is not primary plainly', () => {
    const names = dcgSeriesNames({ id: 't2', question: null, topic: 'member savings', primary: false });
    expect(names).toEqual({
      provisional: '“member savings” so far',
      final: '“member savings”',
      title: 'member savings (thread t2)',
    });
  });
});
