import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import { ReopenError } from './errors';
import type { ReopenTrigger } from './reopen';
import { reopen } from './reopen';
import { replayAnswers, runEvaluationReplay } from './replay';
import { defense, evaluator, header, narrative, redteam, ruling, script, synthesis } from './script-builder';
import { advance } from './step';
import { taxonomyOf } from './test-setup';

// Reopening a locked evaluation: a dispute runs one targeted round; new information starts over.
// Either way the locked document is only read.

const PC = 'problem-clarity';
const ER = 'execution-risk';
const taxonomy = testTaxonomy();
const REASON = 'The founder has already shipped two similar tools alone, so execution risk is overstated.';

const opening = [evaluator('problem', [[PC, 7, 0.6]]), evaluator('risk', [[ER, 5, 0.5]])];
const quiet = [redteam('realist', []), redteam('first-principles', [])];
const fullRun = [
  ...opening,
  redteam('skeptic', [[PC, 'MAJOR', 'Nobody outside the lab has described this problem']]),
  ...quiet,
  defense(),
  ruling('EVALUATOR'),
  synthesis([
    [PC, 7, 0.85],
    [ER, 5, 0.75],
  ]),
  redteam('skeptic', [[ER, 'MINOR', 'The schedule ignores hiring delays']]),
  ...quiet,
  defense(),
  ruling('EVALUATOR'),
  synthesis([[ER, 5, 0.75]], ['Hiring is the bottleneck']),
  narrative(),
];
const locked = runEvaluationReplay(script(header({ evaluationId: 'eval-1' }), fullRun), taxonomy);

const disputeRound = script(
  redteam('skeptic', [
    [ER, 'MAJOR', 'Two tools are a small sample of execution'],
    [PC, 'MINOR', 'Clarity was never the question'],
  ]),
  ...quiet,
  defense('Both tools are still maintained, by the founder alone.'),
  ruling('EVALUATOR', 1, { bonus: true }),
  synthesis([[ER, 6, 0.85]], ['Solo delivery is proven twice']),
  narrative('PURSUE'),
);

function reopenError(trigger: ReopenTrigger, tax = taxonomy): string {
  try {
    reopen(locked, trigger, tax);
  } catch (e) {
    if (e instanceof ReopenError) return e.message;
    throw e;
  }
  throw new Error('expected a ReopenError');
}

