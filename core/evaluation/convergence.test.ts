import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import type { ConvergenceReport } from './convergence';
import { replayEvaluation, replayPartial } from './replay';
import type { ScriptObject } from './script-builder';
import { defense, evaluator, header, narrative, redteam, ruling, script, synthesis } from './script-builder';

// A two-criterion evaluation (problem-clarity is critical) that converges after round 2, and
// variants of its round 2 that each break exactly one condition.

const PC = 'problem-clarity';
const ER = 'execution-risk';
const taxonomy = testTaxonomy();

const opening = [evaluator('problem', [[PC, 7, 0.6]]), evaluator('risk', [[ER, 5, 0.5]])];
const round1 = [
  redteam('skeptic', [[PC, 'MAJOR', 'Nobody outside the lab has described this problem']]),
  redteam('realist', []),
  redteam('first-principles', []),
  defense(),
  ruling('EVALUATOR'),
  synthesis([
    [PC, 7, 0.85],
    [ER, 5, 0.75],
  ]),
];

interface Round2 {
  skeptic?: ScriptObject;
  realist?: ScriptObject;
  challenges?: number;
  rulings?: ScriptObject[];
  synthesis?: ScriptObject;
}

function round2(r: Round2 = {}): ScriptObject[] {
  const rulings = r.rulings ?? [ruling('EVALUATOR')];
  return [
    r.skeptic ?? redteam('skeptic', [[ER, 'MINOR', 'The schedule ignores hiring delays']]),
    r.realist ?? redteam('realist', []),
    redteam('first-principles', []),
    ...rulings.map(() => defense()),
    ...rulings,
    r.synthesis ?? synthesis([[ER, 5, 0.75]]),
  ];
}

function reportAfterRound2(r: Round2 = {}, config: ScriptObject = {}): ConvergenceReport {
  const { state } = replayPartial(script(header({ config }), opening, round1, round2(r)), taxonomy);
  const report = state.convergence[1];
  if (!report) throw new Error('round 2 did not finish');
  return report;
}

const summary = (r: ConvergenceReport) => ({
  converged: r.converged,
  decision: r.decision,
  lockReason: r.lockReason,
  met: {
    stability: r.conditions.stability.met,
    confidence: r.conditions.confidence.met,
    resolution: r.conditions.resolution.met,
    saturation: r.conditions.saturation.met,
  },
  blockers: r.blockers,
});

const ALL_MET = { stability: true, confidence: true, resolution: true, saturation: true };

