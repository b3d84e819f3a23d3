import type Database from 'better-sqlite3';
import { preparedPerDb } from './prepared';

/**
 * What the reader of stored evaluations (core/node/app/evaluation-records.ts) asks the index: which
 * idea folders hold evaluation files, and an idea's content hash and current evaluation. The
 * folder stays the authority; these only say where to look first.
 */

const statements = preparedPerDb((db) => ({
  slugsWithEvaluations: db.prepare("SELECT DISTINCT slug FROM files WHERE path LIKE 'ideas/%/evaluations/%'"),
  slugsHolding: db.prepare('SELECT DISTINCT slug FROM files WHERE path LIKE ? OR path LIKE ?'),
  ideaEvaluation: db.prepare('SELECT content_hash, evaluation_id FROM ideas WHERE slug = ?'),
  currentEvaluations: db.prepare(
    'SELECT slug, evaluation_id AS evaluationId FROM ideas WHERE evaluation_id IS NOT NULL ORDER BY slug',
  ),
}));

/** Ideas whose folder has files in `evaluations/`, as the index knows them. */
export function slugsWithEvaluations(db: Database.Database): string[] {
  return (statements(db).slugsWithEvaluations.all() as { slug: string }[]).map((r) => r.slug);
}

/**
 * Ideas whose `evaluations/` folder holds the record (`<id>.json`) or the checkpoint
 * (`<id>.run.jsonl`) of evaluation `id`. Ids hold only [a-z0-9-], so nothing in them is a
 * LIKE wildcard.
 */
export function slugsHoldingEvaluation(db: Database.Database, id: string): string[] {
  const rows = statements(db).slugsHolding.all(
    `ideas/%/evaluations/${id}.json`,
    `ideas/%/evaluations/${id}.run.jsonl`,
  ) as { slug: string }[];
  return rows.map((r) => r.slug);
}

/** The idea's content hash now and the id of its current evaluation; null for an idea the index lacks. */
export function ideaEvaluationState(
  db: Database.Database,
  slug: string,
): { contentHash: string; evaluationId: string | null } | null {
  const row = statements(db).ideaEvaluation.get(slug) as
    | { content_hash: string; evaluation_id: string | null }
    | undefined;
  return row ? { contentHash: row.content_hash, evaluationId: row.evaluation_id } : null;
}

/** Every idea that has a current evaluation, with its id, by slug. */
export function currentEvaluations(db: Database.Database): { slug: string; evaluationId: string }[] {
  return statements(db).currentEvaluations.all() as { slug: string; evaluationId: string }[];
}