describe('a dispute', () => {
  it('needs a reason of at least 50 characters and a criterion of the evaluation', () => {
    expect(reopenError({ kind: 'dispute', criterion: ER, reason: '  Execution risk is too high.  ' })).toBe(
      'a dispute needs a reason of at least 50 characters, and this one has 27: say what the evaluation got wrong about execution-risk and why',
    );
    expect(reopenError({ kind: 'dispute', criterion: ER, reason: 'é'.repeat(49) })).toMatch(/this one has 49:/);
    // 30 characters, though 60 UTF-16 units
    expect(reopenError({ kind: 'dispute', criterion: ER, reason: '𝑥'.repeat(30) })).toMatch(/this one has 30:/);
    expect(() => reopen(locked, { kind: 'dispute', criterion: ER, reason: 'é'.repeat(50) }, taxonomy)).not.toThrow();
    expect(reopenError({ kind: 'dispute', criterion: 'charm', reason: REASON })).toBe(
      '"charm" is not a criterion of evaluation eval-1',
    );
    const changed = taxonomyOf([
      { id: 'problem', weight: 0.5, criteria: [PC] },
      { id: 'risk', weight: 0.5, criteria: [ER, 'market-risk'] },
    ]);
    expect(reopenError({ kind: 'dispute', criterion: ER, reason: REASON }, changed)).toBe(
      'the taxonomy’s criteria changed since this evaluation: a dispute cannot reopen it, run a full re-evaluation',
    );
  });

  it('runs exactly one round on the disputed criterion, locks again, and leaves the old document untouched', () => {
    const before = structuredClone(locked);
    const state = reopen(locked, { kind: 'dispute', criterion: ER, reason: REASON }, taxonomy, {
      evaluationId: 'eval-2',
    });
    const run = replayAnswers(state, disputeRound);
    // The same inputs applied in place to another reopened state: nothing it does may reach the old document.
    const inPlace = reopen(locked, { kind: 'dispute', criterion: ER, reason: REASON }, taxonomy, {
      evaluationId: 'eval-2',
    });
    for (const input of run.inputs) advance(inPlace, input);
    expect(inPlace.document).toEqual(run.document);
    expect(locked).toEqual(before);

    const doc = run.document;
    expect({
      ids: [doc.evaluationId, doc.supersedes, doc.scope],
      dispute: doc.dispute,
      rounds: doc.rounds,
      roundStarts: run.events.filter((e) => e.type === 'round_started'),
      redTeamAsks: run.state.rounds.at(-1)?.targets,
      lastRound: doc.auditTrail.roundSummaries.at(-1),
      inherited: doc.auditTrail.roundSummaries.map((r) => r.inherited),
      trajectory: doc.auditTrail.scoreTrajectory,
      scores: doc.scores.map((s) => [s.criterion, s.initialScore, s.finalScore, s.challenged, s.defended]),
      phases: run.events.flatMap((e) => (e.type === 'phase_changed' ? [`${e.from}→${e.to}`] : [])),
      lockReason: doc.lockReason,
    }).toEqual({
      ids: ['eval-2', 'eval-1', 'TARGETED'],
      dispute: { criterion: ER, reason: REASON },
      rounds: 3,
      roundStarts: [
        {
          type: 'round_started',
          round: 3,
          personas: ['skeptic', 'realist', 'first-principles'],
          targets: [ER],
          focus: ER,
        },
      ],
      redTeamAsks: [ER],
      lastRound: {
        round: 3,
        status: 'complete',
        focus: ER,
        targets: [ER],
        personas: ['skeptic', 'realist', 'first-principles'],
        raised: 2,
        accepted: ['r3c1'],
        dropped: [
          {
            persona: 'skeptic',
            criterion: PC,
            severity: 'MINOR',
            challenge: 'Clarity was never the question',
            reason: 'off_target',
            repeatOf: null,
          },
        ],
        repeats: 0,
        overCap: 0,
        offTarget: 1,
        exchanges: 1,
        evaluatorWins: 1,
        redTeamWins: 0,
        draws: 0,
        newInsights: ['Solo delivery is proven twice'],
        maxMove: 1,
        sumOfMoves: 1,
        overallScore: 6.5,
        inherited: false,
      },
      inherited: [true, true, false],
      trajectory: [
        { criterion: PC, scores: [7, 7, 7, 7] },
        { criterion: ER, scores: [5, 5, 5, 6] },
      ],
      scores: [
        [PC, 7, 7, 1, 1],
        [ER, 5, 6, 2, 2],
      ],
      phases: [
        'PENDING→EVALUATING',
        'EVALUATING→DEBATING',
        'DEBATING→SYNTHESIZING',
        'SYNTHESIZING→REVIEWING',
        'REVIEWING→LOCKED',
      ],
      // The round limit is this one round; execution-risk moved in it, so it is not stable: MAX_ROUNDS.
      lockReason: 'MAX_ROUNDS',
    });
  });

  it('locks by convergence when the disputed score holds', () => {
    const state = reopen(locked, { kind: 'dispute', criterion: ER, reason: REASON }, taxonomy);
    const holds = disputeRound.replace('"scoreAdjustment":1', '"scoreAdjustment":0').replace('"score":6', '"score":5');
    const doc = replayAnswers(state, holds).document;
    expect([doc.evaluationId, doc.lockReason, doc.composites.convergenceRound]).toEqual([
      'eval-1-reopened',
      'CONVERGENCE',
      3,
    ]);
  });
});

describe('new information', () => {
  it('starts a fresh full evaluation that supersedes the locked one', () => {
    const before = structuredClone(locked);
    const state = reopen(
      locked,
      { kind: 'new_information', contentHash: 'hash-2', information: { asked: 4, answered: 4 } },
      taxonomy,
      {
        evaluationId: 'eval-3',
      },
    );
    expect([
      state.phase,
      state.scope,
      state.supersedes,
      state.contentHash,
      state.round,
      state.challenges.length,
    ]).toEqual(['PENDING', 'FULL', 'eval-1', 'hash-2', 0, 0]);
    const doc = replayAnswers(state, script(fullRun)).document;
    expect([doc.evaluationId, doc.supersedes, doc.contentHashAtEvaluation, doc.rounds, doc.information]).toEqual([
      'eval-3',
      'eval-1',
      'hash-2',
      2,
      { asked: 4, answered: 4 },
    ]);
    expect(locked).toEqual(before);
  });

  it('must come with changed inputs', () => {
    expect(reopenError({ kind: 'new_information', contentHash: 'hash-1' })).toBe(
      'new information must change the idea’s inputs (README.md, development.md, research notes), but the content hash is the same as at the locked evaluation',
    );
  });
});
