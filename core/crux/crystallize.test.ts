import { describe, expect, it } from 'vitest';
import { computeDcg } from './dcg';
import { dominantHorizon } from './horizons';
import { replayScript, runReplay } from './replay';
import type { PositionSpec, ScriptObject } from './script-builder';
import {
  FAST_CONFIG,
  analysis,
  crystallize,
  debate,
  evidence,
  falsifier,
  message as m,
  quickDiscovery,
  quickCrux,
  script,
  thread,
} from './script-builder';
import type { AgentProfile, FinalPosition } from './state';
import { validateCrux } from './validation';

const F = { metric: 'Output per employee', threshold: '> 5%', deadline: '2027-12-31' };
const profiles = (...ids: string[]): AgentProfile[] => ids.map((id) => ({ id, name: id }));
const pos = (side: FinalPosition['side'], confidence: number, falsifier?: FinalPosition['falsifier']): FinalPosition => ({
  side,
  statement: '',
  confidence,
  ...(falsifier ? { falsifier } : {}),
});
const flips = (map: Record<string, boolean>) =>
  Object.fromEntries(Object.entries(map).map(([k, wouldFlip]) => [k, { wouldFlip, why: '' }]));

describe('DCG', () => {
  it('computes coverage, polarity and impact by hand', () => {
    // Covered: ana and ben (decided, valid falsifier, would flip). cal has no falsifier, dan would
    // not flip, eve is UNCERTAIN, fay has a vague falsifier.
    const dcg = computeDcg(
      profiles('ana', 'ben', 'cal', 'dan', 'eve', 'fay'),
      {
        ana: pos('YES', 0.9, F),
        ben: pos('NO', 0.6, F),
        cal: pos('NO', 0.5),
        dan: pos('YES', 0.7, F),
        eve: pos('UNCERTAIN', 0.4, F),
        fay: pos('NO', 1, { ...F, threshold: 'probably 5%' }),
      },
      flips({ ana: true, ben: true, cal: true, dan: false, eve: true, fay: true }),
    );
    // coverage 2/6; polarity over YES 2, NO 3 = 2·2/5; impact (0.9 + 0.6) / 2.
    expect(dcg).toEqual({ coverage: 2 / 6, polarity: 0.8, impact: 0.75, score: (2 / 6) * 0.8 * 0.75 });
  });

  it('is all zeros without decided positions', () => {
    expect(computeDcg(profiles('a', 'b'), { a: pos('UNCERTAIN', 1, F) }, flips({ a: true }))).toEqual({
      coverage: 0,
      polarity: 0,
      impact: 0,
      score: 0,
    });
  });

  it('is reported rounded to 2 decimals, computed unrounded', () => {
    // Three covered agents, 2 YES 1 NO: polarity 2/3, impact 0.8, score 1 · 2/3 · 0.8 = 0.5333…
    // (multiplying the rounded parts would give 0.536 → 0.54).
    const specs: Record<string, PositionSpec> = {
      ana: { side: 'YES', confidence: 0.9 },
      ben: { side: 'NO', confidence: 0.8 },
      cal: { side: 'YES', confidence: 0.7, falsifier: falsifier() },
    };
    const result = runReplay(fastScript([['t1', specs]]));
    expect(result.threads[0]?.crux?.dcg).toEqual({ coverage: 1, polarity: 0.67, impact: 0.8, score: 0.53 });
  });
});

