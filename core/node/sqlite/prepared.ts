import type Database from 'better-sqlite3';

/**
 * Statements prepared once per connection: `statements(db)` prepares them on the first call for a
 * connection and hands back the same ones after that. Preparing is the costly part of a small
 * query, and the views ask the same few questions on every request; a connection that is closed
 * and replaced (a rebuilt index) gets its own, and the old ones go with it.
 */
export function preparedPerDb<T>(prepare: (db: Database.Database) => T): (db: Database.Database) => T {
  const cache = new WeakMap<Database.Database, T>();
  return (db) => {
    let statements = cache.get(db);
    if (statements === undefined) {
      statements = prepare(db);
      cache.set(db, statements);
    }
    return statements;
  };
}
