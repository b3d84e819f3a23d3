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
const { debates, debate_events, ...V9WithoutDebates } = V9;
const V10 = {
  ...V9WithoutDebates,
  run_events: ['run_id', 'seq', 'type', 'at', 'payload_json'],
  runs: debates,
};
const V11 = {
  ...V10,
  council_decisions: [
    'key',
    'line',
    'task_id',
    'proposal',
    'at',
    'decision',
    'decided_by',
    'precedent',
    'note',
    'record_json',
  ],
  council_episodes: ['key', 'line', 'run_id', 'protocol', 'idea_slug', 'at', 'task', 'outcome', 'episode_json'],
  council_proposals: [
    'id',
    'task_id',
    'task',
    'idea_slug',
    'folder',
    'status',
    'stakes',
    'decision',
    'decided_by',
    'ladder',
    'versions',
    'goal',
    'record_json',
  ],
  council_weight_history: [
    'key',
    'line',
    'task_id',
    'at',
    'agent',
    'value',
    'delta',
    'from_weight',
    'to_weight',
    'refused',
    'reason',
  ],
  council_weights: ['agent', 'value', 'weight'],
};
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
  10: V10,
  11: V11,
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

  it('carry every run and its events from debates into runs (step 10), the index and cascade following', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, 9);
    db.prepare(
      `INSERT INTO debates (id, protocol, idea_slug, topic, status, provider, created_at, updated_at, log_path,
         result_json, cost_usd)
       VALUES ('d1', 'crux', 'solar', 'Solar co-ops', 'completed', 'simulated', '2026-01-01', '2026-01-02',
         'ideas/solar/debates/d1.jsonl', '{"cruxes":[]}', 0.25),
       ('e1', 'evaluation', 'solar', 'Solar co-ops', 'running', 'simulated', '2026-01-03', '2026-01-03',
         'ideas/solar/evaluations/e1.run.jsonl', NULL, 0)`,
    ).run();
    const event = db.prepare(
      'INSERT INTO debate_events (debate_id, seq, type, at, payload_json) VALUES (?, ?, ?, ?, ?)',
    );
    event.run('d1', 0, 'debate_created', '2026-01-01', '{"seq":0}');
    event.run('d1', 1, 'status', '2026-01-02', '{"seq":1}');
    event.run('e1', 0, 'run_created', '2026-01-03', '{"seq":0}');
    const runsBefore = db.prepare('SELECT * FROM debates ORDER BY id').all();
    const eventsBefore = db
      .prepare('SELECT debate_id AS run_id, seq, type, at, payload_json FROM debate_events ORDER BY debate_id, seq')
      .all();

    migrate(db, 10);
    const indexes = db
      .prepare(
        "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('runs', 'run_events') ORDER BY name",
      )
      .all();
    const after = {
      runs: db.prepare('SELECT * FROM runs ORDER BY id').all(),
      events: db.prepare('SELECT * FROM run_events ORDER BY run_id, seq').all(),
      indexes,
      foreignKeys: db.pragma('foreign_key_list(run_events)'),
    };
    // Deleting a run takes its events with it, as deleting a debate did.
    db.prepare("DELETE FROM runs WHERE id = 'd1'").run();
    const left = db.prepare('SELECT run_id, seq FROM run_events').all();

    expect({ ...after, left }).toEqual({
      runs: runsBefore,
      events: eventsBefore,
      indexes: [
        { name: 'runs_idea', tbl_name: 'runs' },
        { name: 'sqlite_autoindex_run_events_1', tbl_name: 'run_events' },
        { name: 'sqlite_autoindex_runs_1', tbl_name: 'runs' },
      ],
      foreignKeys: [expect.objectContaining({ table: 'runs', from: 'run_id', to: 'id', on_delete: 'CASCADE' })],
      left: [{ run_id: 'e1', seq: 0 }],
    });
    db.close();
  });

  it('keep the runs when step 10 runs again on an index whose version was set back by hand', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db);
    db.prepare(
      `INSERT INTO runs (id, protocol, topic, status, created_at, updated_at)
       VALUES ('d1', 'crux', 'Solar co-ops', 'running', '2026-01-01', '2026-01-01')`,
    ).run();
    db.prepare(
      "INSERT INTO run_events (run_id, seq, type, at, payload_json) VALUES ('d1', 0, 'debate_created', 'now', '{}')",
    ).run();
    db.pragma('user_version = 9');
    migrate(db);
    expect({
      runs: db.prepare('SELECT id, topic FROM runs').all(),
      events: db.prepare('SELECT run_id, seq FROM run_events').all(),
      shape: shape(db),
    }).toEqual({
      runs: [{ id: 'd1', topic: 'Solar co-ops' }],
      events: [{ run_id: 'd1', seq: 0 }],
      shape: sortKeys(V11),
    });
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
