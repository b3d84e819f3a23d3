import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BackgroundCheck } from './integrity-check';
import { LATEST_VERSION, migrate } from './migrations';

export interface OpenedIndex {
  db: Database.Database;
  /** Why the index was (re)built from scratch, or null when an existing one was reused. */
  rebuilt: null | 'missing' | 'corrupt';
  detail?: string;
}

/**
 * An existing index whose `PRAGMA quick_check` is still running on a worker thread. Until
 * `settleIndex` has been called nothing read from `db` may be trusted (it may throw, or be wrong).
 */
export interface PendingIndex {
  path: string;
  db: Database.Database;
  check: BackgroundCheck;
}

/**
 * better-sqlite3 must be compiled for the runtime that loads it: Node for the CLI and tests, Electron
 * for the app. The desktop build points this at its own copy so both can live side by side.
 */
function nativeBinding(): string | undefined {
  return process.env.CRUCIBLE_SQLITE_BINDING || undefined;
}

/**
 * Page size of a new index file. A first sync of 10,000 ideas writes a 35 MB file in one
 * transaction: with SQLite's default 4 KB pages that is ~8,800 pages to split, write and sync, with
 * 16 KB pages a quarter as many. In runs alternating the two on one workspace, the first sync took
 * 9 % less wall and CPU time (medians of 10: 2,300 vs 2,532 ms), and its work after the last batch
 * (late indexes, commit) 67 ms less; restarts and the integrity check did not change (see
 * docs/performance.md). An existing file keeps the size it was created with (changing it means
 * rewriting the file), until it is next rebuilt.
 */
export const NEW_INDEX_PAGE_SIZE = 16384;

function openRaw(path: string, options: { create?: boolean } = {}): Database.Database {
  const binding = nativeBinding();
  const db = binding ? new Database(path, { nativeBinding: binding }) : new Database(path);
  // Before anything is written: the first write fixes the page size of the file.
  if (options.create) db.pragma(`page_size = ${NEW_INDEX_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  // The index is derivable from the folder, so a lost last transaction after a power cut is
  // harmless; NORMAL keeps WAL commits fast.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

function removeIndexFiles(path: string): void {
  // A journal left by a first sync that was cut short belongs to the old file: it must go with it.
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

function quickCheckInThread(db: Database.Database): void {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  const verdict = rows.map((r) => r.quick_check).join('; ');
  if (verdict !== 'ok') throw new Error(verdict);
}

function fresh(path: string, why: 'missing' | 'corrupt', detail?: string): OpenedIndex {
  removeIndexFiles(path);
  const db = openRaw(path, { create: true });
  migrate(db);
  return detail === undefined ? { db, rebuilt: why } : { db, rebuilt: why, detail };
}

/** A damaged index is replaced; one written by a newer version of the app is refused instead. */
function replaceDamaged(path: string, db: Database.Database | undefined, error: unknown): OpenedIndex {
  db?.close();
  const detail = error instanceof Error ? error.message : String(error);
  if (/newer version of Crucible/.test(detail)) throw error;
  return fresh(path, 'corrupt', detail);
}

/**
 * Opens `<workspace>/.crucible/index.db`. A missing index is created empty (the caller then
 * reconciles it from the folder; nothing is lost, the index never holds anything the folder does
 * not). An existing index at the current schema version is checked with `PRAGMA quick_check` on a
 * worker thread: the caller gets a `PendingIndex` at once, may do work that needs no trusted data
 * (walk the folder) and must call `settleIndex` before using what it read. An index that needs a
 * migration is checked first, in-thread, because a migration must not run on a damaged file.
 */
export function openIndexDeferred(path: string): OpenedIndex | PendingIndex {
  mkdirSync(dirname(path), { recursive: true });
  if (!existsSync(path)) return fresh(path, 'missing');
  let db: Database.Database | undefined;
  try {
    db = openRaw(path);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === LATEST_VERSION) {
      return { path, db, check: BackgroundCheck.start(path, nativeBinding()) };
    }
    quickCheckInThread(db);
    migrate(db);
    return { db, rebuilt: null };
  } catch (error) {
    return replaceDamaged(path, db, error);
  }
}

/**
 * Waits for the first answer of a pending index's background check: its ordinary tables. A damaged
 * index is closed, deleted and replaced by an empty one (`rebuilt: 'corrupt'`); when the background
 * check could not run at all, the whole check runs here instead, so an index is never trusted
 * unchecked. `rest` is the check still running over the full-text index (see `settleRest`), or
 * null when nothing is left to hear.
 */
export function settleIndex(pending: PendingIndex): OpenedIndex & { rest: PendingIndex | null } {
  const verdict = pending.check.wait('core');
  if (verdict.kind === 'ok') return { db: pending.db, rebuilt: null, rest: pending };
  if (verdict.kind === 'corrupt')
    return { ...replaceDamaged(pending.path, pending.db, new Error(verdict.detail)), rest: null };
  return { ...checkHere(pending), rest: null };
}

/**
 * Waits for the rest of the check (the full-text index and the file's page accounting) of an index
 * whose tables `settleIndex` already passed. A damaged index is replaced by an empty one, as there.
 */
export function settleRest(pending: PendingIndex): OpenedIndex {
  const verdict = pending.check.wait('full');
  if (verdict.kind === 'ok') return { db: pending.db, rebuilt: null };
  if (verdict.kind === 'corrupt') return replaceDamaged(pending.path, pending.db, new Error(verdict.detail));
  return checkHere(pending);
}

function checkHere(pending: PendingIndex): OpenedIndex {
  pending.check.stop();
  try {
    quickCheckInThread(pending.db);
    return { db: pending.db, rebuilt: null };
  } catch (error) {
    return replaceDamaged(pending.path, pending.db, error);
  }
}

/**
 * An existing index opened as it is (not checked, not migrated), or null when there is none: for a
 * process that only reads a few rows another process keeps up to date (who runs a debate).
 */
export function openExistingIndex(path: string): Database.Database | null {
  if (!existsSync(path)) return null;
  return openRaw(path);
}
