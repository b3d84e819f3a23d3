import type Database from 'better-sqlite3';
import type { FolderListing, IndexedIdea, IndexedStat, ListingRow, SyncPlan } from '../../sync/types';
import { tagText } from '../../idea/frontmatter';
import type { IndexEntry } from '../../idea/index-md';
import type { IdeaFileKind } from '../../idea/layout';

/**
 * SQL for the idea index as plain functions over a database handle. The planner in core decides
 * what changes; these only read the current state and write a plan, in one transaction.
 */

/**
 * Size and mtime of every indexed file, keyed by path: what a full reconcile compares the walk with.
 * Read as raw rows (a restart reads ~2 per idea, and building row objects in the driver costs more
 * than the query).
 */
export function loadIndexedStats(db: Database.Database): Map<string, IndexedStat> {
  const out = new Map<string, IndexedStat>();
  const rows = db.prepare('SELECT path, slug, size, mtime_ms FROM files').raw().all() as [
    string,
    string,
    number,
    number,
  ][];
  for (const [path, slug, size, mtimeMs] of rows) out.set(path, { slug, size, mtimeMs });
  return out;
}

export function loadIndexedStatsOf(db: Database.Database, slugs: Iterable<string>): Map<string, IndexedStat> {
  const stmt = db.prepare('SELECT path, slug, size, mtime_ms FROM files WHERE slug = ?').raw();
  const out = new Map<string, IndexedStat>();
  for (const slug of slugs) {
    for (const [path, owner, size, mtimeMs] of stmt.all(slug) as [string, string, number, number][]) {
      out.set(path, { slug: owner, size, mtimeMs });
    }
  }
  return out;
}

/** The idea folders the index has files of. */
export function loadIndexedSlugs(db: Database.Database): string[] {
  return db.prepare('SELECT DISTINCT slug FROM files').pluck().all() as string[];
}

/**
 * The folder listings recorded by the last full syncs (see `walkWithListings`), by path, as plain
 * rows: a restart reads one per folder of the library and building objects would cost as much as
 * the query.
 */
export function loadFolderListings(db: Database.Database): Map<string, ListingRow> {
  const out = new Map<string, ListingRow>();
  const rows = db
    .prepare('SELECT path, mtime_ms, ctime_ms, subfolders, files FROM folder_listings')
    .raw()
    .all() as ListingRow[];
  for (const row of rows) out.set(row[0], row);
  return out;
}

/** Records some listings and forgets others. */
export function writeFolderListings(
  db: Database.Database,
  record: readonly FolderListing[],
  forget: readonly string[],
): void {
  const remove = db.prepare('DELETE FROM folder_listings WHERE path = ?');
  for (const path of forget) remove.run(path);
  const upsert = db.prepare(
    `INSERT INTO folder_listings (path, mtime_ms, ctime_ms, subfolders, files) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms,
       subfolders = excluded.subfolders, files = excluded.files`,
  );
  for (const l of record) upsert.run(l.path, l.mtimeMs, l.ctimeMs, l.subfolders.join('\n'), l.files);
}

/**
 * Forgets the listings of these idea folders and everything under them: a pass that reads some
 * folders (the watcher's) changes their rows without recording listings, so the next full sync
 * must compare them with the index again.
 */
export function forgetFolderListings(db: Database.Database, slugs: Iterable<string>): void {
  // Paths under `ideas/<slug>/` sort between that prefix and the same prefix ending in '0' ('/' + 1).
  const remove = db.prepare('DELETE FROM folder_listings WHERE path = ? OR (path > ? AND path < ?)');
  for (const slug of slugs) remove.run(`ideas/${slug}`, `ideas/${slug}/`, `ideas/${slug}0`);
}

/** What the index holds for these ideas (only the folders a pass looks at). */
export function loadIndexedIdeas(db: Database.Database, slugs: Iterable<string>): Map<string, IndexedIdea> {
  const stmt = db.prepare('SELECT id, row_hash AS rowHash FROM ideas WHERE slug = ?');
  const out = new Map<string, IndexedIdea>();
  for (const slug of slugs) {
    const row = stmt.get(slug) as IndexedIdea | undefined;
    if (row) out.set(slug, row);
  }
  return out;
}

