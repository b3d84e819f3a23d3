import { describe, expect, it } from 'vitest';
import type { CrystallizedCrux } from './coalitions';
import { clusterAgents, findCoalitions, similarity } from './coalitions';
import { runReplay } from './replay';
import type { PositionSpec } from './script-builder';
import { FAST_CONFIG, analysis, coalitionLabels, debate, quickCrux, script } from './script-builder';
import type { AgentProfile, CruxRecord } from './state';
import type { Side } from './vocabulary';

const agents = (...ids: string[]): AgentProfile[] => ids.map((id) => ({ id, name: id }));
const settings = { minCruxes: 2, minPositions: 2, threshold: 0.7 };

function crux(thread: string, confidence: number, sides: Record<string, Side>): CrystallizedCrux {
  const positions: CruxRecord['positions'] = {};
  for (const [id, side] of Object.entries(sides)) positions[id] = { side, statement: '', confidence: 0.5 };
  return {
    thread,
    crux: {
      question: `${thread}?`,
      positions,
      resolutionCriteria: [],
      counterfactual: {},
      commonGround: [],
      confidence,
      dcg: { coverage: 0, polarity: 0, impact: 0, score: 0 },
      horizonByAgent: {},
      dominantHorizon: null,
      steelmanPairs: [],
      concessions: [],
      validated: false,
      validationFailures: [],
    },
  };
}

describe('agent similarity', () => {
  it('weighs agreement by each crux confidence, over shared cruxes only', () => {
    const cruxes = [
      crux('t1', 0.8, { a: 'YES', b: 'YES', c: 'NO', d: 'NO' }),
      crux('t2', 0.6, { a: 'YES', b: 'NO', c: 'NO', d: 'UNCERTAIN' }),
      crux('t3', 0.5, { a: 'NO', e: 'NO' }),
    ];
    expect(similarity(cruxes, 'a', 'b')).toBeCloseTo(0.8 / 1.4, 12);
    expect(similarity(cruxes, 'c', 'd')).toBeCloseTo((0.8 + 0.6 * 0.5) / 1.4, 12);
    expect(similarity(cruxes, 'a', 'e')).toBe(1);
    expect(similarity(cruxes, 'b', 'e')).toBe(0); // nothing in common
    expect(similarity([crux('t1', 1, { a: 'UNCERTAIN', b: 'UNCERTAIN' })], 'a', 'b')).toBe(0.5);
  });
});

