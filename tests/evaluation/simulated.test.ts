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

  it('can be saved as a replay script that reproduces it exactly', () => {
    const run = simulateEvaluation(setup('deep'), taxonomy, 2);
    const text = scriptFromInputs(header({ ...setup('deep'), config: {} }), run.inputs);
    expect(runEvaluationReplay(text, taxonomy)).toEqual(run.state.document);
  });
});