/** The folder that holds an idea id in the index, looked up by the unique index on ids. */
export function idOwnerLookup(db: Database.Database): (id: string) => string | undefined {
  const stmt = db.prepare('SELECT slug FROM ideas WHERE id = ?');
  return (id) => (stmt.get(id) as { slug: string } | undefined)?.slug;
}

export function applySyncPlan(
  db: Database.Database,
  plan: SyncPlan,
  options: { now: string; tagCategory: ReadonlyMap<string, string> },
): void {
  const deleteFile = db.prepare('DELETE FROM files WHERE path = ?');
  const upsertFile = db.prepare(
    `INSERT INTO files (path, slug, kind, size, mtime_ms, hash) VALUES (@path, @slug, @kind, @size, @mtimeMs, @hash)
     ON CONFLICT(path) DO UPDATE SET slug = excluded.slug, kind = excluded.kind, size = excluded.size,
       mtime_ms = excluded.mtime_ms, hash = excluded.hash`,
  );
  const rowidOf = db.prepare('SELECT rowid AS rowid FROM ideas WHERE slug = ?').pluck();
  const rowidsHolding = db.prepare('SELECT rowid FROM ideas WHERE id = ? AND slug <> ?').pluck();
  const deleteIdea = db.prepare('DELETE FROM ideas WHERE slug = ?');
  const deleteIdeaHoldingId = db.prepare('DELETE FROM ideas WHERE id = ? AND slug <> ?');
  const deleteFts = db.prepare('DELETE FROM ideas_fts WHERE rowid = ?');
  const upsertIdea = db.prepare(
    `INSERT INTO ideas (slug, id, title, type, stage, summary, created, updated, folder, content_hash, row_hash,
       indexed_at, evaluated_hash, overall_score, confidence, evaluated_at, evaluation_id, red_team_survival,
       category_scores_json, lock_reason, recommendation)
     VALUES (@slug, @id, @title, @type, @stage, @summary, @created, @updated, @folder, @contentHash, @rowHash,
       @indexedAt, @evaluatedHash, @overallScore, @confidence, @evaluatedAt, @evaluationId, @redTeamSurvival,
       @categoryScores, @lockReason, @recommendation)
     ON CONFLICT(slug) DO UPDATE SET id = excluded.id, title = excluded.title, type = excluded.type,
       stage = excluded.stage, summary = excluded.summary, created = excluded.created, updated = excluded.updated,
       folder = excluded.folder, content_hash = excluded.content_hash, row_hash = excluded.row_hash,
       indexed_at = excluded.indexed_at, evaluated_hash = excluded.evaluated_hash,
       overall_score = excluded.overall_score, confidence = excluded.confidence, evaluated_at = excluded.evaluated_at,
       evaluation_id = excluded.evaluation_id, red_team_survival = excluded.red_team_survival,
       category_scores_json = excluded.category_scores_json, lock_reason = excluded.lock_reason,
       recommendation = excluded.recommendation`,
  );
  const deleteTags = db.prepare('DELETE FROM idea_tags WHERE slug = ?');
  const insertTag = db.prepare('INSERT OR IGNORE INTO idea_tags (slug, tag, position) VALUES (?, ?, ?)');
  const ensureTag = db.prepare('INSERT OR IGNORE INTO tags (name, category) VALUES (?, ?)');
  const deleteRelationships = db.prepare('DELETE FROM relationships WHERE source_slug = ?');
  const insertRelationship = db.prepare(
    'INSERT OR REPLACE INTO relationships (source_slug, target_slug, type, strength, reason) VALUES (?, ?, ?, ?, ?)',
  );
  const insertFts = db.prepare('INSERT INTO ideas_fts (rowid, title, summary, tags, body) VALUES (?, ?, ?, ?, ?)');
  const clearErrors = db.prepare('DELETE FROM sync_errors WHERE slug = ?');
  const insertError = db.prepare('INSERT INTO sync_errors (path, slug, reason, detected_at) VALUES (?, ?, ?, ?)');

  // Immediate: it reads (row ids) between its writes; see `runSyncPass`.
  db.transaction(() => {
    for (const path of plan.deleteFiles) deleteFile.run(path);
    for (const file of plan.upsertFiles) upsertFile.run(file);
    for (const slug of plan.deleteIdeas) {
      const rowid = rowidOf.get(slug);
      if (rowid !== undefined) deleteFts.run(rowid);
      deleteIdea.run(slug);
    }
    for (const row of plan.upsertIdeas) {
      const { meta } = row;
      // An id moving between folders (a rename) must free the old row before the unique index sees it.
      for (const rowid of rowidsHolding.all(meta.id, meta.slug)) deleteFts.run(rowid);
      deleteIdeaHoldingId.run(meta.id, meta.slug);
      upsertIdea.run({
        slug: meta.slug,
        id: meta.id,
        title: meta.title,
        type: meta.type,
        stage: meta.stage,
        summary: meta.summary,
        created: meta.created,
        updated: meta.updated,
        folder: row.folder,
        contentHash: row.contentHash,
        rowHash: row.rowHash,
        indexedAt: options.now,
        evaluatedHash: row.evaluatedHash,
        overallScore: row.overallScore,
        confidence: row.confidence,
        evaluatedAt: row.evaluatedAt,
        evaluationId: row.evaluationId,
        redTeamSurvival: row.redTeamSurvival,
        categoryScores: row.categoryScores ? JSON.stringify(row.categoryScores) : null,
        lockReason: row.lockReason,
        recommendation: row.recommendation,
      });
      deleteTags.run(meta.slug);
      meta.tags.forEach((tag, i) => {
        ensureTag.run(tag, options.tagCategory.get(tag) ?? null);
        insertTag.run(meta.slug, tag, i);
      });
      deleteRelationships.run(meta.slug);
      for (const r of meta.relationships) insertRelationship.run(meta.slug, r.target, r.type, r.strength, r.reason);
    }
    // The text index last, in one run: interleaving it with the other writes makes it flush its
    // pending terms again and again.
    for (const row of plan.upsertIdeas) {
      const rowid = rowidOf.get(row.meta.slug);
      deleteFts.run(rowid);
      insertFts.run(rowid, row.meta.title, row.meta.summary, tagText(row.meta), row.searchText);
    }
    for (const slug of plan.clearErrorsFor) clearErrors.run(slug);
    for (const error of plan.setErrors) {
      const slug = error.path.split('/')[1] ?? '';
      insertError.run(error.path, slug, error.reason, options.now);
    }
  }).immediate();
}

