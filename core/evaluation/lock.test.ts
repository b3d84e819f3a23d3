import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import { ScriptError } from './errors';
import { replayEvaluation, runEvaluationReplay } from './replay';
import type { ScriptObject } from './script-builder';
import {
  control,
  defense,
  evaluator,
  failLine,
  header,
  narrative,
  redteam,
  ruling,
  script,
  synthesis,
} from './script-builder';

// How an evaluation ends: each lock reason, the narrative a limit forces, failure and retry.

const PC = 'problem-clarity';
const ER = 'execution-risk';
const taxonomy = testTaxonomy();

const opening = [evaluator('problem', [[PC, 7, 0.6]]), evaluator('risk', [[ER, 5, 0.5]])];
const quiet = [redteam('realist', []), redteam('first-principles', [])];
const round1 = (insights: string[] = []) => [
  redteam('skeptic', [[PC, 'MAJOR', 'Nobody outside the lab has described this problem']]),
  ...quiet,
  defense(),
  ruling('EVALUATOR'),
  synthesis(
    [
      [PC, 7, 0.85],
      [ER, 5, 0.75],
    ],
    insights,
  ),
];
/** Round 2 up to its defenses: two challenges. */
const round2Open = [
  redteam('skeptic', [
    [PC, 'MAJOR', 'The clarity claim rests on one interview'],
    [ER, 'CRITICAL', 'Execution has no owner'],
  ]),
  ...quiet,
  defense(),
  defense(),
];
const quietRound2 = [
  redteam('skeptic', [[ER, 'MINOR', 'The schedule ignores hiring delays']]),
  ...quiet,
  defense(),
  ruling('EVALUATOR'),
  synthesis([[ER, 5, 0.75]]),
];

function lockOf(lines: ScriptObject[], mode: 'quick' | 'standard' = 'standard'): string {
  return runEvaluationReplay(script(header({ mode }), opening, lines), taxonomy).lockReason;
}

function failure(text: string): string {
  try {
    runEvaluationReplay(text, taxonomy);
  } catch (e) {
    if (e instanceof ScriptError) return e.message;
    throw e;
  }
  throw new Error('expected a ScriptError');
}

