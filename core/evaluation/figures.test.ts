import { describe, expect, it } from 'vitest';
import { targetPriority } from './challenges';
import {
  categoryScores,
  evaluationConfidence,
  informationCompleteness,
  movesInRound,
  overallScore,
  stabilityIndex,
  survivalRate,
  volatility,
} from './figures';
import type { CategoryInfo } from './state';

// Every expected value below is worked out by hand in the comment beside it.

const pair = (id: string, weight: number): CategoryInfo => ({ id, name: id, weight, criteria: [`${id}-a`, `${id}-b`] });
const CATEGORIES: CategoryInfo[] = [
  pair('problem', 0.2),
  pair('solution', 0.2),
  pair('feasibility', 0.15),
  pair('fit', 0.15),
  pair('market', 0.15),
  pair('risk', 0.15),
];

describe('scores', () => {
  it('averages each category and weights the categories (the taxonomy’s worked example)', () => {
    const scores = {
      'problem-a': 8,
      'problem-b': 6, // (8 + 6) / 2 = 7
      'solution-a': 6,
      'solution-b': 6, // 6
      'feasibility-a': 4,
      'feasibility-b': 6, // 5
      'fit-a': 9,
      'fit-b': 7, // 8
      'market-a': 3,
      'market-b': 5, // 4
      'risk-a': 7,
      'risk-b': 5, // 6
    };
    expect(categoryScores(scores, CATEGORIES)).toEqual({
      problem: 7,
      solution: 6,
      feasibility: 5,
      fit: 8,
      market: 4,
      risk: 6,
    });
    // 0.20·7 + 0.20·6 + 0.15·5 + 0.15·8 + 0.15·4 + 0.15·6 = 1.4 + 1.2 + 0.75 + 1.2 + 0.6 + 0.9 = 6.05
    expect(overallScore(scores, CATEGORIES)).toBeCloseTo(6.05, 10);
  });

  it('keeps fractional category means', () => {
    const one: CategoryInfo[] = [{ id: 'x', name: 'x', weight: 1, criteria: ['a', 'b', 'c'] }];
    // (7 + 8 + 8) / 3 = 7.666…
    expect(overallScore({ a: 7, b: 8, c: 8 }, one)).toBeCloseTo(23 / 3, 10);
  });
});

describe('confidence', () => {
  it('takes volatility over the last three points of the overall score', () => {
    // last three: 6.4, 5.8, 6.1 → (6.4 − 5.8) / 10 = 0.06; the first point (9.0) is too old to count
    expect(volatility([9.0, 6.4, 5.8, 6.1])).toBeCloseTo(0.06, 10);
    expect(volatility([6.2])).toBe(0);
    expect(volatility([])).toBe(0);
  });

  it('measures information completeness, 0 when nothing was asked', () => {
    expect(informationCompleteness({ asked: 4, answered: 3 })).toBe(0.75);
    expect(informationCompleteness({ asked: 0, answered: 0 })).toBe(0);
  });

  it('combines the four ingredients with weights 0.4, 0.2, 0.2, 0.2', () => {
    // 0.4·(3/5) + 0.2·(2/5) + 0.2·(1 − 0.06) + 0.2·0.75 = 0.24 + 0.08 + 0.188 + 0.15 = 0.658
    expect(
      evaluationConfidence({
        defended: 3,
        challenges: 5,
        firstPrinciplesBonuses: 2,
        exchanges: 5,
        volatility: 0.06,
        completeness: 0.75,
      }),
    ).toBeCloseTo(0.658, 10);
    // Nothing debated, nothing asked, perfectly still: 0 + 0 + 0.2·1 + 0 = 0.2
    expect(
      evaluationConfidence({
        defended: 0,
        challenges: 0,
        firstPrinciplesBonuses: 0,
        exchanges: 0,
        volatility: 0,
        completeness: 0,
      }),
    ).toBeCloseTo(0.2, 10);
  });

  it('gives the red-team survival rate, null when nothing was challenged', () => {
    expect(survivalRate(3, 5)).toBe(0.6);
    expect(survivalRate(0, 0)).toBeNull();
  });
});

describe('stability', () => {
  const snapshots = [
    { a: 5, b: 6, c: 7, d: 8 },
    { a: 5, b: 5, c: 7, d: 8 }, // round 1: b moved 1
    { a: 5, b: 5, c: 7, d: 6 }, // round 2: d moved 2
    { a: 5, b: 5, c: 7, d: 6 }, // round 3: nothing moved
  ];
  const ids = ['a', 'b', 'c', 'd'];

  it('measures each round’s moves against the round before', () => {
    expect(movesInRound(snapshots, 2, ids)).toEqual({ a: 0, b: 0, c: 0, d: 2 });
  });

  it('is the share of criteria that held still in each of the last two rounds', () => {
    // rounds 3 and 2: only d moved (in round 2) → 3 of 4 held still = 0.75
    expect(stabilityIndex(snapshots, ids, 0.5, 2)).toBe(0.75);
    // round 3 alone: nothing moved → 1
    expect(stabilityIndex(snapshots, ids, 0.5, 1)).toBe(1);
    // rounds 3, 2 and 1: b and d moved → 2 of 4 = 0.5
    expect(stabilityIndex(snapshots, ids, 0.5, 3)).toBe(0.5);
    // a looser limit forgives d’s move of 2: 4 of 4
    expect(stabilityIndex(snapshots, ids, 2, 2)).toBe(1);
    // after one round only that round counts: b moved → 0.75; before any round → 1
    expect(stabilityIndex(snapshots.slice(0, 2), ids, 0.5, 2)).toBe(0.75);
    expect(stabilityIndex(snapshots.slice(0, 1), ids, 0.5, 2)).toBe(1);
  });
});

describe('target priority', () => {
  it('favours high scores and low confidences, and yields a little for each earlier exchange', () => {
    expect(targetPriority(9, 0.8, 0)).toBeCloseTo(1.1, 10); // 0.9 + 0.2
    expect(targetPriority(5, 0.4, 1)).toBeCloseTo(1.0, 10); // 0.5 + 0.6 − 0.1
    expect(targetPriority(3, 0.9, 0)).toBeCloseTo(0.4, 10); // 0.3 + 0.1
  });
});
