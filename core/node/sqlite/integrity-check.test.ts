import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundCheck } from './integrity-check';
import { openIndexDeferred, settleIndex } from './open';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-check-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the background integrity check', () => {
  it('passes a sound index, names a damaged one, and says when it could not look', () => {
    const good = join(dir, 'good.db');
    const db = new Database(good);
    db.exec('CREATE TABLE t (a TEXT PRIMARY KEY); INSERT INTO t VALUES (1), (2);');
    db.close();
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(8192, 0x41));

    expect(BackgroundCheck.start(good, undefined).wait()).toEqual({ kind: 'ok' });
    expect(BackgroundCheck.start(garbage, undefined).wait()).toMatchObject({
      kind: 'corrupt',
      detail: expect.stringMatching(/not a database/),
    });
    // Could not open at all: not evidence of damage, so the caller checks in-thread instead.
    expect(BackgroundCheck.start(join(dir, 'absent.db'), undefined).wait()).toMatchObject({ kind: 'unknown' });
  });

  it('lets the opener work while it runs, and a pending index can be closed before its verdict', () => {
    const path = join(dir, 'index.db');
    const first = openIndexDeferred(path);
    expect('check' in first ? 'pending' : first.rebuilt).toBe('missing');
    if (!('check' in first)) first.db.close();

    const pending = openIndexDeferred(path);
    if (!('check' in pending)) throw new Error('an existing index at the current version is checked in the background');
    expect(settleIndex(pending).rebuilt).toBeNull();
    pending.db.close();

    const abandoned = openIndexDeferred(path);
    if (!('check' in abandoned)) throw new Error('expected a pending index');
    abandoned.check.stop();
    abandoned.db.close();
  });
});
