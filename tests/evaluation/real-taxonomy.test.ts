import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finalSynthesisDocumentSchema, replayEvaluation, runEvaluationReplay } from '../../core/evaluation';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';

// fixtures/standard-replay.jsonl: a standard evaluation over the real taxonomy (6 categories × 5
// criteria), written by hand. Every criterion starts at its category's score from the taxonomy's own
// worked example (problem 7, solution 6, feasibility 5, fit 8, market 4, risk 6), confidence 0.7.
// Round 1: three challenges — problem-severity (MAJOR) is lost, 7 → 5; resource-requirements
// (CRITICAL) is defended; personal-fit (MINOR) is a draw. Every synthesis restates all 30 criteria at
// confidence 0.75 (0.85 for the critical ones). Rounds 2 and 3 raise nothing, so after round 3 two
// rounds in a row held still and the evaluation converges.

const taxonomy = loadTaxonomy(null);
const text = readFileSync(join(import.meta.dirname, 'fixtures', 'standard-replay.jsonl'), 'utf8');

describe('an evaluation over the real taxonomy', () => {
  const run = replayEvaluation(text, taxonomy);
  const doc = run.document;

  it('proposes the highest scores and lowest confidences as targets', () => {
    // Every confidence is 0.7, so the five fit criteria (8/10) lead: 0.8 + 0.3 = 1.1 against 1.0 for problem.
    expect(run.state.rounds[0]?.targets).toEqual([
      'personal-fit',
      'passion-alignment',
      'skill-match',
      'network-leverage',
      'life-stage-fit',
    ]);
  });

  it('computes the figures by hand', () => {
    expect({
      initialCategories: doc.categories.map((c) => [c.category, c.initialScore]),
      finalCategories: doc.categories.map((c) => [c.category, c.finalScore]),
      overallTrajectory: doc.auditTrail.overallTrajectory,
      composites: doc.composites,
      lockReason: doc.lockReason,
      rounds: doc.rounds,
      durationMs: doc.durationMs,
    }).toEqual({
      initialCategories: [
        ['problem', 7],
        ['solution', 6],
        ['feasibility', 5],
        ['fit', 8],
        ['market', 4],
        ['risk', 6],
      ],
      // problem: (7·4 + 5) / 5 = 6.6
      finalCategories: [
        ['problem', 6.6],
        ['solution', 6],
        ['feasibility', 5],
        ['fit', 8],
        ['market', 4],
        ['risk', 6],
      ],
      // 0.20·7 + 0.20·6 + 0.15·5 + 0.15·8 + 0.15·4 + 0.15·6 = 6.05, then 6.05 − 0.20·0.4 = 5.97
      overallTrajectory: [6.05, 5.97, 5.97, 5.97],
      composites: {
        overallScore: 5.97,
        // 0.4·(1/3) + 0.2·(0/3) + 0.2·(1 − 0) + 0.2·(4/5) = 0.1333 + 0 + 0.2 + 0.16
        overallConfidence: 0.4933,
        redTeamSurvivalRate: 0.3333,
        convergenceRound: 3,
        stabilityIndex: 1,
      },
      lockReason: 'CONVERGENCE',
      rounds: 3,
      durationMs: 250_000, // 12:00:00 → 12:04:10
    });
    expect(
      doc.scores
        .filter((s) => s.challenged > 0)
        .map((s) => [s.criterion, s.initialScore, s.finalScore, s.survivalRate]),
    ).toEqual([
      ['problem-severity', 7, 5, 0],
      ['resource-requirements', 5, 5, 1],
      ['personal-fit', 8, 8, 0],
    ]);
    expect(doc.scores).toHaveLength(30);
    expect(finalSynthesisDocumentSchema.safeParse(doc).success).toBe(true);
  });

  it('holds convergence back while a critical criterion sits under 0.8', () => {
    const shaky = text.replaceAll(
      '"criterion":"regulatory-risk","score":6,"confidence":0.85',
      '"criterion":"regulatory-risk","score":6,"confidence":0.78',
    );
    const shakyDoc = runEvaluationReplay(shaky, taxonomy);
    expect([shakyDoc.lockReason, shakyDoc.convergence.blockers]).toEqual([
      'MAX_ROUNDS',
      ['confidence: regulatory-risk is at 0.78 (critical), needs 0.8'],
    ]);
  });
});
