import { describe, expect, it } from 'vitest';
import type { Mode } from '../../core/evaluation';
import { finalSynthesisDocumentSchema, runEvaluationReplay, simulateEvaluation } from '../../core/evaluation';
import { header, scriptFromInputs } from '../../core/evaluation/script-builder';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';

// The offline simulator over the real taxonomy: what `evaluate --provider simulated` will show.

const taxonomy = loadTaxonomy(null);
const setup = (mode: Mode) => ({
  evaluationId: `sim-${mode}`,
  idea: { id: '01JSIMULATED0000000000000000', title: 'Community seed library' },
  mode,
  contentHash: 'c0ffee',
  information: { asked: 6, answered: 4 },
  startedAt: '2025-06-01T12:00:00.000Z',
});

describe('simulated evaluations over the real taxonomy', () => {
  it.each([
    ['quick', 1, ['MAX_ROUNDS']],
    ['standard', 3, ['CONVERGENCE', 'MAX_ROUNDS']],
    ['deep', 5, ['CONVERGENCE', 'MAX_ROUNDS']],
  ] as const)('%s mode locks within %i rounds with a sensible reason', (mode, limit, reasons) => {
    for (const seed of [1, 2, 3]) {
      const doc = simulateEvaluation(setup(mode), taxonomy, seed).state.document;
      if (!doc) throw new Error('no document');
      expect(finalSynthesisDocumentSchema.safeParse(doc).success).toBe(true);
      expect(reasons).toContain(doc.lockReason);
      expect(doc.rounds).toBeLessThanOrEqual(limit);
      if (doc.lockReason === 'MAX_ROUNDS') expect(doc.rounds).toBe(limit);
      if (doc.lockReason === 'CONVERGENCE') expect(doc.composites.convergenceRound).toBe(doc.rounds);
      expect(doc.scores).toHaveLength(30);
      expect(doc.durationMs).toBeGreaterThan(0);
      expect(doc.narrative.executiveSummary.startsWith('[simulated] ')).toBe(true);
      // About five challenges per round in all, never more.
      for (const r of doc.auditTrail.roundSummaries) expect(r.accepted.length).toBeLessThanOrEqual(5);
    }
  });

  it('scores different ideas differently and one idea the same every time', () => {
    const ideas = [
      { id: '01JSIMULATED0000000000000000', title: 'Community seed library', contentHash: 'c0ffee' },
      { id: '01JSIMULATED0000000000000001', title: 'Lab notebook search', contentHash: 'beef01' },
      { id: '01JSIMULATED0000000000000002', title: 'Grant deadline radar', contentHash: 'f00d02' },
    ];
    const initial = (idea: (typeof ideas)[number], seed: number) => {
      const doc = simulateEvaluation({ ...setup('quick'), idea, contentHash: idea.contentHash }, taxonomy, seed).state
        .document;
      return (doc?.scores ?? []).map((s) => s.initialScore);
    };
    const vectors = ideas.map((idea) => initial(idea, 1));
    // Each pair of ideas differs on most of the 30 criteria, not only in a few places.
    for (const [i, j] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const same = vectors[i]?.filter((score, k) => score === vectors[j]?.[k]).length ?? 30;
      expect(same).toBeLessThan(15);
    }
    // Plausible: on the scale, spread within an idea, and the ideas' means apart from one another.
    const all = vectors.flat();
    expect(Math.min(...all)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...all)).toBeLessThanOrEqual(10);
    for (const v of vectors) expect(new Set(v).size).toBeGreaterThanOrEqual(4);
    const means = vectors.map((v) => v.reduce((a, b) => a + b, 0) / v.length);
    expect(Math.max(...means) - Math.min(...means)).toBeGreaterThan(0.3);
    // Deterministic per seed and idea.
    expect(initial(ideas[1] as (typeof ideas)[number], 1)).toEqual(vectors[1]);
  });

  it('can be saved as a replay script that reproduces it exactly', () => {
    const run = simulateEvaluation(setup('deep'), taxonomy, 2);
    const text = scriptFromInputs(header({ ...setup('deep'), config: {} }), run.inputs);
    expect(runEvaluationReplay(text, taxonomy)).toEqual(run.state.document);
  });
});