export interface IdeaListRow {
  slug: string;
  id: string;
  title: string;
  type: string | null;
  stage: string;
  tags: string[];
  summary: string;
  created: string | null;
  updated: string | null;
  stale: boolean;
  overallScore: number | null;
  confidence: number | null;
  evaluatedAt: string | null;
  contentHash: string;
}

export interface IdeaFilter {
  stage?: string;
  type?: string;
  tag?: string;
}

interface RawIdea {
  slug: string;
  id: string;
  title: string;
  type: string | null;
  stage: string;
  summary: string;
  created: string | null;
  updated: string | null;
  tags: string | null;
  evaluated_hash: string | null;
  content_hash: string;
  overall_score: number | null;
  confidence: number | null;
  evaluated_at: string | null;
}

const SELECT_IDEAS = `
  SELECT i.slug, i.id, i.title, i.type, i.stage, i.summary, i.created, i.updated, i.content_hash,
    i.evaluated_hash, i.overall_score, i.confidence, i.evaluated_at,
    (SELECT json_group_array(tag) FROM (SELECT tag FROM idea_tags t WHERE t.slug = i.slug ORDER BY position)) AS tags
  FROM ideas i`;

function toListRow(raw: RawIdea): IdeaListRow {
  return {
    slug: raw.slug,
    id: raw.id,
    title: raw.title,
    type: raw.type,
    stage: raw.stage,
    tags: raw.tags ? (JSON.parse(raw.tags) as string[]) : [],
    summary: raw.summary,
    created: raw.created,
    updated: raw.updated,
    // Stale: the idea's inputs changed since the evaluation recorded their hash (seed, appendix H).
    stale: raw.evaluated_hash !== null && raw.evaluated_hash !== raw.content_hash,
    overallScore: raw.overall_score,
    confidence: raw.confidence,
    evaluatedAt: raw.evaluated_at,
    contentHash: raw.content_hash,
  };
}

