import type Database from 'better-sqlite3';

/**
 * Rows for queries over locked evaluations: the evaluation (`evaluations`), its score trajectory
 * (`evaluation_scores`) and the red team's challenges (`redteam_log`). The record file beside the
 * idea stays the authority; these are written once, when the evaluation locks.
 */

/** A locked evaluation's row. */
export interface LockedEvaluationRow {
  id: string;
  ideaId: string;
  mode: string;
  startedAt: string;
  completedAt: string;
  rounds: number;
  lockReason: string;
  contentHashAtEvaluation: string;
  overallScore: number;
  overallConfidence: number;
  redTeamSurvival: number | null;
  /** The evaluation this one reopened, which is marked as superseded by it; null for none. */
  supersedes: string | null;
}

/** A criterion's score at the end of a round (round 0: its initial score). */
export interface EvaluationScoreRow {
  round: number;
  criterion: string;
  category: string;
  score: number;
  confidence: number;
}

/** One challenge of the red team, the defence and the ruling's winner (null: not ruled). */
export interface RedTeamChallengeRow {
  round: number;
  persona: string;
  criterion: string;
  severity: string;
  challenge: string;
  response: string | null;
  outcome: string | null;
  loggedAt: string;
}

/** Writes a locked evaluation's rows in one transaction; a second call for the same evaluation replaces its row and scores. */
export function indexLockedEvaluation(
  db: Database.Database,
  evaluation: LockedEvaluationRow,
  scores: readonly EvaluationScoreRow[],
  challenges: readonly RedTeamChallengeRow[],
): void {
  const e = evaluation;
  db.transaction(() => {
    db.prepare(
      `INSERT OR REPLACE INTO evaluations (id, idea_id, mode, phase, started_at, completed_at, rounds, lock_reason,
         content_hash_at_evaluation, overall_score, overall_confidence, red_team_survival, superseded_by, cost_usd)
       VALUES (?, ?, ?, 'LOCKED', ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0)`,
    ).run(
      e.id,
      e.ideaId,
      e.mode,
      e.startedAt,
      e.completedAt,
      e.rounds,
      e.lockReason,
      e.contentHashAtEvaluation,
      e.overallScore,
      e.overallConfidence,
      e.redTeamSurvival,
    );
    if (e.supersedes) db.prepare('UPDATE evaluations SET superseded_by = ? WHERE id = ?').run(e.id, e.supersedes);
    const score = db.prepare(
      `INSERT OR REPLACE INTO evaluation_scores (evaluation_id, round, criterion, category, score, confidence, reasoning)
       VALUES (?, ?, ?, ?, ?, ?, NULL)`,
    );
    for (const s of scores) score.run(e.id, s.round, s.criterion, s.category, s.score, s.confidence);
    const challenge = db.prepare(
      `INSERT INTO redteam_log (idea_id, evaluation_id, round, persona, criterion, severity, challenge, response, outcome,
         logged_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const c of challenges) {
      challenge.run(
        e.ideaId,
        e.id,
        c.round,
        c.persona,
        c.criterion,
        c.severity,
        c.challenge,
        c.response,
        c.outcome,
        c.loggedAt,
      );
    }
  }).immediate();
}
