import { hostname } from 'node:os';
import type Database from 'better-sqlite3';

/**
 * Who writes a run's log (a debate's or an evaluation's): one row per running run in the index,
 * taken in a write transaction so two processes can never both believe they hold it. The owner
 * refreshes its heartbeat every second or so; a row whose process is gone (same machine) or whose
 * heartbeat is older than `LEASE_STALE_MS` (a process on another machine sharing the folder, a
 * laptop that slept) no longer counts, and the next claimant takes it over.
 */
export interface RunLease {
  runId: string;
  kind: 'debate' | 'evaluation' | 'run';
  /** A token of the one run in one process that holds it (a process may run several). */
  owner: string;
  pid: number;
  host: string;
  startedAt: string;
  heartbeatMs: number;
}

/** The owners holding a lease through each connection, so closing it can give them all up. */
const heldThrough = new WeakMap<Database.Database, Set<string>>();

/** A heartbeat older than this means the owner is gone or asleep: long enough for a busy event loop. */
export const LEASE_STALE_MS = 15_000;

/** Whether a process exists on this machine (EPERM: it does, it is someone else's; ESRCH: gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Row {
  run_id: string;
  kind: 'debate' | 'evaluation' | 'run';
  owner: string;
  pid: number;
  host: string;
  started_at: string;
  heartbeat_ms: number;
}

function fromRow(row: Row): RunLease {
  return {
    runId: row.run_id,
    kind: row.kind,
    owner: row.owner,
    pid: row.pid,
    host: row.host,
    startedAt: row.started_at,
    heartbeatMs: row.heartbeat_ms,
  };
}

function readLease(db: Database.Database, runId: string): RunLease | null {
  const row = db.prepare('SELECT * FROM run_leases WHERE run_id = ?').get(runId) as Row | undefined;
  return row ? fromRow(row) : null;
}

/** A lease that still counts: its process is there (when it is on this machine) and its heartbeat recent. */
export function isLive(
  lease: RunLease,
  now: number = Date.now(),
  alive: (pid: number) => boolean = processAlive,
): boolean {
  if (now - lease.heartbeatMs > LEASE_STALE_MS) return false;
  return lease.host !== hostname() || alive(lease.pid);
}

/** The live lease on `runId`, or null when no process holds it (never run, ended, killed, asleep too long). */
export function liveLease(
  db: Database.Database,
  runId: string,
  now: number = Date.now(),
  alive: (pid: number) => boolean = processAlive,
): RunLease | null {
  const lease = readLease(db, runId);
  return lease && isLive(lease, now, alive) ? lease : null;
}

/**
 * Takes the lease on `runId` for `owner`, unless another owner holds a live one: then that lease is
 * returned and nothing changes. Read and write happen under the write lock (BEGIN IMMEDIATE), so of
 * two processes claiming at once exactly one wins.
 */
export function acquireLease(
  db: Database.Database,
  claim: Pick<RunLease, 'runId' | 'kind' | 'owner' | 'pid'>,
  now: number = Date.now(),
  alive: (pid: number) => boolean = processAlive,
): { acquired: true } | { acquired: false; holder: RunLease } {
  return db
    .transaction(() => {
      const holder = readLease(db, claim.runId);
      if (holder && holder.owner !== claim.owner && isLive(holder, now, alive)) {
        return { acquired: false as const, holder };
      }
      db.prepare(
        `INSERT INTO run_leases (run_id, kind, owner, pid, host, started_at, heartbeat_ms)
       VALUES (@runId, @kind, @owner, @pid, @host, @startedAt, @now)
       ON CONFLICT(run_id) DO UPDATE SET kind = excluded.kind, owner = excluded.owner, pid = excluded.pid,
         host = excluded.host, started_at = excluded.started_at, heartbeat_ms = excluded.heartbeat_ms`,
      ).run({ ...claim, host: hostname(), startedAt: new Date(now).toISOString(), now });
      const owners = heldThrough.get(db) ?? new Set<string>();
      owners.add(claim.owner);
      heldThrough.set(db, owners);
      return { acquired: true as const };
    })
    .immediate();
}

/** Refreshes the heartbeat; false when `owner` no longer holds the lease (another process took it over). */
export function renewLease(db: Database.Database, runId: string, owner: string, now: number = Date.now()): boolean {
  return (
    db.prepare('UPDATE run_leases SET heartbeat_ms = ? WHERE run_id = ? AND owner = ?').run(now, runId, owner)
      .changes === 1
  );
}

/**
 * Whether `owner` may append to the run's log now: it holds the lease and its heartbeat leaves a
 * margin before anyone could count it stale (so no claimant can take over during the append). An
 * own lease past that margin (the event loop stalled, the machine slept) is renewed first, which
 * succeeds only if nobody took it over meanwhile. A plain read in the usual case.
 */
export function confirmLease(
  db: Database.Database,
  runId: string,
  owner: string,
  now: number = Date.now(),
): { held: true } | { held: false; holder: RunLease | null } {
  const lease = readLease(db, runId);
  if (lease?.owner !== owner) return { held: false, holder: lease };
  if (now - lease.heartbeatMs < LEASE_STALE_MS / 2 || renewLease(db, runId, owner, now)) return { held: true };
  return { held: false, holder: readLease(db, runId) };
}

/** Gives the lease up (only `owner`'s: a process that took it over keeps its own). */
export function releaseLease(db: Database.Database, runId: string, owner: string): void {
  db.prepare('DELETE FROM run_leases WHERE run_id = ? AND owner = ?').run(runId, owner);
  heldThrough.get(db)?.delete(owner);
}

/**
 * Gives up every lease taken through `db`, before it closes: a run left waiting when its workspace
 * closes (a debate paused at shutdown) can write nothing more, and the process, still alive, must
 * not keep it from a resume.
 */
export function releaseLeasesOf(db: Database.Database): void {
  const owners = heldThrough.get(db);
  if (!owners || owners.size === 0) return;
  const drop = db.prepare('DELETE FROM run_leases WHERE owner = ?');
  db.transaction(() => {
    for (const owner of owners) drop.run(owner);
  })();
  owners.clear();
}
