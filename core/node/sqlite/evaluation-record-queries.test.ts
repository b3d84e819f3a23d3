import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  currentEvaluations,
  ideaEvaluationState,
  ideaEvaluationStates,
  indexedEvaluationFiles,
  slugsHoldingEvaluation,
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
  it('find the folder holding an id, an idea’s evaluation state and every current one', () => {
    const db = indexWithEvaluations();
    expect({
      holdingRecord: slugsHoldingEvaluation(db, 'ev-1'),
      holdingCheckpoint: slugsHoldingEvaluation(db, 'ev-2'),
      // ev-1 is not a prefix match of ev-10: the whole file name is compared.
      holdingUnknown: slugsHoldingEvaluation(db, 'ev-3'),
      solar: ideaEvaluationState(db, 'solar'),
      notes: ideaEvaluationState(db, 'notes'),
      missing: ideaEvaluationState(db, 'nope'),
      current: currentEvaluations(db),
    }).toEqual({
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

describe('the index’s list of evaluation files', () => {
  it('lists the files directly inside each evaluations folder with size and time, not the ones the sync refused', () => {
    const db = new Database(':memory:');
    migrate(db);
    const file = db.prepare("INSERT INTO files (path, slug, kind, size, mtime_ms) VALUES (?, ?, 'other', ?, ?)");
    file.run('ideas/solar/evaluations/ev-1.json', 'solar', 10, 1.5);
    file.run('ideas/solar/evaluations/ev-1.jsonl', 'solar', 20, 2);
    file.run('ideas/solar/evaluations/old/ev-0.json', 'solar', 1, 1);
    file.run('ideas/solar/Evaluations/ev-9.json', 'solar', 1, 1);
    file.run('ideas/solar/notes/evaluations/ev-8.json', 'solar', 1, 1);
    file.run('ideas/solar/README.md', 'solar', 1, 1);
    file.run('ideas/bikes/evaluations/ev-2.run.jsonl', 'bikes', 30, 3);
    file.run('ideas/bikes/evaluations/ev-3.json', 'bikes', 40, 4);
    db.prepare('INSERT INTO sync_errors (path, slug, reason, detected_at) VALUES (?, ?, ?, ?)').run(
      'ideas/bikes/evaluations/ev-3.json',
      'bikes',
      'is a symbolic link',
      '2026-01-01',
    );
    db.prepare(
      `INSERT INTO ideas (slug, id, title, stage, folder, content_hash, row_hash, indexed_at, evaluation_id)
       VALUES ('solar', 'id-solar', 'Solar', 'SPARK', 'ideas/solar', 'hash-solar', 'r', '2026-01-01', 'ev-1')`,
    ).run();
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect({
      files: indexedEvaluationFiles(db).sort(byName),
      states: [...ideaEvaluationStates(db)],
    }).toEqual({
      files: [
        { slug: 'solar', name: 'ev-1.json', size: 10, mtimeMs: 1.5 },
        { slug: 'solar', name: 'ev-1.jsonl', size: 20, mtimeMs: 2 },
        { slug: 'bikes', name: 'ev-2.run.jsonl', size: 30, mtimeMs: 3 },
      ],
      states: [['solar', { contentHash: 'hash-solar', evaluationId: 'ev-1' }]],
    });
    db.close();
  });
});