describe('crux validation', () => {
  const agents = profiles('ana', 'ben', 'cal');
  const good = {
    question: 'Does a 32-hour week raise output within 18 months?',
    positions: { ana: pos('YES', 0.8, F), ben: pos('NO', 0.7, F) },
    resolutionCriteria: ['Output per employee at 18 months', 'Share of firms keeping the policy'],
    counterfactual: flips({ ana: true, ben: true }),
  };

  it('passes a sound crux', () => {
    expect(validateCrux(agents, good)).toEqual([]);
  });

  it('names each failure', () => {
    expect(validateCrux(agents, { ...good, positions: { ana: pos('YES', 1), ben: pos('UNCERTAIN', 1) } })).toEqual(['NO_SPLIT']);
    expect(validateCrux(agents, { ...good, resolutionCriteria: ['Output at 18 months'] })).toEqual(['FEW_CRITERIA']);
    expect(validateCrux(agents, { ...good, resolutionCriteria: ['Output at 18 months', 'Firms generally stay'] })).toEqual([
      'VAGUE_CRITERION',
    ]);
    expect(validateCrux(agents, { ...good, counterfactual: flips({ ana: true, ben: false, cal: false }) })).toEqual([
      'NOT_DECISION_RELEVANT',
    ]);
    expect(validateCrux(agents, { ...good, question: 'Will price exceed $100k by 2026?' })).toEqual(['MEASUREMENT_QUESTION']);
    expect(validateCrux(agents, { ...good, question: 'Will  Volatility fall?' })).toEqual(['MEASUREMENT_QUESTION']);
    expect(
      validateCrux(agents, { ...good, positions: { ana: pos('YES', 1, { ...F, deadline: ' ' }), ben: pos('NO', 1) } }),
    ).toEqual(['VAGUE_FALSIFIER:ana']);
  });

  it('reports every failure at once', () => {
    expect(
      validateCrux(agents, {
        question: 'Will correlation with stocks rise?',
        positions: { ana: pos('YES', 1, { ...F, metric: '' }), ben: pos('YES', 1, { ...F, threshold: 'more' }) },
        resolutionCriteria: ['It seems fine'],
        counterfactual: {},
      }),
    ).toEqual([
      'NO_SPLIT',
      'FEW_CRITERIA',
      'VAGUE_CRITERION',
      'NOT_DECISION_RELEVANT',
      'MEASUREMENT_QUESTION',
      'VAGUE_FALSIFIER:ana',
      'VAGUE_FALSIFIER:ben',
    ]);
  });
});

describe('dominant horizon', () => {
  it('takes the most common, ties to the longer one', () => {
    expect(dominantHorizon(['5y', '12-18mo', '12-18mo'])).toBe('12-18mo');
    expect(dominantHorizon(['1-3mo', '10y+', '5y'])).toBe('10y+');
    expect(dominantHorizon(['5y', '12-18mo'])).toBe('5y');
    expect(dominantHorizon([])).toBeNull();
  });
});

