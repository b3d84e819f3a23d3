import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from './migrations';
import {
  acquireLease,
  confirmLease,
  LEASE_STALE_MS,
  liveLease,
  releaseLease,
  releaseLeasesOf,
  renewLease,
} from './run-leases';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Two connections to one index file, as two processes would have. */
function twoProcesses(): [Database.Database, Database.Database] {
  dir = mkdtempSync(join(tmpdir(), 'crucible-leases-'));
  const path = join(dir, 'index.db');
  const a = new Database(path);
  a.pragma('journal_mode = WAL');
  migrate(a);
  const b = new Database(path);
  b.pragma('busy_timeout = 5000');
  return [a, b];
}

/** The pid of a process that has come and gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('run leases', () => {
  it('refuse a second owner while the first is live, and let one take over a lease gone stale or released', () => {
    const [a, b] = twoProcesses();
    const t0 = 1_700_000_000_000;
    const claim = (db: Database.Database, owner: string, pid: number, now: number) => {
      const got = acquireLease(db, { runId: 'run-1', kind: 'debate', owner, pid }, now);
      return got.acquired
        ? `${owner} acquired`
        : `${owner} refused: held by ${got.holder.owner} (pid ${got.holder.pid})`;
    };
    const held = (db: Database.Database, owner: string, now: number) =>
      confirmLease(db, 'run-1', owner, now).held ? `${owner} holds` : `${owner} lost`;
    /** Does `act` first, then tells what `say` sees. */
    const then = (act: () => unknown, say: () => string) => {
      act();
      return say();
    };

    const story = [
      // A live owner (this very process) with a fresh heartbeat: the second is refused.
      claim(a, 'first', process.pid, t0),
      claim(b, 'second', process.pid, t0 + 1_000),
      held(a, 'first', t0 + 1_000),
      // Renewed a second later, it is still fresh fourteen seconds after that.
      String(renewLease(a, 'run-1', 'first', t0 + 2_000)),
      claim(b, 'second', process.pid, t0 + 2_000 + LEASE_STALE_MS - 1),
      // Silent past the bound (a laptop asleep): the lease is stale though its process lives.
      String(liveLease(b, 'run-1', t0 + 2_000 + LEASE_STALE_MS + 1) === null),
      claim(b, 'second', process.pid, t0 + 2_000 + LEASE_STALE_MS + 1),
      // The first wakes up: it no longer holds the run, cannot renew it, and cannot release another's.
      held(a, 'first', t0 + 2_000 + LEASE_STALE_MS + 2),
      String(renewLease(a, 'run-1', 'first', t0 + 2_000 + LEASE_STALE_MS + 2)),
      then(
        () => releaseLease(a, 'run-1', 'first'),
        () => held(b, 'second', t0 + 2_000 + LEASE_STALE_MS + 3),
      ),
      // The second is killed: its heartbeat is fresh but its pid is gone on this host, so a third takes over.
      then(
        () => b.prepare('UPDATE run_leases SET pid = ? WHERE run_id = ?').run(deadPid(), 'run-1'),
        () => 'second killed',
      ),
      claim(a, 'third', process.pid, t0 + 2_000 + LEASE_STALE_MS + 4),
      // The third ends and releases: nobody holds the run, and anyone may start it.
      then(
        () => releaseLease(a, 'run-1', 'third'),
        () => String(liveLease(b, 'run-1', t0 + 2_000 + LEASE_STALE_MS + 5)),
      ),
      claim(b, 'fourth', process.pid, t0 + 2_000 + LEASE_STALE_MS + 5),
    ];
    expect(story).toEqual([
      'first acquired',
      `second refused: held by first (pid ${process.pid})`,
      'first holds',
      'true',
      `second refused: held by first (pid ${process.pid})`,
      'true',
      'second acquired',
      'first lost',
      'false',
      'second holds',
      'second killed',
      'third acquired',
      'null',
      'fourth acquired',
    ]);
    a.close();
    b.close();
  });

  it('renew an own lease past half the bound before confirming a write, unless someone took it over', () => {
    const [a, b] = twoProcesses();
    const t0 = 1_700_000_000_000;
    acquireLease(a, { runId: 'run-2', kind: 'evaluation', owner: 'mine', pid: process.pid }, t0);
    const late = t0 + LEASE_STALE_MS - 1_000;
    const confirmed = confirmLease(a, 'run-2', 'mine', late).held;
    // Renewed by the confirmation, so a claimant right after the old bound is still refused.
    const refused = acquireLease(
      b,
      { runId: 'run-2', kind: 'evaluation', owner: 'other', pid: process.pid },
      t0 + LEASE_STALE_MS + 1,
    );
    expect([confirmed, refused.acquired, liveLease(b, 'run-2', late)?.heartbeatMs]).toEqual([true, false, late]);
    a.close();
    b.close();
  });

  it('give up every lease taken through a connection when it closes, and only those', () => {
    const [a, b] = twoProcesses();
    for (const runId of ['x', 'y']) acquireLease(a, { runId, kind: 'debate', owner: `a-${runId}`, pid: process.pid });
    acquireLease(b, { runId: 'z', kind: 'debate', owner: 'b-z', pid: process.pid });
    releaseLeasesOf(a);
    expect(['x', 'y', 'z'].map((runId) => liveLease(b, runId)?.owner ?? null)).toEqual([null, null, 'b-z']);
    a.close();
    b.close();
  });
});