export function listIdeas(db: Database.Database, filter: IdeaFilter = {}): IdeaListRow[] {
  const where: string[] = [];
  const params: Record<string, string> = {};
  if (filter.stage) {
    where.push('i.stage = @stage');
    params.stage = filter.stage.toUpperCase();
  }
  if (filter.type) {
    where.push('i.type = @type');
    params.type = filter.type.toLowerCase();
  }
  if (filter.tag) {
    where.push('EXISTS (SELECT 1 FROM idea_tags t WHERE t.slug = i.slug AND t.tag = @tag)');
    params.tag = filter.tag.toLowerCase();
  }
  const sql = `${SELECT_IDEAS} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY i.title COLLATE NOCASE, i.slug`;
  return (db.prepare(sql).all(params) as RawIdea[]).map(toListRow);
}

/**
 * What `ideas/_index.md` shows of every idea, in the library's order (as `listIdeas`), read as plain
 * rows, one per idea with its tags as a JSON array (reading the tag rows one by one took twice as
 * long at 10,000 ideas): it is rebuilt after every sync that changed an idea.
 */
export function indexEntries(db: Database.Database): IndexEntry[] {
  const rows = db
    .prepare(
      `SELECT slug, title, type, stage, updated, overall_score,
         (evaluated_hash IS NOT NULL AND evaluated_hash <> content_hash),
         (SELECT json_group_array(tag ORDER BY position) FROM idea_tags t WHERE t.slug = i.slug)
       FROM ideas i ORDER BY title COLLATE NOCASE, slug`,
    )
    .raw()
    .all() as [string, string, string | null, string, string | null, number | null, number, string][];
  return rows.map(([slug, title, type, stage, updated, overallScore, stale, tags]) => ({
    slug,
    title,
    type,
    stage,
    tags: JSON.parse(tags) as string[],
    updated,
    overallScore,
    stale: stale === 1,
  }));
}

/** Every indexed idea's slug. */
export function ideaSlugs(db: Database.Database): string[] {
  return db.prepare('SELECT slug FROM ideas').pluck().all() as string[];
}

export function getIdea(db: Database.Database, slug: string): IdeaListRow | null {
  const raw = db.prepare(`${SELECT_IDEAS} WHERE i.slug = ?`).get(slug) as RawIdea | undefined;
  return raw ? toListRow(raw) : null;
}

export function ideaFiles(db: Database.Database, slug: string): { path: string; kind: IdeaFileKind; size: number }[] {
  return db.prepare('SELECT path, kind, size FROM files WHERE slug = ? ORDER BY path').all(slug) as {
    path: string;
    kind: IdeaFileKind;
    size: number;
  }[];
}

export function ideaRelationships(
  db: Database.Database,
  slug: string,
): { source: string; target: string; type: string; strength: number | null; reason: string | null }[] {
  return db
    .prepare(
      `SELECT source_slug AS source, target_slug AS target, type, strength, reason FROM relationships
       WHERE source_slug = ? OR target_slug = ? ORDER BY source_slug, target_slug`,
    )
    .all(slug, slug) as {
    source: string;
    target: string;
    type: string;
    strength: number | null;
    reason: string | null;
  }[];
}

/** Every relationship between ideas (the graph view), in a stable order. */
export function allRelationships(
  db: Database.Database,
): { source: string; target: string; type: string; strength: number | null; reason: string | null }[] {
  return db
    .prepare(
      'SELECT source_slug AS source, target_slug AS target, type, strength, reason FROM relationships ORDER BY source_slug, target_slug, type',
    )
    .all() as { source: string; target: string; type: string; strength: number | null; reason: string | null }[];
}

export interface SearchHit {
  slug: string;
  title: string;
  snippet: string;
  rank: number;
}

