import type Database from 'better-sqlite3';
import type { RunStatus } from '../../engine/protocol';
import { preparedPerDb } from './prepared';

/**
 * What the live-run host and the `runs:*` channels ask the index of runs of any protocol: one row
 * per run log, its last logged status and why. The only place that names the run tables for them,
 * so renaming those tables touches this file and nothing above it.
 */

/** One run as the index holds it. */
export interface RunRow {
  id: string;
  protocol: string;
  ideaSlug: string | null;
  topic: string;
  status: RunStatus;
  /** The reason of the last status its log recorded (`cancelled by the researcher`, `app closed`), or null. */
  reason: string | null;
  provider: string | null;
  createdAt: string;
  updatedAt: string;
  costUsd: number;
}

const COLUMNS = `d.id, d.protocol, d.idea_slug AS ideaSlug, d.topic, d.status, d.provider,
  d.created_at AS createdAt, d.updated_at AS updatedAt, d.cost_usd AS costUsd,
  (SELECT json_extract(e.payload_json, '$.reason') FROM debate_events e
    WHERE e.debate_id = d.id AND e.type = 'status' ORDER BY e.seq DESC LIMIT 1) AS reason`;

const statements = preparedPerDb((db) => ({
  all: db.prepare(`SELECT ${COLUMNS} FROM debates d ORDER BY d.created_at DESC, d.id DESC`),
  one: db.prepare(`SELECT ${COLUMNS} FROM debates d WHERE d.id = ?`),
  status: db.prepare('SELECT status FROM debates WHERE id = ?'),
}));

/** Every run in the index, newest first, optionally of one protocol or in one status. */
export function listRuns(db: Database.Database, filter: { protocol?: string; status?: RunStatus } = {}): RunRow[] {
  return (statements(db).all.all() as RunRow[]).filter(
    (row) =>
      (filter.protocol === undefined || row.protocol === filter.protocol) &&
      (filter.status === undefined || row.status === filter.status),
  );
}

/** One run's row, or null when the index has no such run. */
export function runRow(db: Database.Database, id: string): RunRow | null {
  return (statements(db).one.get(id) as RunRow | undefined) ?? null;
}

/** The status the index records for a run (null: no such run). */
export function runStatus(db: Database.Database, id: string): RunStatus | null {
  return (statements(db).status.get(id) as { status: RunStatus } | undefined)?.status ?? null;
}
