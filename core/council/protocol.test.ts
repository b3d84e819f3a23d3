import { describe, expect, it } from 'vitest';
import { NO_RESOURCES } from '../engine/registry';
import type { CouncilAsk, CouncilInput } from './inputs';
import { need } from './lifecycle';
import { councilEntry } from './protocol';
import { councilSimulator } from './simulator';
import type { CouncilState } from './state';

/**
 * The council entry driven the way the runner drives it (asks, requests, answers), with the simulator
 * answering the requests' briefs and this test standing in for the host (executions succeed, the
 * researcher approves): the paths the simulator is meant to show, by seed and task.
 */
function play(task: string, seed: number): { state: CouncilState; asked: string[] } {
  const setup = councilEntry.setup.parse({ task, idea: 'soil-moisture-lora' });
  const protocol = councilEntry.protocol(setup, { now: () => 0, resources: NO_RESOURCES });
  let state = councilEntry.init(setup, NO_RESOURCES);
  const asked: string[] = [];
  for (let guard = 0; guard < 100 && !protocol.done(state); guard++) {
    const n = need(state);
    let input: CouncilInput;
    if (n.kind === 'execute')
      input = {
        kind: 'executed',
        proposal: n.proposal,
        result: { action: n.action, ok: true, detail: '', changes: [] },
      };
    else if (n.kind === 'check')
      input = { kind: 'checked', proposal: n.proposal, postconditions: [{ action: 0, holds: true, detail: '' }] };
    else if (n.kind === 'researcher')
      input = { kind: 'researcher', proposal: n.proposal, decision: 'approve', note: 'ok' };
    else {
      const { asks } = protocol.asks(state, { degraded: new Set(), pending: [] });
      const ask = asks[0] as CouncilAsk;
      const request = protocol.request(state, ask);
      // What the verifier is shown never includes the integrator's vote of the same round.
      if (ask.role === 'review' && ask.agent === 'verifier')
        expect(request.messages[0]?.content).not.toContain("The integrator's review");
      const answer = request.schema.parse(councilSimulator.answer(seed, request.brief as never));
      asked.push(`${ask.agent}:${ask.role}`);
      input = protocol.answer(state, ask, answer);
    }
    state = protocol.step(state, input).state;
  }
  return { state, asked };
}

describe('the council entry with its simulator', () => {
  it('plays a consensus, a rejection then a revision, a compromise, and a case for the researcher', () => {
    const summary = (task: string, seed: number) => {
      const { state } = play(task, seed);
      const r = councilEntry.summary(state) as {
        status: string;
        proposals: { ladder: number; decidedBy: string; stakes: string }[];
      };
      return [r.status, r.proposals.map((p) => `${p.stakes} ladder ${p.ladder} by ${p.decidedBy}`)];
    };
    expect({
      consensus: summary('Note the resume conditions', 3),
      revision: summary('Note the resume conditions', 2),
      compromise: summary('Note the resume conditions', 1),
      researcher: summary('Archive it', 3),
    }).toEqual({
      consensus: ['COMPLETED', ['medium ladder 0 by consensus']],
      revision: ['COMPLETED', ['medium ladder 1 by consensus']],
      compromise: ['COMPLETED', ['medium ladder 2 by consensus']],
      researcher: ['COMPLETED', ['high ladder 0 by researcher']],
    });
  });

  it('asks each agent in the lifecycle order: the verifier before the integrator, the episode last', () => {
    expect(play('Note the resume conditions', 3).asked).toEqual([
      'executor:proposal',
      'verifier:review',
      'integrator:review',
      'verifier:outcome',
      'executor:proposal',
      'integrator:episode',
    ]);
  });
});
