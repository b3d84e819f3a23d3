import type Database from 'better-sqlite3';
import { preparedPerDb } from './prepared';

/**
 * What the debate views (progress, crux map, course, ledger, transcripts) ask the index's mirror of
 * the debate logs (`run_events`: every record of a log, numbered as in the log, the header at 0).
 * Asked on every view request, so the statements are prepared once per connection.
 */

const statements = preparedPerDb((db) => ({
  lastSeq: db.prepare('SELECT MAX(seq) AS seq FROM run_events WHERE run_id = ?'),
  eventCount: db.prepare("SELECT COUNT(*) AS n FROM run_events WHERE run_id = ? AND type = 'event'"),
  header: db.prepare('SELECT payload_json AS json FROM run_events WHERE run_id = ? AND seq = 0'),
  threads: db.prepare(
    `SELECT json_extract(payload_json, '$.event.thread') AS id, json_extract(payload_json, '$.event.topic') AS topic
     FROM run_events WHERE run_id = ? AND type = 'event'
       AND json_extract(payload_json, '$.event.type') IN ('thread_opened', 'thread_spawned')
     ORDER BY seq`,
  ),
  /** By the number of event types asked for (one placeholder each). */
  eventsAfter: new Map<number, Database.Statement>(),
}));

/** The number of the debate's last record mirrored in the index; -1 when it has none. */
export function lastDebateSeq(db: Database.Database, debateId: string): number {
  return (statements(db).lastSeq.get(debateId) as { seq: number | null } | undefined)?.seq ?? -1;
}

/** How many protocol events (records of type `event`) the debate has logged. */
export function debateEventCount(db: Database.Database, debateId: string): number {
  return (statements(db).eventCount.get(debateId) as { n: number }).n;
}

/** The debate's first record (its header, `debate_created`) as logged JSON; null for an unknown debate. */
export function debateHeaderJson(db: Database.Database, debateId: string): string | null {
  return (statements(db).header.get(debateId) as { json: string } | undefined)?.json ?? null;
}

/** Every thread the debate opened or spawned, in log order. */
export function debateThreads(db: Database.Database, debateId: string): { id: string; topic: string }[] {
  return statements(db).threads.all(debateId) as { id: string; topic: string }[];
}

/** The debate's events of the given types after record `afterSeq`, in log order, with their logged JSON. */
export function debateEventsAfter(
  db: Database.Database,
  debateId: string,
  afterSeq: number,
  eventTypes: readonly string[],
): { seq: number; at: string; json: string }[] {
  const byCount = statements(db).eventsAfter;
  let statement = byCount.get(eventTypes.length);
  if (!statement) {
    statement = db.prepare(
      `SELECT seq, at, payload_json AS json FROM run_events
       WHERE run_id = ? AND seq > ? AND type = 'event'
         AND json_extract(payload_json, '$.event.type') IN (${eventTypes.map(() => '?').join(', ')})
       ORDER BY seq`,
    );
    byCount.set(eventTypes.length, statement);
  }
  return statement.all(debateId, afterSeq, ...eventTypes) as { seq: number; at: string; json: string }[];
}
