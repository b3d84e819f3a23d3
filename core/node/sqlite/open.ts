import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations';

export interface OpenedIndex {
  db: Database.Database;
  /** Why the index was (re)built from scratch, or null when an existing one was reused. */
  rebuilt: null | 'missing' | 'corrupt';
  detail?: string;
}

/**
 * better-sqlite3 must be compiled for the runtime that loads it: Node for the CLI and tests, Electron
 * for the app. The desktop build points this at its own copy so both can live side by side.
 */
function nativeBinding(): string | undefined {
  return process.env.CRUCIBLE_SQLITE_BINDING || undefined;
}

function openRaw(path: string): Database.Database {
  const binding = nativeBinding();
  const db = binding ? new Database(path, { nativeBinding: binding }) : new Database(path);
  db.pragma('journal_mode = WAL');
  // The index is derivable from the folder, so a lost last transaction after a power cut is
  // harmless; NORMAL keeps WAL commits fast.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

function removeIndexFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

/**
 * Opens `<workspace>/.crucible/index.db`, checks it with `PRAGMA quick_check` and migrates it. A
 * missing or corrupt index is replaced by an empty one; the caller then reconciles it from the
 * folder. Nothing is lost: the index never holds anything the folder does not.
 */
export function openIndex(path: string): OpenedIndex {
  mkdirSync(dirname(path), { recursive: true });
  const existed = existsSync(path);
  if (existed) {
    let db: Database.Database | undefined;
    try {
      db = openRaw(path);
      const rows = db.pragma('quick_check') as { quick_check: string }[];
      const verdict = rows.map((r) => r.quick_check).join('; ');
      if (verdict !== 'ok') throw new Error(verdict);
      migrate(db);
      return { db, rebuilt: null };
    } catch (error) {
      db?.close();
      const detail = error instanceof Error ? error.message : String(error);
      if (/newer version of Crucible/.test(detail)) throw error;
      removeIndexFiles(path);
      const fresh = openRaw(path);
      migrate(fresh);
      return { db: fresh, rebuilt: 'corrupt', detail };
    }
  }
  removeIndexFiles(path);
  const db = openRaw(path);
  migrate(db);
  return { db, rebuilt: 'missing' };
}
