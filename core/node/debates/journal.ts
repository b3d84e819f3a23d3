import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import type { DebateHeader, DebateRecord, DebateStatus, NewDebateRecord } from '../../engine/debate-record';
import { parseDebateLog } from '../../engine/log-reader';

/** Where a debate's log lives: beside its idea, or in `debates/` for a free-standing topic. */
export function debateLogPath(header: Pick<DebateHeader, 'id' | 'ideaSlug'>): string {
  return header.ideaSlug ? `ideas/${header.ideaSlug}/debates/${header.id}.jsonl` : `debates/${header.id}.jsonl`;
}

/**
 * The append-only log of one debate, written to its JSONL file (the authority) and mirrored into
 * the index. Every append is flushed to disk before it returns: a debate killed at any moment
 * resumes from the last record that was acknowledged.
 */
export class DebateJournal {
  private fd: number | null = null;
  private seq: number;
  private cost = 0;
  private readonly insertEvent: Database.Statement;
  private readonly updateDebate: Database.Statement;

  private constructor(
    readonly root: string,
    readonly relPath: string,
    readonly header: DebateHeader,
    private readonly db: Database.Database,
    existing: DebateRecord[],
    private readonly onAppend: ((records: DebateRecord[]) => void) | undefined,
  ) {
    this.seq = existing.length;
    for (const r of existing) if (r.type === 'llm_call') this.cost += r.call.costUsd;
    this.insertEvent = db.prepare(
      'INSERT OR REPLACE INTO debate_events (debate_id, seq, type, at, payload_json) VALUES (?, ?, ?, ?, ?)',
    );
    this.updateDebate = db.prepare('UPDATE debates SET status = ?, updated_at = ?, cost_usd = ? WHERE id = ?');
  }

  /** Starts a new log; refuses to touch an existing file. */
  static create(
    root: string,
    db: Database.Database,
    header: DebateHeader,
    onAppend?: (records: DebateRecord[]) => void,
  ): DebateJournal {
    const rel = debateLogPath(header);
    if (existsSync(join(root, rel))) throw new Error(`${rel} already exists`);
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    upsertDebateRow(db, header, rel, 'running', 0);
    const journal = new DebateJournal(root, rel, header, db, [], onAppend);
    journal.append([{ type: 'debate_created', header }]);
    return journal;
  }

  /** Reopens a log to continue it; returns the records so far (a torn last line is dropped). */
  static resume(
    root: string,
    db: Database.Database,
    relPath: string,
    onAppend?: (records: DebateRecord[]) => void,
  ): { journal: DebateJournal; records: DebateRecord[] } {
    const abs = join(root, relPath);
    const text = readFileSync(abs, 'utf8');
    const { records, tornTail } = parseDebateLog(text);
    const first = records[0];
    if (first?.type !== 'debate_created') throw new Error(`${relPath}: not a debate log`);
    const journal = new DebateJournal(root, relPath, first.header, db, records, onAppend);
    if (tornTail) {
      // Cut the half-written line so the next append starts on a line of its own.
      const keep = text.slice(0, text.lastIndexOf('\n') + 1);
      const fd = openSync(abs, 'w');
      try {
        writeSync(fd, keep);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    upsertDebateRow(db, first.header, relPath, lastStatus(records) ?? 'running', journal.cost);
    indexRecords(db, first.header.id, records);
    return { journal, records };
  }

  get costUsd(): number {
    return this.cost;
  }

  append(records: readonly NewDebateRecord[]): void {
    if (records.length === 0) return;
    const at = new Date().toISOString();
    const first = this.seq;
    // Each record is encoded once, its number and time put in front, for the file and the index alike.
    const lines = records.map((r, i) => `{"seq":${first + i},"at":"${at}",${JSON.stringify(r).slice(1)}`);
    this.seq += records.length;
    if (this.fd === null) this.fd = openSync(join(this.root, this.relPath), 'a');
    writeSync(this.fd, `${lines.join('\n')}\n`);
    fsyncSync(this.fd);
    let status: DebateStatus | null = null;
    this.db.transaction(() => {
      records.forEach((r, i) => {
        if (r.type === 'llm_call') this.cost += r.call.costUsd;
        if (r.type === 'status') status = r.status;
        this.insertEvent.run(this.header.id, first + i, r.type, at, lines[i]);
      });
      const current = status ?? (this.db.prepare('SELECT status FROM debates WHERE id = ?').get(this.header.id) as { status: DebateStatus } | undefined)?.status ?? 'running';
      this.updateDebate.run(current, at, this.cost, this.header.id);
    }).immediate();
    if (this.onAppend) this.onAppend(records.map((r, i) => ({ ...r, seq: first + i, at }) as DebateRecord));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

export function lastStatus(records: readonly DebateRecord[]): DebateStatus | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r?.type === 'status') return r.status;
  }
  return null;
}

function upsertDebateRow(db: Database.Database, header: DebateHeader, rel: string, status: DebateStatus, cost: number): void {
  db.prepare(
    `INSERT INTO debates (id, protocol, idea_slug, topic, status, provider, created_at, updated_at, log_path, cost_usd)
     VALUES (@id, @protocol, @ideaSlug, @topic, @status, @provider, @createdAt, @createdAt, @rel, @cost)
     ON CONFLICT(id) DO UPDATE SET status = excluded.status, log_path = excluded.log_path, cost_usd = excluded.cost_usd`,
  ).run({ ...header, status, rel, cost });
}

function indexRecords(db: Database.Database, id: string, records: readonly DebateRecord[]): void {
  const insert = db.prepare('INSERT OR REPLACE INTO debate_events (debate_id, seq, type, at, payload_json) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const r of records) insert.run(id, r.seq, r.type, r.at, JSON.stringify(r));
  }).immediate();
}

/**
 * Brings the index's debate rows up to date with the logs in the folder (`debates/*.jsonl` and
 * `ideas/<slug>/debates/*.jsonl`): a rebuilt index gets its debates back, with their events, status,
 * cost and (for finished debates) result. A log that cannot be read is reported, not fatal.
 */
export function indexDebateLogs(root: string, db: Database.Database): { indexed: string[]; errors: { file: string; reason: string }[] } {
  const known = new Set((db.prepare('SELECT log_path FROM debates').all() as { log_path: string }[]).map((r) => r.log_path));
  const folders = ['debates', ...listDirs(join(root, 'ideas')).map((slug) => `ideas/${slug}/debates`)];
  const indexed: string[] = [];
  const errors: { file: string; reason: string }[] = [];
  for (const folder of folders) {
    for (const name of listFiles(join(root, folder))) {
      if (!name.endsWith('.jsonl')) continue;
      const rel = `${folder}/${name}`;
      if (known.has(rel)) continue;
      try {
        const { records } = parseDebateLog(readFileSync(join(root, rel), 'utf8'));
        const first = records[0];
        if (first?.type !== 'debate_created') throw new Error('not a debate log');
        const cost = records.reduce((sum, r) => sum + (r.type === 'llm_call' ? r.call.costUsd : 0), 0);
        upsertDebateRow(db, first.header, rel, lastStatus(records) ?? 'running', cost);
        indexRecords(db, first.header.id, records);
        indexed.push(first.header.id);
      } catch (error) {
        errors.push({ file: rel, reason: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return { indexed, errors };
}

function listDirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.') && !e.name.startsWith('_')).map((e) => e.name);
  } catch {
    return [];
  }
}

function listFiles(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
