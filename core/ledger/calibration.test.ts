import { describe, expect, it } from 'vitest';
import { calibrationOf, type ResolvedForecast } from './calibration';

const forecast = (agent: string, confidence: number | null, outcome: ResolvedForecast['outcome'], side = 'YES') => ({
  agent,
  agentName: agent.toUpperCase(),
  side,
  confidence,
  outcome,
});

describe('calibrationOf', () => {
  it('scores each resolved falsifier as a forecast of the agent’s side, and ranks by Brier score', () => {
    const rows = calibrationOf([
      // Confident and right twice, confident and wrong once.
      forecast('bold', 0.9, 'survived'),
      forecast('bold', 0.9, 'survived', 'NO'),
      forecast('bold', 0.8, 'falsified'),
      // Modest, right once and wrong once.
      forecast('modest', 0.6, 'survived'),
      forecast('modest', 0.6, 'falsified'),
      // Not scorable: ambiguous, void, an uncertain side, no confidence.
      forecast('modest', 0.7, 'ambiguous'),
      forecast('modest', 0.7, 'void'),
      forecast('modest', 0.7, 'survived', 'UNCERTAIN'),
      forecast('modest', null, 'survived'),
      forecast('silent', 0.5, 'void'),
    ]);
    // bold: ((0.1)² + (0.1)² + (0.8)²) / 3 = 0.22; modest: ((0.4)² + (0.6)²) / 2 = 0.26.
    expect(rows).toEqual([
      {
        agent: 'bold',
        agentName: 'BOLD',
        scored: 3,
        survived: 2,
        falsified: 1,
        unscored: 0,
        heldRate: 2 / 3,
        meanConfidence: expect.closeTo(2.6 / 3, 12),
        brier: expect.closeTo(0.22, 12),
      },
      {
        agent: 'modest',
        agentName: 'MODEST',
        scored: 2,
        survived: 1,
        falsified: 1,
        unscored: 4,
        heldRate: 0.5,
        meanConfidence: expect.closeTo(0.6, 12),
        brier: expect.closeTo(0.26, 12),
      },
      {
        agent: 'silent',
        agentName: 'SILENT',
        scored: 0,
        survived: 0,
        falsified: 0,
        unscored: 1,
        heldRate: null,
        meanConfidence: null,
        brier: null,
      },
    ]);
  });

  it('breaks ties in Brier score by the evidence behind them', () => {
    const rows = calibrationOf([
      forecast('once', 1, 'survived'),
      forecast('twice', 1, 'survived'),
      forecast('twice', 1, 'survived'),
    ]);
    expect(rows.map((r) => [r.agent, r.brier])).toEqual([
      ['twice', 0],
      ['once', 0],
    ]);
  });
});
