import type Database from 'better-sqlite3';
import { preparedPerDb } from './prepared';

/**
 * What the reader of stored evaluations (core/node/app/evaluation-records.ts) asks the index: the
 * files of every `evaluations/` folder, which folder holds an evaluation, and the ideas' content
 * hashes and current evaluations. The folder stays the authority: the index follows it through the
 * sync, and what is listed here is read from the folder.
 */

const statements = preparedPerDb((db) => ({
  slugsHolding: db.prepare('SELECT DISTINCT slug FROM files WHERE path LIKE ? OR path LIKE ?'),
  ideaEvaluation: db.prepare('SELECT content_hash, evaluation_id FROM ideas WHERE slug = ?'),
  currentEvaluations: db.prepare(
    'SELECT slug, evaluation_id AS evaluationId FROM ideas WHERE evaluation_id IS NOT NULL ORDER BY slug',
  ),
  // GLOB, not LIKE: case-sensitive, as the folder's names are, and `_` is no wildcard. A file the
  // sync refused (a link, say) has a row too, with its reason in sync_errors: it is left out.
  evaluationFiles: db
    .prepare(
      `SELECT f.slug, f.path, f.size, f.mtime_ms FROM files f
       WHERE f.path GLOB 'ideas/*/evaluations/*'
         AND NOT EXISTS (SELECT 1 FROM sync_errors e WHERE e.slug = f.slug AND e.path = f.path)`,
    )
    .raw(true),
  evaluationStates: db.prepare('SELECT slug, content_hash, evaluation_id FROM ideas').raw(true),
}));

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

/** A file of an `evaluations/` folder as the index last saw it. */
export interface IndexedEvaluationFile {
  slug: string;
  /** The file's name inside `ideas/<slug>/evaluations/`. */
  name: string;
  size: number;
  mtimeMs: number;
}

/**
 * Every file directly inside an idea's `evaluations/` folder, as the index knows it, without the
 * ones the sync refused. 20,000 rows at 10,000 evaluated ideas, read as arrays (half the time of
 * row objects).
 */
export function indexedEvaluationFiles(db: Database.Database): IndexedEvaluationFile[] {
  const out: IndexedEvaluationFile[] = [];
  for (const [slug, path, size, mtimeMs] of statements(db).evaluationFiles.all() as [
    string,
    string,
    number,
    number,
  ][]) {
    const prefix = `ideas/${slug}/evaluations/`;
    if (!path.startsWith(prefix)) continue;
    const name = path.slice(prefix.length);
    if (name.includes('/')) continue;
    out.push({ slug, name, size, mtimeMs });
  }
  return out;
}

/** Every idea's content hash and current evaluation id, by slug (one query, not one per idea). */
export function ideaEvaluationStates(
  db: Database.Database,
): Map<string, { contentHash: string; evaluationId: string | null }> {
  const rows = statements(db).evaluationStates.all() as [string, string, string | null][];
  return new Map(rows.map(([slug, contentHash, evaluationId]) => [slug, { contentHash, evaluationId }]));
}
