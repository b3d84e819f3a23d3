import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type LockedEvaluationRow, indexLockedEvaluation } from './locked-evaluation-queries';
import { migrate } from './migrations';

const locked = (id: string, supersedes: string | null): LockedEvaluationRow => ({
  id,
  ideaId: 'id-solar',
  mode: 'standard',
  startedAt: '2026-01-01T10:00:00Z',
  completedAt: '2026-01-01T10:05:00Z',
  rounds: 2,
  lockReason: 'CONVERGENCE',
  contentHashAtEvaluation: 'hash-solar',
  overallScore: 6.5,
  overallConfidence: 0.7,
  redTeamSurvival: null,
  supersedes,
});

describe('locked evaluation queries', () => {
  it('write an evaluation, its scores and challenges, and mark the one it reopened as superseded', () => {
    const db = new Database(':memory:');
    migrate(db);
    indexLockedEvaluation(db, locked('ev-1', null), [], []);
    indexLockedEvaluation(
      db,
      { ...locked('ev-2', 'ev-1'), redTeamSurvival: 0.5 },
      [
        { round: 0, criterion: 'market', category: 'viability', score: 5, confidence: 0.6 },
        { round: 1, criterion: 'market', category: 'viability', score: 7, confidence: 0.6 },
      ],
      [
        {
          round: 1,
          persona: 'skeptic',
          criterion: 'market',
          severity: 'MAJOR',
          challenge: 'Who pays?',
          response: 'The members.',
          outcome: 'EVALUATOR',
          loggedAt: '2026-01-01T10:05:00Z',
        },
      ],
    );
    expect({
      evaluations: db
        .prepare(
          `SELECT id, idea_id, mode, phase, rounds, lock_reason, overall_score, red_team_survival, superseded_by
           FROM evaluations ORDER BY id`,
        )
        .all(),
      scores: db.prepare('SELECT * FROM evaluation_scores ORDER BY round').all(),
      challenges: db
        .prepare('SELECT idea_id, evaluation_id, round, persona, severity, response, outcome FROM redteam_log')
        .all(),
    }).toEqual({
      evaluations: [
        {
          id: 'ev-1',
          idea_id: 'id-solar',
          mode: 'standard',
          phase: 'LOCKED',
          rounds: 2,
          lock_reason: 'CONVERGENCE',
          overall_score: 6.5,
          red_team_survival: null,
          superseded_by: 'ev-2',
        },
        {
          id: 'ev-2',
          idea_id: 'id-solar',
          mode: 'standard',
          phase: 'LOCKED',
          rounds: 2,
          lock_reason: 'CONVERGENCE',
          overall_score: 6.5,
          red_team_survival: 0.5,
          superseded_by: null,
        },
      ],
      scores: [
        {
          evaluation_id: 'ev-2',
          round: 0,
          criterion: 'market',
          category: 'viability',
          score: 5,
          confidence: 0.6,
          reasoning: null,
        },
        {
          evaluation_id: 'ev-2',
          round: 1,
          criterion: 'market',
          category: 'viability',
          score: 7,
          confidence: 0.6,
          reasoning: null,
        },
      ],
      challenges: [
        {
          idea_id: 'id-solar',
          evaluation_id: 'ev-2',
          round: 1,
          persona: 'skeptic',
          severity: 'MAJOR',
          response: 'The members.',
          outcome: 'EVALUATOR',
        },
      ],
    });
    db.close();
  });
});
