import { describe, expect, it } from 'vitest';
import type { CouncilBrief } from '../../core/council/briefs';
import { briefOfRequest } from '../fakes/simulator-responder';
import { misbehavingCouncil } from '../helpers/misbehaving-council';

/**
 * The council against a fake server that answers like a model, slips included, through the real
 * SDK: an answer in prose is read, one cut off or without a call is asked again, and however the
 * answers slip the task ends by itself — completed, or partial with its reason — never with an
 * exception out of the engine.
 */

const TASKS = ['Write down the open questions', 'Archive this idea'] as const;

describe('a council whose model slips', () => {
  it('ends every task itself, the high-stakes one approved by the researcher, when a third of the answers slip', {
    timeout: 120_000,
  }, async () => {
    const runs = [];
    // Seeds 1, 2, 3: the compromise, one revision, agreement at once (the simulator's three ways).
    for (const seed of [1, 2, 3])
      for (const task of TASKS)
        runs.push({ seed, task, ...(await misbehavingCouncil({ seed, rate: 0.3, task, approve: true })) });
    expect({
      unended: runs
        .filter(
          (r) =>
            r.exception !== null || !['completed', 'partial'].includes(r.ended) || (r.ended === 'partial' && !r.reason),
        )
        .map((r) => `${r.task}, seed ${r.seed}: ${r.ended} ${r.exception ?? ''}`),
      // With the researcher's approval nothing waits: each task got to its end.
      results: [...new Set(runs.map((r) => r.result))].filter(
        (s) => !['COMPLETED', 'FAILED', 'REJECTED', 'LIMIT'].includes(s ?? ''),
      ),
      slipped: runs.reduce((n, r) => n + Object.values(r.slips).reduce((a, b) => a + (b ?? 0), 0), 0) > 0,
      reasked: runs.some((r) => r.reasks > 0),
      repaired: runs.some((r) => r.repaired > 0),
    }).toEqual({ unended: [], results: [], slipped: true, reasked: true, repaired: true });
  });

  it('ends a task partial, with its reason, when every answer of the verifier slips', { timeout: 60_000 }, async () => {
    const run = await misbehavingCouncil({
      seed: 3,
      rate: 0,
      task: TASKS[0],
      respond: (request, simulated) =>
        (briefOfRequest(request) as CouncilBrief | null)?.agent === 'verifier'
          ? { kind: 'text', text: 'I would rather not say.' }
          : simulated,
    });
    expect([run.ended, run.reason, run.exception, run.failedCalls]).toEqual([
      'partial',
      'no agent is left to take a turn',
      null,
      3,
    ]);
  });
});
