import { describe, expect, it } from 'vitest';
import { RUN_STATUSES } from '../engine/protocol';
import { EVALUATION_STATUSES, evaluationStatusOf } from './evaluations-channels';

describe('evaluationStatusOf', () => {
  it('maps every run status, live or not, stop asked or not, onto the evaluation views’ words', () => {
    const table = RUN_STATUSES.map((status) => [
      status,
      evaluationStatusOf({ status, live: true, stopRequested: false }),
      evaluationStatusOf({ status, live: true, stopRequested: true }),
      evaluationStatusOf({ status, live: false, stopRequested: false }),
    ]);
    expect(table).toEqual([
      ['running', 'running', 'stopping', 'stopped'],
      ['paused', 'stopped', 'stopped', 'stopped'],
      ['completed', 'locked', 'locked', 'locked'],
      ['partial', 'stopped', 'stopped', 'stopped'],
      ['cancelled', 'stopped', 'stopped', 'stopped'],
      ['failed', 'failed', 'failed', 'failed'],
    ]);
    // Every word the evaluation views use is reached from some run status.
    expect(new Set(table.flatMap((row) => row.slice(1)))).toEqual(new Set(EVALUATION_STATUSES));
  });
});
