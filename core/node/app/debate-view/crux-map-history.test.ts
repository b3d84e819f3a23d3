import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA } from '../../../../tests/helpers/app-harness';
import type { Channel } from '../../../contract';
import type { CruxResult } from '../../../crux/result';
import { DebateService } from '../../debates/debate-service';
import { Workspace } from '../../workspace/workspace';

// Self-correction as the app shows it: a crux an agent challenged keeps its history on the crux map
// (debates:cruxMap), the same reviews its result and transcript hold. Seed 5 of these three agents
// on the solar co-op: the investor challenges t1 as not decision-relevant and the crystallizer asks
// for clarification.

describe('the crux map of a debate whose crux was challenged', () => {
  const t = appPerTest('crucible-crux-history-', new Set<Channel>());

  it('carries each review of the crux, and none on a crux nobody challenged', async () => {
    const ws = Workspace.open(t.root);
    let id = '';
    let result: CruxResult;
    try {
      ws.sync();
      const run = await new DebateService(ws).start({
        ideaSlug: IDEA,
        agents: ['ethicist', 'investor', 'regulator'],
        provider: 'simulated',
        seed: 5,
      });
      id = run.id;
      result = run.outcome.result as CruxResult;
    } finally {
      ws.close();
    }
    const app = await t.boot();
    const map = await t.call(app, 'debates:cruxMap', { id });
    const t1 = map.cruxes.find((c) => c.id === 'crux:t1');
    const history = result.threads.find((th) => th.id === 't1')?.crux?.history;
    expect({
      history: t1?.history.map((r) => [r.challenge.reason, r.outcome, r.before.validated]),
      validated: t1?.validated,
      failures: t1?.validationFailures,
    }).toEqual({
      history: [['NOT_DECISION_RELEVANT', 'NEEDS_CLARIFICATION', true]],
      validated: false,
      failures: expect.arrayContaining(['NEEDS_CLARIFICATION']),
    });
    expect(t1?.history).toEqual(history);
    expect(map.cruxes.filter((c) => c.id !== 'crux:t1').every((c) => c.history.length === 0)).toBe(true);
  });
});
