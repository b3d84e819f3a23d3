import { describe, expect, it } from 'vitest';
import { ScriptError } from './errors';
import { replayScript } from './replay';
import { FAST_CONFIG, analysis, debate, quickCrux, relation, script } from './script-builder';

// Cross-thread analysis: three threads crystallize in turn on the same split (ana YES, ben NO), so
// each crux's DCG is its analysis confidence of the agents: coverage 2/2, polarity 1, impact = the
// mean confidence. t1 0.8, t2 0.9, t3 0.6. The crux_relation lines answer the two calls per pair.

const split = (confidence: number, question: string) =>
  analysis({ ana: { side: 'YES', confidence }, ben: { side: 'NO', confidence } }, { question });
const T1 = 'Does output per employee rise within 18 months?';
const T2 = 'Will output per employee rise within 18 months?';
const T3 = 'Do the pilot firms keep the policy after a year?';
const threads = [
  quickCrux('t1', 'ana', 'ben', split(0.8, T1)),
  quickCrux('t2', 'ana', 'ben', split(0.9, T2)),
  quickCrux('t3', 'ana', 'ben', split(0.6, T3)),
];
const agree = { agrees: true, note: 'The same measure and the same deadline.' };

function replay(...relations: object[]) {
  return replayScript(script(debate(['ana', 'ben'], FAST_CONFIG), ...threads, ...(relations as never[])));
}

describe('relations between the cruxes of a debate', () => {
  it('merges a confirmed duplicate into the earlier crux and keeps a confirmed dependency', () => {
    const run = replay(
      relation('t1', 't2', 'DUPLICATE', 0.9, { check: agree }),
      relation('t1', 't3', 'ENTAILS', 0.85, { from: 't3', check: { agrees: true, note: 'It does.' } }),
      // Never used: t2 was merged before t3 crystallized, so the pair is not looked at.
      relation('t2', 't3', 'SUPPORTS', 0.95, { check: agree }),
    );
    const { result } = run;
    expect({
      regime: result.regime,
      primary: result.primaryCrux,
      irreducible: result.irreducibleCruxes,
      statuses: result.threads.map((t) => [t.id, t.status, t.mergedInto ?? null]),
      promotions: result.systemMetrics.dcgPromotions,
      relations: result.relations,
      merged: run.events.filter((e) => e.type === 'crux_merged'),
    }).toEqual({
      regime: 'polarized',
      // t1 (0.8) primary at first, t2 (0.9) promoted over it, t1 again once t2 is merged into it.
      primary: 't1',
      irreducible: ['t1', 't3'],
      statuses: [
        ['t1', 'CONVERGED', null],
        ['t2', 'MERGED', 't1'],
        ['t3', 'CONVERGED', null],
      ],
      promotions: 3,
      relations: [
        {
          a: 't1',
          b: 't2',
          relation: 'DUPLICATE',
          from: 't1',
          to: 't2',
          confidence: 0.9,
          sketch: 'Answering t1 settles what t2 asks, by the same measure.',
          status: 'CONFIRMED',
          note: 'The same measure and the same deadline.',
        },
        {
          a: 't1',
          b: 't3',
          relation: 'ENTAILS',
          from: 't3',
          to: 't1',
          confidence: 0.85,
          sketch: 'Answering t1 settles what t3 asks, by the same measure.',
          status: 'CONFIRMED',
          note: 'It does.',
        },
      ],
      merged: [{ type: 'crux_merged', thread: 't2', into: 't1' }],
    });
    // The merged crux stays on its thread for reading.
    expect(result.threads[1]?.crux?.question).toBe(T2);
  });

  it('dismisses a relation below the confidence or without a sketch, and a rejected one changes nothing', () => {
    const { result } = replay(
      relation('t1', 't2', 'DUPLICATE', 0.9, { check: { agrees: false, note: 'Will and does differ in tense only, but the measures differ.' } }),
      relation('t1', 't3', 'SUPPORTS', 0.79),
      relation('t2', 't3', 'CONTRADICTS', 0.95, { sketch: 'They clash.' }),
    );
    expect({
      irreducible: result.irreducibleCruxes,
      primary: result.primaryCrux,
      statuses: result.threads.map((t) => t.status),
      relations: result.relations?.map((r) => [r.a, r.b, r.status, r.note]),
    }).toEqual({
      irreducible: ['t2', 't1', 't3'],
      primary: 't2',
      statuses: ['CONVERGED', 'CONVERGED', 'CONVERGED'],
      relations: [
        ['t1', 't2', 'REJECTED', 'Will and does differ in tense only, but the measures differ.'],
        ['t1', 't3', 'DISMISSED', 'confidence 0.79 is below 0.8'],
        ['t2', 't3', 'DISMISSED', 'the sketch is shorter than 20 characters'],
      ],
    });
  });

  it('leaves a result without relation lines as it was: no relations key', () => {
    const { result } = replay();
    expect({ relations: 'relations' in result, merged: result.threads.some((t) => 'mergedInto' in t) }).toEqual({
      relations: false,
      merged: false,
    });
  });

  it('reports a relation that needs its second call but has no check, and unknown threads, at their line', () => {
    const lines = 1 + 3 * 11; // the debate line and eleven lines per thread
    const noCheck = () => replay(relation('t1', 't2', 'DUPLICATE', 0.9));
    expect(noCheck).toThrow(ScriptError);
    expect(noCheck).toThrow(new RegExp(`^line ${lines + 1}: the relation of "t1" and "t2" passed the thresholds`));
    expect(() => replay(relation('t1', 't9', 'NONE', 0))).toThrow(`line ${lines + 1}: unknown thread id "t9"`);
    // A pair named the other way round answers no call: like any unused line, it is ignored.
    expect(replay(relation('t2', 't1', 'DUPLICATE', 0.9)).result.relations).toBeUndefined();
  });
});
