import type Database from 'better-sqlite3';
import { tagText } from '../../idea/frontmatter';
import type { IndexEntry } from '../../idea/index-md';
import type { FolderListing, SyncPlan } from '../../sync/types';

/**
 * Writes sync plans into an index that was empty when the pass began: the first sync of a library,
 * or the rebuild after the index was lost. Nothing can be there to delete, replace or look up, so
 * every row is a plain INSERT and an idea's rowid comes back from its own insert; `applySyncPlan`
 * does the same job for an index that already holds rows.
 *
 * Plain single-row INSERTs also matter for the full-text index: a statement that may touch more
 * than one row (an upsert, INSERT OR REPLACE) opens a statement savepoint, and FTS5 writes out its
 * pending terms at every savepoint, so interleaving them with text rows multiplies its work.
 */
/** An idea's text row: rowid, title, summary, tags, body. */
type TextRow = [number, string, string, string, string];

/** What a text row's slot holds once the row is written. */
const WRITTEN: TextRow = [0, '', '', '', ''];

/** Text rows a write may leave queued for the pass's idle moments (about two batches). */
const TEXT_BACKLOG = 400;

export class BulkLoader {
  private readonly insertFile: Database.Statement;
  private readonly insertIdea: Database.Statement;
  private readonly insertTag: Database.Statement;
  private readonly insertIdeaTag: Database.Statement;
  private readonly insertRelationship: Database.Statement;
  private readonly insertFts: Database.Statement;
  private readonly insertError: Database.Statement;
  private readonly insertListing: Database.Statement;
  private readonly knownTags = new Set<string>();
  /** The folder of every idea id written so far, for the planner's check that ids are unique. */
  private readonly owners = new Map<string, string>();
  /** What `ideas/_index.md` shows of each idea written, as `indexEntries` would read it back. */
  readonly entries: IndexEntry[] = [];
  private text: TextRow[] = [];
  private textAt = 0;