describe('crystallizing a thread', () => {
  it('fills omitted positions, falsifiers and horizons from the thread', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal', 'dan'], { budgets: { CRUX_LOCK: 20 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben', 'Will price of carbon credits double by 2030?'), // m1-m6
        m('t1', 'ana', 'COMMIT_POSITION', { side: 'YES', confidence: 0.6, horizon: '12-18mo', falsifier: F }), // m7
        m('t1', 'ben', 'COMMIT_POSITION', { side: 'NO', confidence: 0.7, horizon: '1-3mo' }, { content: 'Ben commits' }), // m8
        m('t1', 'ben', 'DECLARE_FALSIFIER', { falsifier: falsifier('Credit price', 'above 80 EUR') }), // m9
        m('t1', 'ben', 'COMMIT_POSITION', { side: 'NO', confidence: 0.75, horizon: '10y+' }, { content: 'Ben again' }), // m10
        m('t1', 'cal', 'COMMIT_POSITION', { side: 'UNCERTAIN', confidence: 0.5, horizon: '12-18mo' }), // m11
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m12
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'WRONG' }), // m13
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m14
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m15
        m('t1', 'ben', 'STEELMAN', { steelmanTarget: 'ana' }), // m16
        m('t1', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m17 → locked
        m('t1', 'ben', 'UPDATE_POSITION', {
          priorPosition: 'NO',
          newPosition: 'NO',
          topClaimChanged: false,
          confidence: 0.55,
        }), // e1
        evidence('t1', 'ana', 'ben', 7), // e2-e8 → stability
        // The analysis omits ben and cal, gives ana a falsifier of its own, and no question.
        crystallize('t1', {
          positions: {
            ana: {
              side: 'YES',
              statement: 'Prices double',
              confidence: 0.9,
              falsifier: { metric: 'Credit price', threshold: 'might fall' },
            },
            dan: { side: 'NO', statement: 'Dan never spoke here', confidence: 0.4 },
          },
          resolutionCriteria: ['EU ETS price on 2030-12-31', 'Average 2030 auction price'],
          counterfactual: { ana: { wouldFlip: true, why: 'a' }, ben: { wouldFlip: true, why: 'b' } },
          confidence: 0.6,
        }),
      ),
    );
    const crux = run.result.threads[0]?.crux;
    expect(crux).toEqual({
      question: 'Will price of carbon credits double by 2030?',
      positions: {
        ana: {
          side: 'YES',
          statement: 'Prices double',
          confidence: 0.9,
          falsifier: { metric: 'Credit price', threshold: 'might fall', deadline: '' },
        },
        ben: {
          side: 'NO',
          statement: 'Ben again',
          confidence: 0.55,
          falsifier: { metric: 'Credit price', threshold: 'above 80 EUR', deadline: '2027-12-31' },
        },
        cal: { side: 'UNCERTAIN', statement: '', confidence: 0.5 },
        dan: { side: 'NO', statement: 'Dan never spoke here', confidence: 0.4 },
      },
      resolutionCriteria: ['EU ETS price on 2030-12-31', 'Average 2030 auction price'],
      counterfactual: { ana: { wouldFlip: true, why: 'a' }, ben: { wouldFlip: true, why: 'b' } },
      // Covered: ben only (ana's own falsifier is vague). Polarity: YES 1, NO 2.
      dcg: { coverage: 0.25, polarity: 0.67, impact: 0.55, score: 0.09 },
      horizonByAgent: { ana: '12-18mo', ben: '10y+', cal: '12-18mo' },
      dominantHorizon: '12-18mo',
      steelmanPairs: [
        { from: 'ana', to: 'ben', grade: 'ACCURATE', attempts: 2 },
        { from: 'ben', to: 'ana', grade: 'ACCURATE', attempts: 1 },
      ],
      validated: false,
      validationFailures: ['MEASUREMENT_QUESTION', 'VAGUE_FALSIFIER:ana'],
      commonGround: [],
      concessions: [],
      confidence: 0.6,
    });
    expect(run.result.systemMetrics).toMatchObject({
      steelmanAttempts: 3,
      steelmanRetries: 1,
      steelmanAccuracyRate: 0.6667,
      dcgPromotions: 0,
    });
    expect(run.result.primaryCrux).toBeNull();
    expect(run.result.regime).toBe('inconclusive');
  });
});

/** Threads that crystallize quickly, each from its own analysis spec. */
function fastScript(threads: [string, Record<string, PositionSpec>, ScriptObject?][], agents = ['ana', 'ben', 'cal']): string {
  return script(
    debate(agents, FAST_CONFIG),
    threads.flatMap(([id, specs, extra]) => quickCrux(id, 'ana', 'ben', analysis(specs, extra ?? {}))),
  );
}

describe('primary dispute', () => {
  it('counts every change of the primary dispute; ties keep the earlier crux', () => {
    const yesNo = (a: number, b: number): Record<string, PositionSpec> => ({
      ana: { side: 'YES', confidence: a },
      ben: { side: 'NO', confidence: b },
    });
    const result = runReplay(
      fastScript(
        [
          ['t1', yesNo(0.6, 0.6)], // 2/3 · 1 · 0.6 = 0.4 → primary (promotion 1)
          ['t2', { ...yesNo(0.9, 0.9) }, { resolutionCriteria: ['one'] }], // higher but not validated
          ['t3', yesNo(0.9, 0.9)], // 0.6 → primary (promotion 2)
          ['t4', yesNo(0.9, 0.9)], // 0.6 tie → t3 stays
          ['t5', yesNo(0.3, 0.3)], // 0.2
        ],
      ),
    );
    expect({
      primary: result.primaryCrux,
      irreducible: result.irreducibleCruxes,
      promotions: result.systemMetrics.dcgPromotions,
      scores: result.threads.map((t) => t.crux?.dcg.score),
    }).toEqual({
      primary: 't3',
      irreducible: ['t3', 't4', 't1', 't5'],
      promotions: 2,
      scores: [0.4, 0.6, 0.6, 0.6, 0.2],
    });
  });
});
