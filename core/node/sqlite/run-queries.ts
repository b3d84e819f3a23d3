import type Database from 'better-sqlite3';
import type { DebateStatus } from '../../engine/debate-record';
import { preparedPerDb } from './prepared';

/**
 * The index's mirror of the run logs (a crux debate's, an evaluation's, any protocol's): one row per
 * run in `runs` and one per record of its log in `run_events`, numbered as in the log, the header
 * at 0. The logs stay the authority; these rows are rebuilt from them. The journal writes here on
 * every append and the live views ask on every poll, so the statements are prepared once per
 * connection.
 */

/** What a run's row takes from its log's header (a crux debate's or any other protocol's). */
export interface RunRowHeader {
  id: string;
  protocol: string;
  ideaSlug: string | null;
  topic: string;
  provider: string;
  createdAt: string;
}

/** One record of a run's log as the index mirrors it: its number, type and time, and its logged JSON. */
export interface RunEventRow {
  seq: number;
  type: string;
  at: string;
  json: string;
}

/** A run's row as the index holds it. */
export interface RunRowView extends RunRowHeader {
  status: DebateStatus;
  updatedAt: string;
  logPath: string | null;
  resultJson: string | null;
  costUsd: number;
}

/** A crux debate as `debates list` shows it. */
export interface CruxRunListing {
  id: string;
  topic: string;
  idea: string | null;
  status: string;
  provider: string | null;
  createdAt: string;
  costUsd: number;
}

const statements = preparedPerDb((db) => ({
  upsert: db.prepare(
    `INSERT INTO runs (id, protocol, idea_slug, topic, status, provider, created_at, updated_at, log_path, cost_usd)
     VALUES (@id, @protocol, @ideaSlug, @topic, @status, @provider, @createdAt, @createdAt, @logPath, @costUsd)
     ON CONFLICT(id) DO UPDATE SET status = excluded.status, log_path = excluded.log_path, cost_usd = excluded.cost_usd`,
  ),
  insertEvent: db.prepare(
    'INSERT OR REPLACE INTO run_events (run_id, seq, type, at, payload_json) VALUES (?, ?, ?, ?, ?)',
  ),
  // A batch without a status record keeps the status the row has.
  touch: db.prepare('UPDATE runs SET status = COALESCE(?, status), updated_at = ?, cost_usd = ? WHERE id = ?'),
  status: db.prepare('SELECT status FROM runs WHERE id = ?'),
  logPaths: db.prepare('SELECT log_path FROM runs WHERE log_path IS NOT NULL').pluck(),
  cruxLogPath: db.prepare("SELECT log_path FROM runs WHERE id = ? AND protocol = 'crux'"),
  cruxRuns: db.prepare(
    `SELECT id, topic, idea_slug AS idea, status, provider, created_at AS createdAt, cost_usd AS costUsd
     FROM runs WHERE protocol = 'crux' ORDER BY created_at DESC, id DESC`,
  ),
  setResult: db.prepare('UPDATE runs SET result_json = ? WHERE id = ?'),
  result: db.prepare('SELECT result_json FROM runs WHERE id = ?'),
  row: db.prepare(
    `SELECT id, protocol, idea_slug AS ideaSlug, topic, status, provider, created_at AS createdAt,
       updated_at AS updatedAt, log_path AS logPath, result_json AS resultJson, cost_usd AS costUsd
     FROM runs WHERE id = ?`,
  ),
  events: db.prepare('SELECT seq, type, at, payload_json AS json FROM run_events WHERE run_id = ? ORDER BY seq'),
}));

/**
 * Records a run (a new one, or one found in the folder or resumed): its row from the log's header,
 * where its log is, its status and what it has cost. A known run keeps its other columns.
 */
export function upsertRunRow(
  db: Database.Database,
  header: RunRowHeader,
  logPath: string,
  status: DebateStatus,
  costUsd: number,
): void {
  const { id, protocol, ideaSlug, topic, provider, createdAt } = header;
  statements(db).upsert.run({ id, protocol, ideaSlug, topic, provider, createdAt, status, logPath, costUsd });
}

/**
 * Mirrors records just appended to a run's log, in one transaction with the run's row: its time,
 * its cost so far and, when the records held a status, the last of them (`status` null: unchanged).
 */
export function appendRunEvents(
  db: Database.Database,
  runId: string,
  events: readonly RunEventRow[],
  row: { status: DebateStatus | null; updatedAt: string; costUsd: number },
): void {
  const s = statements(db);
  db.transaction(() => {
    for (const e of events) s.insertEvent.run(runId, e.seq, e.type, e.at, e.json);
    s.touch.run(row.status, row.updatedAt, row.costUsd, runId);
  }).immediate();
}

/** Mirrors a whole log read back from the folder (a resumed run, a rebuilt index); replaces rows it already had. */
export function indexRunEvents(db: Database.Database, runId: string, events: readonly RunEventRow[]): void {
  const insert = statements(db).insertEvent;
  db.transaction(() => {
    for (const e of events) insert.run(runId, e.seq, e.type, e.at, e.json);
  }).immediate();
}

/** The status the index records for a run; null for a run it does not know. */
export function runStatus(db: Database.Database, runId: string): DebateStatus | null {
  return (statements(db).status.get(runId) as { status: DebateStatus } | undefined)?.status ?? null;
}

/** Where the logs of every run the index knows are (workspace-relative). */
export function runLogPaths(db: Database.Database): string[] {
  return statements(db).logPaths.all() as string[];
}

/** Where the log of crux debate `id` is; null when the index knows no crux debate by that id. */
export function cruxRunLogPath(db: Database.Database, id: string): string | null {
  return (statements(db).cruxLogPath.get(id) as { log_path: string | null } | undefined)?.log_path ?? null;
}

/** Every crux debate (no other protocol's runs), the newest first. */
export function listCruxRuns(db: Database.Database): CruxRunListing[] {
  return statements(db).cruxRuns.all() as CruxRunListing[];
}

/** Keeps a finished run's result (as JSON) on its row. */
export function setRunResult(db: Database.Database, runId: string, resultJson: string): void {
  statements(db).setResult.run(resultJson, runId);
}

/** The result kept on a run's row; null when none is (a run not finished, or an index rebuilt since). */
export function runResultJson(db: Database.Database, runId: string): string | null {
  return (statements(db).result.get(runId) as { result_json: string | null } | undefined)?.result_json ?? null;
}

/** A run's row; null for a run the index does not know. */
export function runRow(db: Database.Database, runId: string): RunRowView | null {
  return (statements(db).row.get(runId) as RunRowView | undefined) ?? null;
}

/** Every record of a run's log the index mirrors, in log order. */
export function runEventRows(db: Database.Database, runId: string): RunEventRow[] {
  return statements(db).events.all(runId) as RunEventRow[];
}
