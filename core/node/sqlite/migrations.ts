import type Database from 'better-sqlite3';

/**
 * Numbered, append-only schema steps. `PRAGMA user_version` records how many have run. A step is
 * never edited once released: a change is a new step. Each one has a test that migrates an empty
 * database one step at a time and compares the resulting tables.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ideas, files, tags, relationships, sync errors',
    sql: `
      CREATE TABLE ideas (
        slug TEXT PRIMARY KEY,
        id TEXT NOT NULL,
        title TEXT NOT NULL,
        type TEXT,
        stage TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        created TEXT,
        updated TEXT,
        folder TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        row_hash TEXT NOT NULL,
        indexed_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX ideas_id ON ideas(id);
      CREATE INDEX ideas_stage ON ideas(stage);
      CREATE INDEX ideas_type ON ideas(type);

      CREATE TABLE files (
        path TEXT PRIMARY KEY,
        slug TEXT NOT NULL,
        kind TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        hash TEXT
      );
      CREATE INDEX files_slug ON files(slug);

      CREATE TABLE tags (
        name TEXT PRIMARY KEY,
        category TEXT
      );
      CREATE TABLE idea_tags (
        slug TEXT NOT NULL REFERENCES ideas(slug) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (slug, tag)
      );
      CREATE INDEX idea_tags_tag ON idea_tags(tag);

      CREATE TABLE relationships (
        source_slug TEXT NOT NULL REFERENCES ideas(slug) ON DELETE CASCADE,
        target_slug TEXT NOT NULL,
        type TEXT NOT NULL,
        strength REAL,
        reason TEXT,
        PRIMARY KEY (source_slug, target_slug, type)
      );

      CREATE TABLE sync_errors (
        path TEXT NOT NULL,
        slug TEXT NOT NULL,
        reason TEXT NOT NULL,
        detected_at TEXT NOT NULL
      );
      CREATE INDEX sync_errors_slug ON sync_errors(slug);

      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'full-text search over idea text',
    sql: `
      -- One row per idea, its rowid equal to the idea's rowid in ideas: updates and deletes find
      -- it by key instead of scanning the whole text index. Contentless: the text already lives in
      -- the folder, so the index keeps only the terms (half the size, and a faster quick_check).
      CREATE VIRTUAL TABLE ideas_fts USING fts5(
        title,
        summary,
        tags,
        body,
        content = '',
        contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
    `,
  },
  {
    version: 3,
    name: 'evaluations, scores, development log, red-team log',
    sql: `
      ALTER TABLE ideas ADD COLUMN evaluated_hash TEXT;
      ALTER TABLE ideas ADD COLUMN overall_score REAL;
      ALTER TABLE ideas ADD COLUMN confidence REAL;
      ALTER TABLE ideas ADD COLUMN evaluated_at TEXT;

      CREATE TABLE evaluations (
        id TEXT PRIMARY KEY,
        idea_id TEXT NOT NULL,
        mode TEXT NOT NULL,
        phase TEXT NOT NULL,
        started_at TEXT NOT NULL,
        completed_at TEXT,
        rounds INTEGER NOT NULL DEFAULT 0,
        lock_reason TEXT,
        content_hash_at_evaluation TEXT,
        overall_score REAL,
        overall_confidence REAL,
        red_team_survival REAL,
        superseded_by TEXT,
        cost_usd REAL NOT NULL DEFAULT 0
      );
      CREATE INDEX evaluations_idea ON evaluations(idea_id);

      CREATE TABLE evaluation_scores (
        evaluation_id TEXT NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        criterion TEXT NOT NULL,
        category TEXT NOT NULL,
        score INTEGER NOT NULL CHECK (score BETWEEN 1 AND 10),
        confidence REAL NOT NULL,
        reasoning TEXT,
        PRIMARY KEY (evaluation_id, round, criterion)
      );

      CREATE TABLE development_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idea_id TEXT NOT NULL,
        question TEXT NOT NULL,
        answer TEXT,
        source TEXT NOT NULL,
        gap TEXT,
        asked_at TEXT NOT NULL,
        answered_at TEXT
      );
      CREATE INDEX development_log_idea ON development_log(idea_id);

      CREATE TABLE redteam_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idea_id TEXT NOT NULL,
        evaluation_id TEXT,
        round INTEGER,
        persona TEXT NOT NULL,
        criterion TEXT,
        severity TEXT NOT NULL,
        challenge TEXT NOT NULL,
        response TEXT,
        outcome TEXT,
        logged_at TEXT NOT NULL
      );
      CREATE INDEX redteam_log_idea ON redteam_log(idea_id);
    `,
  },
  {
    version: 4,
    name: 'debates and their event logs',
    sql: `
      CREATE TABLE debates (
        id TEXT PRIMARY KEY,
        protocol TEXT NOT NULL,
        idea_slug TEXT,
        topic TEXT NOT NULL,
        status TEXT NOT NULL,
        provider TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        log_path TEXT,
        result_json TEXT,
        cost_usd REAL NOT NULL DEFAULT 0
      );
      CREATE INDEX debates_idea ON debates(idea_slug);

      CREATE TABLE debate_events (
        debate_id TEXT NOT NULL REFERENCES debates(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        PRIMARY KEY (debate_id, seq)
      );
    `,
  },
  {
    version: 5,
    name: 'evaluation summary per idea (from synthesis.md), for the leaderboard',
    sql: `
      ALTER TABLE ideas ADD COLUMN red_team_survival REAL;
      ALTER TABLE ideas ADD COLUMN category_scores_json TEXT;
      ALTER TABLE ideas ADD COLUMN lock_reason TEXT;
      ALTER TABLE ideas ADD COLUMN recommendation TEXT;
      ALTER TABLE ideas ADD COLUMN evaluation_id TEXT;
    `,
  },
  {
    version: 6,
    name: 'full-text index: 8 MB of pending terms per flush',
    sql: `
      -- FTS5 collects new terms in memory and writes them out as a segment when the buffer is full
      -- (1 MB by default), merging segments as they pile up. Indexing a whole library with a 1 MB
      -- buffer spends about a third of its time merging; 8 MB keeps that memory bounded and
      -- writes a larger, better-merged index. A small change is flushed at its commit either way.
      INSERT INTO ideas_fts (ideas_fts, rank) VALUES ('hashsize', 8388608);
    `,
  },
  {
    version: 7,
    name: 'folder listings a restart can trust instead of listing every folder again',
    sql: `
      -- One row per folder of an idea (the idea folder and the folders under it), written by a full
      -- sync: the folder's mtime and ctime when it was listed, its subfolders, and its files with
      -- size and mtime. Adding, removing or renaming an entry changes a folder's ctime, which no
      -- program can set back, so a folder whose times still match has the same entries and only
      -- its files need a stat. Only folders unchanged for a while are recorded (a change within
      -- the file system's timestamp resolution could otherwise go unseen).
      CREATE TABLE folder_listings (
        path TEXT PRIMARY KEY,
        mtime_ms REAL NOT NULL,
        ctime_ms REAL NOT NULL,
        subfolders TEXT NOT NULL,
        files TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 8,
    name: 'search text without HTML comments: every folder is read once more',
    sql: `
      -- The full-text index no longer holds the words of HTML comments (the development log's
      -- metadata lines, template guidance). It keeps no text to rebuild from, so the next sync reads
      -- every folder again: no recorded listing is trusted, and no recorded file size matches.
      -- Each idea's row hash names the search-text rule, so every idea it rereads is rewritten.
      DELETE FROM folder_listings;
      UPDATE files SET size = -1;
    `,
  },
  {
    version: 9,
    name: 'run leases: one writer per debate or evaluation',
    sql: `
      -- The process that runs a debate or an evaluation holds its row for as long as it runs and
      -- refreshes heartbeat_ms (epoch milliseconds) every second or so; another process that wants
      -- to write the same run's log is refused while the row is live (run-leases.ts). A row left by
      -- a killed process is taken over, so nothing here needs cleaning up by hand. IF NOT EXISTS:
      -- an index whose version was set back by hand (as tests of older steps do) keeps its table.
      CREATE TABLE IF NOT EXISTS run_leases (
        run_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        started_at TEXT NOT NULL,
        heartbeat_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    name: 'runs and run_events: one pair of tables for the runs of every protocol',
    sql: `
      -- debates and debate_events held every protocol's runs already (a protocol column, the
      -- evaluation's too); they take the names of what they hold, debate_id becoming run_id. The
      -- rows are copied, not renamed in place, so the step can run again on an index whose version
      -- was set back by hand (as tests of older steps do): there the new tables exist, the old
      -- ones are created empty for the copy, and nothing is lost either way.
      CREATE TABLE IF NOT EXISTS runs (
        id TEXT PRIMARY KEY,
        protocol TEXT NOT NULL,
        idea_slug TEXT,
        topic TEXT NOT NULL,
        status TEXT NOT NULL,
        provider TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        log_path TEXT,
        result_json TEXT,
        cost_usd REAL NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS runs_idea ON runs(idea_slug);

      CREATE TABLE IF NOT EXISTS run_events (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );

      CREATE TABLE IF NOT EXISTS debates (id TEXT PRIMARY KEY, protocol TEXT, idea_slug TEXT, topic TEXT,
        status TEXT, provider TEXT, created_at TEXT, updated_at TEXT, log_path TEXT, result_json TEXT, cost_usd REAL);
      CREATE TABLE IF NOT EXISTS debate_events (debate_id TEXT, seq INTEGER, type TEXT, at TEXT, payload_json TEXT);

      INSERT INTO runs (id, protocol, idea_slug, topic, status, provider, created_at, updated_at, log_path,
        result_json, cost_usd)
      SELECT id, protocol, idea_slug, topic, status, provider, created_at, updated_at, log_path, result_json, cost_usd
      FROM debates;
      INSERT INTO run_events (run_id, seq, type, at, payload_json)
      SELECT debate_id, seq, type, at, payload_json FROM debate_events ORDER BY debate_id, seq;

      -- The events first: with foreign keys on, dropping the runs' old table deletes its rows,
      -- which the old events still reference.
      DROP TABLE debate_events;
      DROP TABLE debates;
    `,
  },
  {
    version: 11,
    name: "the council's files mirrored: proposals, every protocol's episodes, decisions, weights",
    sql: `
      -- What is under <workspace>/council/ as plain files, for queries (memory list|search, the
      -- council's views and figures). The files are the truth: these rows are thrown away and read
      -- again from them whenever the files changed (core/node/council/council-mirror.ts), so a
      -- deleted index loses nothing. IF NOT EXISTS: an index whose version was set back by hand (as
      -- tests of older steps do) keeps its tables.
      CREATE TABLE IF NOT EXISTS council_proposals (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL,
        task TEXT NOT NULL,
        idea_slug TEXT,
        folder TEXT NOT NULL,
        status TEXT NOT NULL,
        stakes TEXT,
        decision TEXT,
        decided_by TEXT,
        ladder INTEGER NOT NULL,
        versions INTEGER NOT NULL,
        goal TEXT NOT NULL,
        record_json TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS council_proposals_task ON council_proposals(task_id);

      -- One row per line of memory/episodes.jsonl (crux, evaluation, arena and council alike).
      CREATE TABLE IF NOT EXISTS council_episodes (
        key TEXT PRIMARY KEY,
        line INTEGER NOT NULL,
        run_id TEXT NOT NULL,
        protocol TEXT NOT NULL,
        idea_slug TEXT,
        at TEXT NOT NULL,
        task TEXT NOT NULL,
        outcome TEXT NOT NULL,
        episode_json TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS council_episodes_idea ON council_episodes(idea_slug);

      -- memory/consensus_history.jsonl: every decision, the researcher's marked as precedents.
      CREATE TABLE IF NOT EXISTS council_decisions (
        key TEXT PRIMARY KEY,
        line INTEGER NOT NULL,
        task_id TEXT,
        proposal TEXT,
        at TEXT,
        decision TEXT,
        decided_by TEXT,
        precedent INTEGER NOT NULL,
        note TEXT,
        record_json TEXT NOT NULL
      );

      -- values/weights.json and values/weight_history.jsonl.
      CREATE TABLE IF NOT EXISTS council_weights (
        agent TEXT NOT NULL,
        value TEXT NOT NULL,
        weight REAL NOT NULL,
        PRIMARY KEY (agent, value)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS council_weight_history (
        key TEXT PRIMARY KEY,
        line INTEGER NOT NULL,
        task_id TEXT,
        at TEXT,
        agent TEXT,
        value TEXT,
        delta REAL,
        from_weight REAL,
        to_weight REAL,
        refused INTEGER NOT NULL,
        reason TEXT
      );
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Runs the steps after the database's current version, each in its own transaction. */
export function migrate(db: Database.Database, upTo: number = LATEST_VERSION): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > LATEST_VERSION) {
    throw new Error(
      `the index was written by a newer version of Crucible (schema ${current}, this one knows ${LATEST_VERSION})`,
    );
  }
  for (const step of MIGRATIONS) {
    if (step.version <= current || step.version > upTo) continue;
    // With the write lock held, the version is read again: another process opening the same index
    // may have run this step meanwhile.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) >= step.version) return;
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
