import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { allRelationships, syncErrorsMentioning } from './index-sql';
import { migrate } from './migrations';

describe('index queries', () => {
  it('list every relationship in a stable order, and the sync errors that mention some text', () => {
    const db = new Database(':memory:');
    migrate(db);
    const idea = db.prepare(
      `INSERT INTO ideas (slug, id, title, stage, folder, content_hash, row_hash, indexed_at)
       VALUES (?, ?, ?, 'SPARK', ?, 'h', 'r', '2026-01-01')`,
    );
    for (const slug of ['a', 'b']) idea.run(slug, `id-${slug}`, slug.toUpperCase(), `ideas/${slug}`);
    const relation = db.prepare(
      'INSERT INTO relationships (source_slug, target_slug, type, strength, reason) VALUES (?, ?, ?, ?, ?)',
    );
    relation.run('b', 'a', 'extends', null, null);
    relation.run('a', 'b', 'related', 0.5, 'same roofs');
    relation.run('a', 'b', 'competes', 1, null);
    const error = db.prepare("INSERT INTO sync_errors (path, slug, reason, detected_at) VALUES (?, ?, ?, 'now')");
    error.run('ideas/c/README.md', 'c', 'id "x" is already used by ideas/a/README.md');
    error.run('ideas/d/README.md', 'd', 'frontmatter: title is missing');
    expect({
      relationships: allRelationships(db),
      clashes: syncErrorsMentioning(db, 'is already used by'),
    }).toEqual({
      relationships: [
        { source: 'a', target: 'b', type: 'competes', strength: 1, reason: null },
        { source: 'a', target: 'b', type: 'related', strength: 0.5, reason: 'same roofs' },
        { source: 'b', target: 'a', type: 'extends', strength: null, reason: null },
      ],
      clashes: [{ slug: 'c', reason: 'id "x" is already used by ideas/a/README.md' }],
    });
    db.close();
  });
});