  /** Non-unique indexes dropped for the load and built again at its end (see `dropLateIndexes`). */
  private lateIndexes: string[] = [];
  private journal: string | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { now: string; tagCategory: ReadonlyMap<string, string> },
  ) {
    this.insertFile = db.prepare(
      'INSERT INTO files (path, slug, kind, size, mtime_ms, hash) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertIdea = db.prepare(
      `INSERT INTO ideas (slug, id, title, type, stage, summary, created, updated, folder, content_hash, row_hash,
         indexed_at, evaluated_hash, overall_score, confidence, evaluated_at, evaluation_id, red_team_survival,
         category_scores_json, lock_reason, recommendation)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTag = db.prepare('INSERT OR IGNORE INTO tags (name, category) VALUES (?, ?)');
    this.insertIdeaTag = db.prepare('INSERT INTO idea_tags (slug, tag, position) VALUES (?, ?, ?)');
    this.insertRelationship = db.prepare(
      'INSERT INTO relationships (source_slug, target_slug, type, strength, reason) VALUES (?, ?, ?, ?, ?)',
    );
    this.insertFts = db.prepare('INSERT INTO ideas_fts (rowid, title, summary, tags, body) VALUES (?, ?, ?, ?, ?)');
    this.insertError = db.prepare('INSERT INTO sync_errors (path, slug, reason, detected_at) VALUES (?, ?, ?, ?)');
    this.insertListing = db.prepare(
      'INSERT INTO folder_listings (path, mtime_ms, ctime_ms, subfolders, files) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /**
   * Before the pass's transaction. The load goes through a rollback journal instead of the WAL: in
   * WAL mode every page of a new index would be written twice (once to the log, once more when the
   * log is checkpointed at close), and a new index has almost no old pages for a journal to keep.
   * If another connection has the index open, the mode cannot change and the load simply runs in
   * WAL mode.
   *
   * The load does not wait for the disk (`synchronous = OFF`): its commit would otherwise spend
   * most of its time (~75 ms of a 10,000-idea first sync, a single-threaded wait at the very end)
   * in `fsync`. What that wait protects is a new index that only mirrors the folder. A process
   * that is killed or crashes loses nothing either way: the journal and the pages are already the
   * system's, and the journal rolls an unfinished load back to empty at the next open. A power cut
   * or system crash in the seconds before the system writes the file out can leave pages of it
   * unwritten; every page of a loaded index is new, so such a file has pages that its trees point
   * to and that hold nothing, or pages no tree accounts for, which the `quick_check` of every open
   * reports, and the index is rebuilt from the folder. The system writes the file out within its
   * usual delay (half a minute on Linux), and the first checkpoint that copies a later change into
   * it (back in WAL mode) syncs all of it.
   */
  begin(): void {
    // First, because leaving the WAL checkpoints it (a new index's schema is there), and that
    // checkpoint need not wait for the disk either: it was ~8 ms of nothing else happening.
    this.db.pragma('synchronous = OFF');
    let mode: unknown = null;
    try {
      mode = this.db.pragma('journal_mode = DELETE', { simple: true });
    } catch {
      // Another connection holds the index: the load runs in WAL mode, as every other write does.
    }
    if (mode === 'delete') this.journal = 'wal';
    else this.db.pragma('synchronous = NORMAL');
  }

  /** After the transaction (also after a failed one): back to the WAL the rest of the app expects. */
  end(): void {
    if (this.journal === null) return;
    this.journal = null;
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
  }

  /**
   * Inside the transaction, first: drops the non-unique secondary indexes of the tables being
   * loaded, so that each is built once, sorted, at the end instead of row by row. Unique indexes
   * stay and keep enforcing their constraint as rows go in (building the ids' index at the end
   * instead measured no faster).
   */
  dropLateIndexes(): void {
    const rows = this.db
      .prepare(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
         AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN ('ideas', 'files', 'idea_tags', 'relationships', 'sync_errors')`,
      )
      .all() as { name: string; sql: string }[];
    for (const { name, sql } of rows) {
      this.db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
      this.lateIndexes.push(sql);
    }
  }

  /** Inside the transaction, last: builds the indexes `dropLateIndexes` took away. */
  buildLateIndexes(): void {
    for (const sql of this.lateIndexes) this.db.exec(sql);
    this.lateIndexes = [];
  }

  /**
   * Writes queued text rows until at most `keep` are left. Indexing text is the largest single
   * cost of a first sync; rows queue here so that the pass can index them while it would otherwise
   * wait for a reader thread (`readInOrder`'s `idle`), and never more than a couple of batches'
   * worth is held. Returns true while rows are left.
   */
  writeText(keep = 0, slice = Number.POSITIVE_INFINITY): boolean {
    let written = 0;
    while (this.text.length - this.textAt > keep && written < slice) {
      const row = this.text[this.textAt] as TextRow;
      // A written row lets go of its text at once (an idea's is a few KB): held until the queue is
      // compacted, ~1,000 of them outlived every young-generation collection of a first sync.
      this.text[this.textAt++] = WRITTEN;
      this.insertFts.run(...row);
      written++;
    }
    if (this.textAt > 1024 && this.textAt * 2 > this.text.length) {
      this.text = this.text.slice(this.textAt);
      this.textAt = 0;
    }
    return this.text.length > this.textAt;
  }

  /** The folder whose idea holds this id, among those written so far. */
  ownerOf(id: string): string | undefined {
    return this.owners.get(id);
  }

  /** Records the listings of folders walked while they were read (see `walkWithListings`). */
  recordListings(listings: readonly FolderListing[]): void {
    for (const l of listings) this.insertListing.run(l.path, l.mtimeMs, l.ctimeMs, l.subfolders.join('\n'), l.files);
  }

  /** Writes one plan (one batch of folders); call inside the pass's transaction. */
  write(plan: SyncPlan): void {
    if (plan.deleteFiles.length > 0 || plan.deleteIdeas.length > 0) {
      throw new Error('a plan for an empty index cannot delete anything');
    }
    const { now, tagCategory } = this.options;
    for (const f of plan.upsertFiles) this.insertFile.run(f.path, f.slug, f.kind, f.size, f.mtimeMs, f.hash);
    const rowids: number[] = [];
    for (const row of plan.upsertIdeas) {
      const m = row.meta;
      const result = this.insertIdea.run(
        m.slug,
        m.id,
        m.title,
        m.type,
        m.stage,
        m.summary,
        m.created,
        m.updated,
        row.folder,
        row.contentHash,
        row.rowHash,
        now,
        row.evaluatedHash,
        row.overallScore,
        row.confidence,
        row.evaluatedAt,
        row.evaluationId,
        row.redTeamSurvival,
        row.categoryScores ? JSON.stringify(row.categoryScores) : null,
        row.lockReason,
        row.recommendation,
      );
      rowids.push(Number(result.lastInsertRowid));
      this.owners.set(m.id, m.slug);
      this.entries.push({
        slug: m.slug,
        title: m.title,
        type: m.type,
        stage: m.stage,
        tags: [...m.tags],
        updated: m.updated,
        overallScore: row.overallScore,
        stale: row.evaluatedHash !== null && row.evaluatedHash !== row.contentHash,
      });
      m.tags.forEach((tag, i) => {
        if (!this.knownTags.has(tag)) {
          this.knownTags.add(tag);
          this.insertTag.run(tag, tagCategory.get(tag) ?? null);
        }
        this.insertIdeaTag.run(m.slug, tag, i);
      });
      // The same link listed twice keeps its last strength and reason, as an upsert would.
      const links = new Map<string, (typeof m.relationships)[number]>();
      for (const r of m.relationships) links.set(`${r.target}\u0000${r.type}`, r);
      for (const r of links.values()) this.insertRelationship.run(m.slug, r.target, r.type, r.strength, r.reason);
    }
    // The text rows go after the other rows, and may wait (see `writeText`).
    plan.upsertIdeas.forEach((row, i) => {
      this.text.push([rowids[i] as number, row.meta.title, row.meta.summary, tagText(row.meta), row.searchText]);
    });
    this.writeText(TEXT_BACKLOG);
    for (const error of plan.setErrors) {
      const slug = error.path.split('/')[1] ?? '';
      this.insertError.run(error.path, slug, error.reason, now);
    }
  }
}
