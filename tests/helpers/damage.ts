import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Scribbles over the payload of one leaf block of a full-text index, in the file's bytes. The B-tree
 * that holds the block stays well-formed (so a check of its table passes); only the full-text
 * index's own consistency check can see the damage. SQLite refuses writes to shadow tables, hence
 * the bytes.
 */
export function damageFullTextBlock(dbPath: string, table: string): void {
  const db = new Database(dbPath, { readonly: true });
  const block = db
    .prepare(
      `SELECT block FROM "${table}_data" WHERE id > 10 AND length(block) BETWEEN 64 AND 1000 ORDER BY id DESC LIMIT 1`,
    )
    .pluck()
    .get() as Buffer | undefined;
  db.close();
  if (!block) throw new Error(`${table} has no leaf block small enough to damage in place`);
  const bytes = readFileSync(dbPath);
  const at = bytes.indexOf(block.subarray(0, 32));
  if (at < 0 || bytes.indexOf(block.subarray(0, 32), at + 1) >= 0) throw new Error('block not found once in the file');
  bytes.fill(0xa5, at + 4, at + block.length);
  writeFileSync(dbPath, bytes);
}
