import type Database from 'better-sqlite3';
import type { RunStatus } from '../../engine/protocol';
import { preparedPerDb } from './prepared';

/**
 * What the live-run host and the `runs:*` channels ask the index of runs of any protocol: one row
 * per run log, its last logged status and why (the rest of the run tables' SQL is in run-queries.ts).
 */

/** One run as the index holds it. */
export interface RunListing {
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
  (SELECT json_extract(e.payload_json, '$.reason') FROM run_events e
    WHERE e.run_id = d.id AND e.type = 'status' ORDER BY e.seq DESC LIMIT 1) AS reason`;

const statements = preparedPerDb((db) => ({
  all: db.prepare(`SELECT ${COLUMNS} FROM runs d ORDER BY d.created_at DESC, d.id DESC`),
  one: db.prepare(`SELECT ${COLUMNS} FROM runs d WHERE d.id = ?`),
}));

/** Every run in the index, newest first, optionally of one protocol or in one status. */
export function listRuns(db: Database.Database, filter: { protocol?: string; status?: RunStatus } = {}): RunListing[] {
  return (statements(db).all.all() as RunListing[]).filter(
    (row) =>
      (filter.protocol === undefined || row.protocol === filter.protocol) &&
      (filter.status === undefined || row.status === filter.status),
  );
}

/** One run as listed (with the reason of its last status), or null when the index has no such run. */
export function runListing(db: Database.Database, id: string): RunListing | null {
  return (statements(db).one.get(id) as RunListing | undefined) ?? null;
}

