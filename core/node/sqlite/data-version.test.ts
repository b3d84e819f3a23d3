import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { indexDataVersion } from './data-version';

it('changes when another connection commits, not for this connection’s own writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-data-version-'));
  const mine = new Database(join(dir, 'index.db'));
  const theirs = new Database(join(dir, 'index.db'));
  try {
    mine.exec('CREATE TABLE t (x INTEGER)');
    const start = indexDataVersion(mine);
    mine.prepare('INSERT INTO t VALUES (1)').run();
    const afterOwn = indexDataVersion(mine);
    theirs.prepare('INSERT INTO t VALUES (2)').run();
    const afterTheirs = indexDataVersion(mine);
    expect({ own: afterOwn === start, theirs: afterTheirs === afterOwn }).toEqual({ own: true, theirs: false });
  } finally {
    mine.close();
    theirs.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
