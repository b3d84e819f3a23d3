import { describe, expect, it } from 'vitest';
import type { CruxMap, CruxNode } from '../../core/contract';
import { elementsOf, leanOf, sidesLayout } from '../../renderer/src/views/crux-map/map-elements';

// The crux map laid out by side, with labelled lines (issue 22).

function crux(
  id: string,
  primary: boolean,
  positions: [string, 'YES' | 'NO' | 'UNCERTAIN', number | null][],
): CruxNode {
  return {
    id: `crux:${id}`,
    thread: id,
    kind: 'crux',
    question: `Will ${id} happen by 2030?`,
    threadStatus: 'CONVERGED',
    crystallized: true,
    validated: true,
    primary,
    dcg: 0.4,
    validationFailures: [],
    dominantHorizon: null,
    positions: positions.map(([agent, side, confidence]) => ({
      agent,
      side,
      confidence,
      statement: null,
      falsifier: null,
      wouldFlip: null,
    })),
    resolutionCriteria: [],
    supporting: [],
    history: [],
  };
}

const MAP: CruxMap = {
  debateId: 'd',
  topic: 'topic',
  ideaSlug: null,
  status: 'completed',
  agents: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: id.toUpperCase(), persona: id, coalition: null })),
  coalitions: [],
  cruxes: [
    crux('t2', false, [
      ['a', 'NO', 0.5],
      ['d', 'NO', 0.9],
    ]),
    crux('t1', true, [
      ['a', 'YES', 0.8],
      ['b', 'NO', 0.6],
      ['c', 'UNCERTAIN', null],
    ]),
  ],
  edges: [{ kind: 'dependency', from: 'crux:t2', to: 'crux:t1', reason: 'deeper' }],
  layout: null,
};

describe('the crux map by side', () => {
  it('places an agent by its side on the primary crux, else the side it took more often', () => {
    expect(MAP.agents.map((a) => leanOf(MAP, a.id))).toEqual(['YES', 'NO', 'UNCERTAIN', 'NO', 'UNCERTAIN']);
  });

  it('puts YES agents left of the cruxes, NO agents right, the undecided below, all inside the canvas', () => {
    const box = { width: 900, height: 600 };
    const at = sidesLayout(MAP, box);
    const x = (id: string) => at[id]?.x ?? Number.NaN;
    const y = (id: string) => at[id]?.y ?? Number.NaN;
    const cruxXs = ['crux:t1', 'crux:t2'].map(x);
    expect(x('agent:a')).toBeLessThan(Math.min(...cruxXs));
    for (const agent of ['agent:b', 'agent:d']) expect(x(agent)).toBeGreaterThan(Math.max(...cruxXs));
    for (const agent of ['agent:c', 'agent:e']) expect(y(agent)).toBeGreaterThan(Math.max(y('crux:t1'), y('crux:t2')));
    // The primary crux heads the middle column; every node is inside the box.
    expect(y('crux:t1')).toBeLessThan(y('crux:t2'));
    for (const p of Object.values(at)) {
      expect(p.x >= 0 && p.x <= box.width && p.y >= 0 && p.y <= box.height).toBe(true);
    }
    expect(Object.keys(at).sort()).toEqual([...MAP.agents.map((a) => `agent:${a.id}`), 'crux:t1', 'crux:t2'].sort());
  });

  it('labels every line: the side and confidence, and what one crux is to another', () => {
    const labels = Object.fromEntries(
      elementsOf(MAP)
        .filter((e) => e.group === 'edges')
        .map((e) => [e.data.id, e.data.label]),
    );
    expect(labels).toEqual({
      'side:a>crux:t2': 'NO 50%',
      'side:d>crux:t2': 'NO 90%',
      'side:a>crux:t1': 'YES 80%',
      'side:b>crux:t1': 'NO 60%',
      'side:c>crux:t1': 'unsure',
      'dependency:0': 'rests on',
    });
  });
});