describe('clustering', () => {
  it('uses average linkage and stops below the threshold', () => {
    // a~b 1, a~c 1, b~c 0: after {a,b} merge, c's average link is 0.5.
    const cruxes = [crux('t1', 1, { a: 'YES', b: 'YES', c: 'YES' }), crux('t2', 1, { a: 'YES', b: 'YES', c: 'YES' })];
    expect(clusterAgents(agents('a', 'b', 'c'), cruxes, settings)).toEqual([['a', 'b', 'c']]);
    const split = [crux('t1', 1, { a: 'YES', b: 'YES', c: 'YES' }), crux('t2', 1, { a: 'UNCERTAIN', b: 'NO', c: 'YES' })];
    // a~b 0.75, a~c 0.75, b~c 0.5 → {a,b} first (first pair in agent order), then c links at 0.625.
    expect(clusterAgents(agents('a', 'b', 'c'), split, settings)).toEqual([['a', 'b']]);
    expect(clusterAgents(agents('a', 'b', 'c'), split, { ...settings, threshold: 0.6 })).toEqual([['a', 'b', 'c']]);
  });

  it('breaks ties by agent order and lists members in agent order', () => {
    // Over disjoint cruxes: a~b 1, b~c 1, a~c 0. Whichever tied pair merges first takes b.
    const cruxes = [
      crux('t1', 1, { a: 'YES', b: 'YES' }),
      crux('t2', 1, { b: 'NO', c: 'NO' }),
      crux('t3', 1, { a: 'YES', c: 'NO' }),
    ];
    expect(clusterAgents(agents('a', 'b', 'c'), cruxes, settings)).toEqual([['a', 'b']]);
    expect(clusterAgents(agents('c', 'b', 'a'), cruxes, settings)).toEqual([['c', 'b']]);
    // Clusters come out ordered by their first member, members in agent order.
    const pairs = [
      crux('t1', 1, { a: 'YES', b: 'NO', c: 'NO', d: 'YES' }),
      crux('t2', 1, { a: 'YES', b: 'NO', c: 'NO', d: 'YES' }),
    ];
    expect(clusterAgents(agents('c', 'd', 'b', 'a'), pairs, settings)).toEqual([
      ['c', 'b'],
      ['d', 'a'],
    ]);
  });

  it('needs enough cruxes and enough positions per agent', () => {
    const one = [crux('t1', 1, { a: 'YES', b: 'YES' })];
    expect(clusterAgents(agents('a', 'b'), one, settings)).toEqual([]);
    const two = [crux('t1', 1, { a: 'YES', b: 'YES', c: 'YES' }), crux('t2', 1, { a: 'YES', b: 'YES' })];
    expect(clusterAgents(agents('a', 'b', 'c'), two, settings)).toEqual([['a', 'b']]);
    expect(clusterAgents(agents('a', 'b', 'c'), two, { ...settings, minPositions: 1 })).toEqual([['a', 'b', 'c']]);
  });

  it('gives each coalition the sides all members share and a label by member set', () => {
    const cruxes = [
      crux('t1', 0.8, { a: 'YES', b: 'YES', c: 'NO', d: 'NO' }),
      crux('t2', 0.6, { a: 'YES', b: 'YES', c: 'NO', d: 'UNCERTAIN' }),
    ];
    expect(findCoalitions(agents('a', 'b', 'c', 'd'), cruxes, settings, [{ members: ['d', 'c'], label: 'Sceptics' }])).toEqual([
      { members: ['a', 'b'], positions: { t1: 'YES', t2: 'YES' }, label: 'Coalition 1' },
      { members: ['c', 'd'], positions: { t1: 'NO' }, label: 'Sceptics' },
    ]);
  });
});

describe('coalitions in a replay', () => {
  const four = ['ana', 'ben', 'cal', 'dan'];
  const t1: Record<string, PositionSpec> = {
    ana: { side: 'YES' },
    ben: { side: 'NO' },
    cal: { side: 'YES' },
    dan: { side: 'NO' },
  };
  const t2: Record<string, PositionSpec> = {
    ana: { side: 'YES' },
    ben: { side: 'NO' },
    cal: { side: 'YES' },
    dan: { side: 'UNCERTAIN' },
  };
  const lines = (config = {}, labels: { members: string[]; label: string }[] = []) =>
    script(
      debate(four, { ...FAST_CONFIG, ...config }),
      labels.length ? coalitionLabels(labels) : [],
      quickCrux('t1', 'ana', 'ben', analysis(t1, { confidence: 0.8 })),
      quickCrux('t2', 'ana', 'ben', analysis(t2, { confidence: 0.6 })),
    );

  it('labels coalitions from the script, others by number', () => {
    const result = runReplay(lines({}, [{ members: ['cal', 'ana'], label: 'Four-day camp' }]));
    // ben~dan = (0.8·1 + 0.6·0.5) / 1.4 ≈ 0.786 ≥ 0.7
    expect(result.coalitions).toEqual([
      { members: ['ana', 'cal'], positions: { t1: 'YES', t2: 'YES' }, label: 'Four-day camp' },
      { members: ['ben', 'dan'], positions: { t1: 'NO' }, label: 'Coalition 2' },
    ]);
  });

  it('reads the clustering threshold from the config', () => {
    const result = runReplay(lines({ coalitions: { threshold: 0.8 } }));
    expect(result.coalitions).toEqual([{ members: ['ana', 'cal'], positions: { t1: 'YES', t2: 'YES' }, label: 'Coalition 1' }]);
  });

  it('forms none with fewer crystallized cruxes than required', () => {
    expect(runReplay(lines({ coalitions: { minCruxes: 3 } })).coalitions).toEqual([]);
  });
});