describe('the convergence check', () => {
  it('reports every condition with its numbers, and locks the baseline by convergence after round 2', () => {
    const run = replayEvaluation(script(header(), opening, round1, round2(), narrative()), taxonomy);
    expect(run.state.convergence).toEqual([
      {
        round: 1,
        roundLimit: 3,
        converged: false,
        decision: 'CONTINUE',
        lockReason: null,
        conditions: {
          stability: {
            met: false,
            maxDelta: 0.5,
            aggregateDelta: 1,
            roundsNeeded: 2,
            rounds: [{ round: 1, maxMove: 0, sumOfMoves: 0, moved: [] }],
          },
          confidence: { met: true, minimum: 0.7, criticalMinimum: 0.8, lowest: 0.75, below: [] },
          resolution: {
            met: true,
            critical: { resolved: 0, total: 0, unresolved: [] },
            major: { resolved: 1, total: 1, share: 1, required: 0.8 },
          },
          saturation: {
            met: true,
            saturated: true,
            newInsights: 0,
            minNewInsights: 2,
            repeats: 0,
            raised: 1,
            repeatShare: 0,
            maxRepeatShare: 0.5,
            roundLimitReached: false,
          },
        },
        blockers: ['stability: 1 round run, stability needs 2 in a row'],
      },
      {
        round: 2,
        roundLimit: 3,
        converged: true,
        decision: 'LOCK',
        lockReason: 'CONVERGENCE',
        conditions: {
          stability: {
            met: true,
            maxDelta: 0.5,
            aggregateDelta: 1,
            roundsNeeded: 2,
            rounds: [
              { round: 2, maxMove: 0, sumOfMoves: 0, moved: [] },
              { round: 1, maxMove: 0, sumOfMoves: 0, moved: [] },
            ],
          },
          confidence: { met: true, minimum: 0.7, criticalMinimum: 0.8, lowest: 0.75, below: [] },
          resolution: {
            met: true,
            critical: { resolved: 0, total: 0, unresolved: [] },
            major: { resolved: 1, total: 1, share: 1, required: 0.8 },
          },
          saturation: {
            met: true,
            saturated: true,
            newInsights: 0,
            minNewInsights: 2,
            repeats: 0,
            raised: 1,
            repeatShare: 0,
            maxRepeatShare: 0.5,
            roundLimitReached: false,
          },
        },
        blockers: [],
      },
    ]);
    expect(run.document.lockReason).toBe('CONVERGENCE');
    expect(run.document.composites.convergenceRound).toBe(2);
  });

  it('is blocked by a criterion that moved more than 0.5', () => {
    const report = reportAfterRound2({ rulings: [ruling('RED_TEAM', -1)], synthesis: synthesis([[ER, 4, 0.75]]) });
    expect(summary(report)).toEqual({
      converged: false,
      decision: 'CONTINUE',
      lockReason: null,
      met: { ...ALL_MET, stability: false },
      blockers: ['stability: execution-risk moved 1 in round 2 (limit 0.5)'],
    });
    expect(report.conditions.stability.rounds[0]).toEqual({
      round: 2,
      maxMove: 1,
      sumOfMoves: 1,
      moved: [{ criterion: ER, from: 5, to: 4 }],
    });
  });

  it('is blocked by moves that add up to more than the aggregate limit, even when each is small enough', () => {
    const report = reportAfterRound2(
      { rulings: [ruling('RED_TEAM', -1)], synthesis: synthesis([[ER, 4, 0.75]]) },
      { stability: { maxDelta: 1, aggregateDelta: 0.5 } },
    );
    expect(summary(report)).toEqual({
      converged: false,
      decision: 'CONTINUE',
      lockReason: null,
      met: { ...ALL_MET, stability: false },
      blockers: ['stability: moves in round 2 add up to 1 (limit 0.5)'],
    });
  });

  it('is blocked by a critical criterion under 0.8, though 0.75 would do for any other', () => {
    const report = reportAfterRound2({
      synthesis: synthesis([
        [PC, 7, 0.75],
        [ER, 5, 0.75],
      ]),
    });
    expect(summary(report)).toEqual({
      converged: false,
      decision: 'CONTINUE',
      lockReason: null,
      met: { ...ALL_MET, confidence: false },
      blockers: ['confidence: problem-clarity is at 0.75 (critical), needs 0.8'],
    });
    expect(report.conditions.confidence.below).toEqual([{ criterion: PC, confidence: 0.75, required: 0.8 }]);
  });

  it('is blocked by an unresolved CRITICAL challenge', () => {
    const report = reportAfterRound2({
      skeptic: redteam('skeptic', [[ER, 'CRITICAL', 'The founder cannot build this alone']]),
      rulings: [ruling('DRAW')],
    });
    expect(summary(report)).toEqual({
      converged: false,
      decision: 'CONTINUE',
      lockReason: null,
      met: { ...ALL_MET, resolution: false },
      blockers: ['resolution: CRITICAL challenge r2c1 on execution-risk is unresolved'],
    });
  });

  it('counts a red-team win that did not move the score as unresolved', () => {
    const report = reportAfterRound2({
      skeptic: redteam('skeptic', [[ER, 'CRITICAL', 'The founder cannot build this alone']]),
      rulings: [ruling('RED_TEAM', 0)],
    });
    expect(report.conditions.resolution.critical).toEqual({ resolved: 0, total: 1, unresolved: ['r2c1'] });
  });

  it('is blocked when fewer than 80% of MAJOR challenges are resolved', () => {
    const report = reportAfterRound2({
      skeptic: redteam('skeptic', [[ER, 'MAJOR', 'The founder cannot build this alone']]),
      rulings: [ruling('DRAW')],
    });
    expect(summary(report)).toEqual({
      converged: false,
      decision: 'CONTINUE',
      lockReason: null,
      met: { ...ALL_MET, resolution: false },
      blockers: ['resolution: 1 of 2 MAJOR challenges resolved (50%, needs 80%)'],
    });
  });

  it('is blocked while the debate still yields new insights and few repeats', () => {
    const report = reportAfterRound2({
      synthesis: synthesis([[ER, 5, 0.75]], ['Hiring is the real bottleneck', 'The lab has a waiting list of users']),
    });
    expect(summary(report)).toEqual({
      converged: false,
      decision: 'CONTINUE',
      lockReason: null,
      met: { ...ALL_MET, saturation: false },
      blockers: [
        'saturation: 2 new insights (saturated below 2) and 0 of 1 raised challenges were repeats (saturated above 50%), round 2 of 3',
      ],
    });
  });

  it('counts more than half repeats as saturation, even with new insights', () => {
    const again = redteam('skeptic', [[PC, 'MAJOR', 'Nobody outside the lab has described this problem']]);
    const report = reportAfterRound2({
      skeptic: again,
      realist: redteam('realist', [
        [PC, 'MAJOR', 'Nobody outside the lab has described this problem.'],
        [ER, 'MINOR', 'The schedule ignores hiring delays'],
      ]),
      synthesis: synthesis([[ER, 5, 0.75]], ['Hiring is the real bottleneck', 'The lab has a waiting list of users']),
    });
    expect(report.conditions.saturation).toEqual({
      met: true,
      saturated: true,
      newInsights: 2,
      minNewInsights: 2,
      repeats: 2,
      raised: 3,
      repeatShare: 2 / 3,
      maxRepeatShare: 0.5,
      roundLimitReached: false,
    });
    expect(summary(report).converged).toBe(true);
  });

  it('does not count exactly half repeats as saturation', () => {
    const report = reportAfterRound2({
      skeptic: redteam('skeptic', [[PC, 'MAJOR', 'Nobody outside the lab has described this problem']]),
      realist: redteam('realist', [[ER, 'MINOR', 'The schedule ignores hiring delays']]),
      synthesis: synthesis([[ER, 5, 0.75]], ['Hiring is the real bottleneck', 'The lab has a waiting list of users']),
    });
    expect([
      report.conditions.saturation.repeats,
      report.conditions.saturation.raised,
      report.conditions.saturation.met,
    ]).toEqual([1, 2, false]);
  });

  it('lets the round limit stand in for saturation, and locks by MAX_ROUNDS when other conditions fail there', () => {
    const insightful = synthesis(
      [[ER, 5, 0.75]],
      ['Hiring is the real bottleneck', 'The lab has a waiting list of users'],
    );
    expect(summary(reportAfterRound2({ synthesis: insightful }, { maxRounds: 2 }))).toEqual({
      converged: true,
      decision: 'LOCK',
      lockReason: 'CONVERGENCE',
      met: ALL_MET,
      blockers: [],
    });
    const moving = { rulings: [ruling('RED_TEAM', -1)], synthesis: synthesis([[ER, 4, 0.75]], ['A', 'B']) };
    expect(summary(reportAfterRound2(moving, { maxRounds: 2 }))).toEqual({
      converged: false,
      decision: 'LOCK',
      lockReason: 'MAX_ROUNDS',
      met: { ...ALL_MET, stability: false },
      blockers: ['stability: execution-risk moved 1 in round 2 (limit 0.5)'],
    });
  });
});
