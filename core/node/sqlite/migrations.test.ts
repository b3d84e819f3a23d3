import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, migrate } from './migrations';

/** Tables (virtual tables' shadow tables left out) and their columns, as the database sees them. */
function shape(db: Database.Database): Record<string, string[]> {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
       AND name NOT LIKE 'ideas_fts_%' ORDER BY name`,
    )
    .all() as { name: string }[];
  return Object.fromEntries(
    tables.map(({ name }) => [name, (db.pragma(`table_info(${name})`) as { name: string }[]).map((c) => c.name)]),
  );
}

const V1 = {
  files: ['path', 'slug', 'kind', 'size', 'mtime_ms', 'hash'],
  idea_tags: ['slug', 'tag', 'position'],
  ideas: [
    'slug',
    'id',
    'title',
    'type',
    'stage',
    'summary',
    'created',
    'updated',
    'folder',
    'content_hash',
    'row_hash',
    'indexed_at',
  ],
  meta: ['key', 'value'],
  relationships: ['source_slug', 'target_slug', 'type', 'strength', 'reason'],
  sync_errors: ['path', 'slug', 'reason', 'detected_at'],
  tags: ['name', 'category'],
};
const V2 = { ...V1, ideas_fts: ['title', 'summary', 'tags', 'body'] };
const V3 = {
  ...V2,
  ideas: [...V1.ideas, 'evaluated_hash', 'overall_score', 'confidence', 'evaluated_at'],
  development_log: ['id', 'idea_id', 'question', 'answer', 'source', 'gap', 'asked_at', 'answered_at'],
  evaluation_scores: ['evaluation_id', 'round', 'criterion', 'category', 'score', 'confidence', 'reasoning'],
  evaluations: [
    'id',
    'idea_id',
    'mode',
    'phase',
    'started_at',
    'completed_at',
    'rounds',
    'lock_reason',
    'content_hash_at_evaluation',
    'overall_score',
    'overall_confidence',
    'red_team_survival',
    'superseded_by',
    'cost_usd',
  ],
  redteam_log: [
    'id',
    'idea_id',
    'evaluation_id',
    'round',
    'persona',
    'criterion',
    'severity',
    'challenge',
    'response',
    'outcome',
    'logged_at',
  ],
};
const V4 = {
  ...V3,
  debate_events: ['debate_id', 'seq', 'type', 'at', 'payload_json'],
  debates: [
    'id',
    'protocol',
    'idea_slug',
    'topic',
    'status',
    'provider',
    'created_at',
    'updated_at',
    'log_path',
    'result_json',
    'cost_usd',
  ],
};
const V5 = {
  ...V4,
  ideas: [...V3.ideas, 'red_team_survival', 'category_scores_json', 'lock_reason', 'recommendation', 'evaluation_id'],
};
const V6 = V5;
const V7 = { ...V6, folder_listings: ['path', 'mtime_ms', 'ctime_ms', 'subfolders', 'files'] };
const V8 = V7;
const V9 = { ...V8, run_leases: ['run_id', 'kind', 'owner', 'pid', 'host', 'started_at', 'heartbeat_ms'] };
const EXPECTED: Record<number, Record<string, string[]>> = {
  1: V1,
  2: V2,
  3: V3,
  4: V4,
  5: V5,
  6: V6,
  7: V7,
  8: V8,
  9: V9,
};

describe('migrations', () => {
  it('are numbered 1, 2, 3 … without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(Object.keys(EXPECTED).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('build the expected tables one step at a time', () => {
    const db = new Database(':memory:');
    expect(shape(db)).toEqual({});
    for (const step of MIGRATIONS) {
      expect(migrate(db, step.version)).toBe(step.version);
      expect(shape(db), `after migration ${step.version} (${step.name})`).toEqual(
        sortKeys(EXPECTED[step.version] ?? {}),
      );
    }
    db.close();
  });

  it('keep the data of earlier steps when a later one runs', () => {
    const db = new Database(':memory:');
    migrate(db, 2);
    db.prepare(
      `INSERT INTO ideas (slug, id, title, stage, folder, content_hash, row_hash, indexed_at)
       VALUES ('a', 'A', 'Alpha', 'SPARK', 'ideas/a', 'h', 'r', 'now')`,
    ).run();
    migrate(db);
    expect(db.prepare('SELECT slug, title, evaluated_hash FROM ideas').all()).toEqual([
      { slug: 'a', title: 'Alpha', evaluated_hash: null },
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    db.close();
  });

  it('set the full-text index to flush its pending terms every 8 MB (step 6), keeping its rows', () => {
    const db = new Database(':memory:');
    migrate(db, 5);
    const config = () => db.prepare("SELECT v FROM ideas_fts_config WHERE k = 'hashsize'").pluck().get();
    db.prepare(
      "INSERT INTO ideas_fts (rowid, title, summary, tags, body) VALUES (1, 'Tidal kites', '', '', 'body')",
    ).run();
    expect(config()).toBeUndefined();
    migrate(db, 6);
    expect(config()).toBe(8388608);
    expect(db.prepare("SELECT rowid FROM ideas_fts WHERE ideas_fts MATCH 'kites'").pluck().all()).toEqual([1]);
    db.close();
  });

  it('refuse an index written by a newer version', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(/newer version of Crucible/);
    db.close();
  });
});

function sortKeys(o: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}
