import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { damageFullTextBlock } from '../../../tests/helpers/damage';
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

  it('answers for the tables first and for the full-text index after; damage only the latter sees waits for it', () => {
    const path = join(dir, 'fts.db');
    const db = new Database(path);
    db.exec("CREATE TABLE t (a TEXT PRIMARY KEY); CREATE VIRTUAL TABLE f USING fts5(body, content = '');");
    const insert = db.prepare('INSERT INTO f (rowid, body) VALUES (?, ?)');
    for (let i = 1; i <= 300; i++) insert.run(i, `tidal kites, note ${i}, words ${i * 7}`);
    db.close();

    const sound = BackgroundCheck.start(path, undefined);
    expect([sound.wait('core'), sound.wait('full')]).toEqual([{ kind: 'ok' }, { kind: 'ok' }]);

    damageFullTextBlock(path, 'f');
    const check = BackgroundCheck.start(path, undefined);
    expect(check.wait('core')).toEqual({ kind: 'ok' });
    expect(check.wait('full')).toMatchObject({ kind: 'corrupt', detail: expect.stringMatching(/fts5: corruption/) });
    // Asked again (or after a stop), the answer stays what it was, without waiting.
    check.stop();
    expect(check.wait('full')).toMatchObject({ kind: 'corrupt' });

    // The rest waits for the word to go on (the opening pass is over, or its answer is needed).
    const held = BackgroundCheck.start(path, undefined, { fullDelayMs: 60_000 });
    expect(held.wait('core')).toEqual({ kind: 'ok' });
    const heldSince = performance.now();
    while (performance.now() - heldSince < 300) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    expect(held.settled('full')).toBe(false);
    held.proceed();
    expect(held.wait('full', 30_000)).toMatchObject({ kind: 'corrupt' });
    // Not even asked: it goes on by itself after a while.
    const unasked = BackgroundCheck.start(path, undefined, { fullDelayMs: 0 });
    expect(unasked.wait('core')).toEqual({ kind: 'ok' });
    const unaskedSince = performance.now();
    while (!unasked.settled('full') && performance.now() - unaskedSince < 30_000)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    expect(unasked.settled('full')).toBe(true);
    unasked.stop();

    // A check stopped before its answers came says it does not know, at once.
    const stopped = BackgroundCheck.start(path, undefined);
    stopped.stop();
    const started = performance.now();
    expect(stopped.wait('full', 60_000).kind).not.toBe('ok');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