describe('lock reasons', () => {
  it('locks by convergence, the round limit, the budget, the time limit and the researcher', () => {
    expect({
      convergence: lockOf([...round1(), ...quietRound2, narrative()]),
      maxRounds: lockOf([redteam('skeptic', []), redteam('realist', []), synthesis([]), narrative()], 'quick'),
      budget: lockOf([...round1(['a', 'b']), ...round2Open, ruling('RED_TEAM', -1), control('budget_exhausted')]),
      timeout: lockOf([...round1(['a', 'b']), control('timeout')]),
      approved: lockOf([
        ...round1(['a', 'b']),
        ...round2Open,
        ruling('EVALUATOR'),
        control('user_approved'),
        narrative(),
      ]),
    }).toEqual({
      convergence: 'CONVERGENCE',
      maxRounds: 'MAX_ROUNDS',
      budget: 'BUDGET',
      timeout: 'TIMEOUT',
      approved: 'USER_APPROVED',
    });
  });

  it('keeps the rulings of a round the budget cut short, and writes the narrative from the figures', () => {
    const run = replayEvaluation(
      script(header(), opening, round1(['a', 'b']), round2Open, ruling('RED_TEAM', -1), control('budget_exhausted')),
      taxonomy,
    );
    const doc = run.document;
    expect({
      phases: run.events.slice(-7).map((e) => (e.type === 'phase_changed' ? `${e.from}→${e.to}` : e.type)),
      rounds: doc.rounds,
      statuses: doc.auditTrail.roundSummaries.map((r) => r.status),
      rulings: doc.auditTrail.conflicts.map((c) => `${c.id}:${c.ruling?.winner ?? 'none'}`),
      trajectory: doc.auditTrail.scoreTrajectory,
      narrativeSource: doc.narrativeSource,
      narrative: doc.narrative,
    }).toEqual({
      phases: [
        'limit_reached',
        'round_completed',
        'DEBATING→SYNTHESIZING',
        'SYNTHESIZING→REVIEWING',
        'narrative_recorded',
        'REVIEWING→LOCKED',
        'evaluation_locked',
      ],
      rounds: 2,
      statuses: ['complete', 'partial'],
      rulings: ['r1c1:EVALUATOR', 'r2c1:RED_TEAM', 'r2c2:none'],
      trajectory: [
        { criterion: PC, scores: [7, 7, 6] },
        { criterion: ER, scores: [5, 5, 5] },
      ],
      narrativeSource: 'figures',
      narrative: {
        executiveSummary:
          'Locked early because the budget ran out, after 2 rounds and 2 debated challenges. The overall score stands at 5.50 of 10. No narrative could be written without another model call, so this summary is composed from the figures.',
        keyStrengths: [],
        keyWeaknesses: ['problem-clarity: 6/10, lost 1 of 2 challenges'],
        criticalAssumptions: ['problem-clarity holds up (scored 6/10, confidence 0.85)'],
        unresolvedQuestions: ['execution-risk: Execution has no owner'],
        recommendation: 'REFINE',
        recommendationReasoning:
          'Composed from the figures of an evaluation cut short (the budget ran out): an overall score of 5.50 maps to REFINE (5.5 and above REFINE, 4 and above PAUSE, below that ABANDON). PURSUE is never recommended without a finished evaluation; red-team survival so far is 50%.',
      },
    });
    // 0.4·(1/2) + 0 + 0.2·(1 − (6 − 5.5)/10) + 0.2·(2/4) = 0.2 + 0.19 + 0.1
    expect(doc.composites.overallConfidence).toBe(0.49);
  });

  it('leaves no trace of a round the time limit cut before its first ruling', () => {
    const run = replayEvaluation(
      script(header(), opening, round1(['a', 'b']), round2Open, control('timeout')),
      taxonomy,
    );
    expect({
      rounds: run.document.rounds,
      summaries: run.document.auditTrail.roundSummaries.length,
      stateRounds: [run.state.round, run.state.rounds.map((r) => `${r.round}:${r.status}`)],
      conflicts: run.document.auditTrail.conflicts.map((c) => c.id),
      abandoned: run.events.filter((e) => e.type === 'round_abandoned'),
      lockReason: run.document.lockReason,
      source: run.document.narrativeSource,
    }).toEqual({
      rounds: 1,
      summaries: 1,
      stateRounds: [1, ['1:complete']],
      conflicts: ['r1c1'],
      abandoned: [{ type: 'round_abandoned', round: 2, reason: 'the time limit passed' }],
      lockReason: 'TIMEOUT',
      source: 'figures',
    });
  });

  it('asks for a narrative when the researcher approves, since calls are still allowed', () => {
    const run = replayEvaluation(
      script(
        header(),
        opening,
        round1(['a', 'b']),
        round2Open,
        ruling('EVALUATOR'),
        control('user_approved'),
        narrative('PURSUE'),
      ),
      taxonomy,
    );
    expect([run.document.lockReason, run.document.narrativeSource, run.document.narrative.recommendation]).toEqual([
      'USER_APPROVED',
      'agent',
      'PURSUE',
    ]);
  });

  it('keeps a decided lock reason when the budget runs out while waiting for the narrative', () => {
    const doc = runEvaluationReplay(
      script(header(), opening, round1(), quietRound2, control('budget_exhausted')),
      taxonomy,
    );
    expect([doc.lockReason, doc.narrativeSource, doc.composites.convergenceRound]).toEqual([
      'CONVERGENCE',
      'figures',
      2,
    ]);
  });
});

describe('failure and retry', () => {
  it('fails when a limit strikes before the initial scores are complete', () => {
    const text = script(header(), evaluator('problem', [[PC, 7, 0.6]]), control('budget_exhausted'));
    expect(failure(text)).toBe(
      'line 3: the evaluation failed: the budget is exhausted before every criterion had its initial score',
    );
  });

  it('starts over after a retry and keeps the failure on record', () => {
    const run = replayEvaluation(
      script(
        header(),
        evaluator('problem', [[PC, 9, 0.6]]),
        failLine('the model refused three times'),
        control('retry'),
        opening,
        round1(),
        quietRound2,
        narrative(),
      ),
      taxonomy,
    );
    expect({
      lockReason: run.document.lockReason,
      initial: run.document.scores.map((s) => s.initialScore),
      retries: run.state.retries,
      failures: run.state.failures,
      phases: run.events.flatMap((e) => (e.type === 'phase_changed' ? [`${e.from}→${e.to}`] : [])).slice(0, 5),
    }).toEqual({
      lockReason: 'CONVERGENCE',
      initial: [7, 5],
      retries: 1,
      failures: [{ phase: 'EVALUATING', reason: 'the model refused three times' }],
      phases: [
        'PENDING→EVALUATING',
        'EVALUATING→FAILED',
        'FAILED→PENDING',
        'PENDING→EVALUATING',
        'EVALUATING→DEBATING',
      ],
    });
  });

  it('refuses a retry beyond the limit', () => {
    const text = script(header({ config: { maxRetries: 0 } }), failLine('down'), control('retry'));
    expect(failure(text)).toBe('line 3: retry: no retries left (0 of 0 used)');
  });
});
