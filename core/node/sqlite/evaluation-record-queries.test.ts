import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  currentEvaluations,
  ideaEvaluationState,
  slugsHoldingEvaluation,
  slugsWithEvaluations,
} from './evaluation-record-queries';
import { migrate } from './migrations';

function indexWithEvaluations(): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  const file = db.prepare("INSERT INTO files (path, slug, kind, size, mtime_ms) VALUES (?, ?, 'other', 1, 0)");
  for (const [path, slug] of [
    ['ideas/solar/README.md', 'solar'],
    ['ideas/solar/evaluations/ev-1.json', 'solar'],
    ['ideas/solar/evaluations/ev-1.md', 'solar'],
    ['ideas/bikes/evaluations/ev-2.run.jsonl', 'bikes'],
    ['ideas/bikes/evaluations/ev-10.json', 'bikes'],
    ['ideas/notes/README.md', 'notes'],
  ]) {
    file.run(path, slug);
  }
  db.prepare(
    `INSERT INTO ideas (slug, id, title, stage, folder, content_hash, row_hash, indexed_at, evaluation_id)
     VALUES (?, ?, ?, 'SPARK', ?, ?, 'r', '2026-01-01', ?)`,
  ).run('solar', 'id-solar', 'Solar', 'ideas/solar', 'hash-solar', 'ev-1');
  db.prepare(
    `INSERT INTO ideas (slug, id, title, stage, folder, content_hash, row_hash, indexed_at)
     VALUES (?, ?, ?, 'SPARK', ?, ?, 'r', '2026-01-01')`,
  ).run('notes', 'id-notes', 'Notes', 'ideas/notes', 'hash-notes');
  db.prepare(
    `INSERT INTO ideas (slug, id, title, stage, folder, content_hash, row_hash, indexed_at, evaluation_id)
     VALUES (?, ?, ?, 'SPARK', ?, ?, 'r', '2026-01-01', ?)`,
  ).run('bikes', 'id-bikes', 'Bikes', 'ideas/bikes', 'hash-bikes', 'ev-10');
  return db;
}

describe('evaluation record queries', () => {
  it('find the folders holding evaluations, the one holding an id, an idea’s evaluation state and every current one', () => {
    const db = indexWithEvaluations();
    expect({
      withEvaluations: slugsWithEvaluations(db).sort(),
      holdingRecord: slugsHoldingEvaluation(db, 'ev-1'),
      holdingCheckpoint: slugsHoldingEvaluation(db, 'ev-2'),
      // ev-1 is not a prefix match of ev-10: the whole file name is compared.
      holdingUnknown: slugsHoldingEvaluation(db, 'ev-3'),
      solar: ideaEvaluationState(db, 'solar'),
      notes: ideaEvaluationState(db, 'notes'),
      missing: ideaEvaluationState(db, 'nope'),
      current: currentEvaluations(db),
    }).toEqual({
      withEvaluations: ['bikes', 'solar'],
      holdingRecord: ['solar'],
      holdingCheckpoint: ['bikes'],
      holdingUnknown: [],
      solar: { contentHash: 'hash-solar', evaluationId: 'ev-1' },
      notes: { contentHash: 'hash-notes', evaluationId: null },
      missing: null,
      current: [
        { slug: 'bikes', evaluationId: 'ev-10' },
        { slug: 'solar', evaluationId: 'ev-1' },
      ],
    });
    db.close();
  });
});
