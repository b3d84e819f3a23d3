import { describe, expect, it } from 'vitest';
import { STARTING_WEIGHTS, weightsWith } from './values';
import { applyAdjustments, spread } from './weights';

describe('weight adjustments', () => {
  it('apply in order, each judged on what the ones before left, refusing big moves, bounds and the diversity floor', () => {
    const out = applyAdjustments(STARTING_WEIGHTS, [
      { agent: 'verifier', value: 'transparency', delta: 0.05 },
      { agent: 'executor', value: 'safety', delta: -0.051 },
      { agent: 'integrator', value: 'transparency', delta: -0.05 },
      // transparency is 0.5/0.55/0.85 (σ 0.155) after the two before: one more step would take it to 0.131.
      { agent: 'integrator', value: 'transparency', delta: -0.05 },
      { agent: 'integrator', value: 'cooperation', delta: -0.05 },
      { agent: 'verifier', value: 'truth', delta: 0.01 },
      { agent: 'executor', value: 'exploration', delta: -0.05 },
    ]);
    expect({
      applied: out.applied.map((a) => `${a.agent}.${a.value} ${a.from}→${a.to}`),
      refused: out.refused.map((r) => `${r.agent}.${r.value}: ${r.reason}`),
    }).toEqual({
      applied: ['verifier.transparency 0.5→0.55', 'integrator.transparency 0.9→0.85', 'executor.exploration 0.8→0.75'],
      refused: [
        'executor.safety: a weight moves by at most 0.05 at a time',
        'integrator.transparency: the spread of transparency across the agents would fall from 0.155 to 0.131, below 0.15',
        'integrator.cooperation: the spread of cooperation across the agents would fall from 0.165 to 0.141, below 0.15',
        "verifier.truth: verifier's truth would be 1.01, outside [0.1, 1]",
      ],
    });
    expect(out.weights.integrator.transparency).toBe(0.85);
    expect(STARTING_WEIGHTS.integrator.transparency).toBe(0.9);
  });

  it('measure the spread as the population standard deviation across the three agents', () => {
    expect(spread(weightsWith({ executor: { safety: 0.2 }, integrator: { safety: 0.8 } }), 'safety')).toBeCloseTo(
      Math.sqrt(((0.2 - 0.6333) ** 2 + (0.9 - 0.6333) ** 2 + (0.8 - 0.6333) ** 2) / 3),
      3,
    );
  });
});