/** The words of a query as the researcher typed them (the index matches each as a prefix). */
export function queryTerms(query: string): string[] {
  return query
    .split(/\s+/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * Full-text search. The researcher types words, not FTS syntax, so each word becomes a quoted
 * prefix term: `solar coop` finds "solar cooperative". Quotes inside words are doubled (FTS escaping).
 * Titles weigh most, then summary and tags, then the text. The index keeps terms only; the caller
 * cuts the snippet from the files.
 */
export function searchIdeas(db: Database.Database, query: string, limit = 50): Omit<SearchHit, 'snippet'>[] {
  const terms = ftsTerms(query);
  if (terms.length === 0) return [];
  return db
    .prepare(
      `SELECT i.slug AS slug, i.title AS title, bm25(ideas_fts, 10, 5, 5, 1) AS rank
       FROM ideas_fts f JOIN ideas i ON i.rowid = f.rowid
       WHERE ideas_fts MATCH ? ORDER BY rank LIMIT ?`,
    )
    .all(terms.join(' '), limit) as Omit<SearchHit, 'snippet'>[];
}

/** How many ideas `searchIdeas` would find with no limit: lists say "50 of 80", not "50". */
export function countIdeaMatches(db: Database.Database, query: string): number {
  const terms = ftsTerms(query);
  if (terms.length === 0) return 0;
  const row = db
    .prepare('SELECT count(*) AS n FROM ideas_fts f JOIN ideas i ON i.rowid = f.rowid WHERE ideas_fts MATCH ?')
    .get(terms.join(' ')) as { n: number };
  return row.n;
}

/** The typed words as quoted FTS prefix terms (quotes inside words doubled). */
function ftsTerms(query: string): string[] {
  return queryTerms(query).map((t) => `"${t.replaceAll('"', '""')}"*`);
}

export interface LeaderboardRow {
  rank: number;
  slug: string;
  title: string;
  type: string | null;
  stage: string;
  overallScore: number | null;
  categoryScores: Record<string, number>;
  confidence: number | null;
  redTeamSurvival: number | null;
  recommendation: string | null;
  lockReason: string | null;
  evaluationId: string | null;
  evaluatedAt: string | null;
  stale: boolean;
}

/**
 * Ideas ranked by overall score (unevaluated ones last, by title), with what the leaderboard shows.
 * One query over the index, whose evaluation columns come from each idea's synthesis.md.
 */
export function leaderboard(db: Database.Database): LeaderboardRow[] {
  const rows = db
    .prepare(
      `SELECT slug, title, type, stage, overall_score, category_scores_json, confidence, red_team_survival,
         recommendation, lock_reason, evaluation_id, evaluated_at,
         (evaluated_hash IS NOT NULL AND evaluated_hash <> content_hash) AS stale
       FROM ideas ORDER BY overall_score IS NULL, overall_score DESC, title COLLATE NOCASE, slug`,
    )
    .all() as {
    slug: string;
    title: string;
    type: string | null;
    stage: string;
    overall_score: number | null;
    category_scores_json: string | null;
    confidence: number | null;
    red_team_survival: number | null;
    recommendation: string | null;
    lock_reason: string | null;
    evaluation_id: string | null;
    evaluated_at: string | null;
    stale: number;
  }[];
  return rows.map((r, i) => ({
    rank: i + 1,
    slug: r.slug,
    title: r.title,
    type: r.type,
    stage: r.stage,
    overallScore: r.overall_score,
    categoryScores: r.category_scores_json ? (JSON.parse(r.category_scores_json) as Record<string, number>) : {},
    confidence: r.confidence,
    redTeamSurvival: r.red_team_survival,
    recommendation: r.recommendation,
    lockReason: r.lock_reason,
    evaluationId: r.evaluation_id,
    evaluatedAt: r.evaluated_at,
    stale: r.stale === 1,
  }));
}

export function syncErrors(db: Database.Database): { file: string; reason: string }[] {
  return db.prepare('SELECT path AS file, reason FROM sync_errors ORDER BY path, rowid').all() as {
    file: string;
    reason: string;
  }[];
}

/** The sync errors whose reason contains `text`, with the idea folder each is about. */
export function syncErrorsMentioning(db: Database.Database, text: string): { slug: string; reason: string }[] {
  return db.prepare('SELECT slug, reason FROM sync_errors WHERE reason LIKE ?').all(`%${text}%`) as {
    slug: string;
    reason: string;
  }[];
}

export function indexCounts(db: Database.Database): { ideas: number; files: number } {
  const ideas = (db.prepare('SELECT count(*) AS n FROM ideas').get() as { n: number }).n;
  const files = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
  return { ideas, files };
}

/** True when the index holds no file, idea or error row (a new or rebuilt index). */
export function isIndexEmpty(db: Database.Database): boolean {
  return (
    db
      .prepare(
        'SELECT EXISTS (SELECT 1 FROM files) OR EXISTS (SELECT 1 FROM ideas) OR EXISTS (SELECT 1 FROM sync_errors)',
      )
      .pluck()
      .get() === 0
  );
}

export function getMeta(db: Database.Database, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
