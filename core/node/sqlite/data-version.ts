import type Database from 'better-sqlite3';
import { preparedPerDb } from './prepared';

const statements = preparedPerDb((db) => ({ dataVersion: db.prepare('PRAGMA data_version').pluck(true) }));

/**
 * SQLite's `data_version` on this connection: it changes when another connection (another
 * process: the command line, a second window) commits to the index, never for this connection's
 * own writes.
 */
export function indexDataVersion(db: Database.Database): number {
  return statements(db).dataVersion.get() as number;
}
