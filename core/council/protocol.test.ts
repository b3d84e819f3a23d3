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

  it("sends each role its persona, the verifier's with the five-point anti-gaming checklist, and starts from the seed's weights", () => {
    const setup = councilEntry.setup.parse({ task: 'Note the resume conditions', idea: 'soil-moisture-lora' });
    const protocol = councilEntry.protocol(setup, { now: () => 0, resources: NO_RESOURCES });
    let state = councilEntry.init(setup, NO_RESOURCES);
    const systems: Record<string, string> = {};
    for (let guard = 0; guard < 3; guard++) {
      const ask = protocol.asks(state, { degraded: new Set(), pending: [] }).asks[0] as CouncilAsk;
      const request = protocol.request(state, ask);
      systems[ask.agent] = request.system ?? '';
      const answer = request.schema.parse(councilSimulator.answer(3, request.brief as never));
      state = protocol.step(state, protocol.answer(state, ask, answer)).state;
    }
    const checklist = (text: string) => [1, 2, 3, 4, 5].filter((n) => text.includes(`\n${n}. `)).length;
    const { executor, verifier, integrator } = state.weights;
    expect({
      checklist: [
        checklist(systems.executor ?? ''),
        checklist(systems.verifier ?? ''),
        checklist(systems.integrator ?? ''),
      ],
      roles: Object.entries(systems).map(([agent, text]) => text.includes(`You are the ${agent}`)),
      weights: [
        [executor.exploration, executor.efficiency, executor.truth, executor.safety],
        [verifier.truth, verifier.safety, verifier.autonomy, verifier.coherence],
        [integrator.coherence, integrator.cooperation, integrator.transparency, integrator.truth],
      ],
    }).toEqual({
      checklist: [0, 5, 0],
      roles: [true, true, true],
      weights: [
        [0.8, 0.75, 0.9, 0.5],
        [1, 0.9, 0.7, 0.5],
        [0.85, 0.85, 0.9, 0.5],
      ],
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
