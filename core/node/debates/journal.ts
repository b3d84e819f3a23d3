import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import type { DebateHeader, DebateRecord, DebateStatus, NewDebateRecord, RunHeader } from '../../engine/debate-record';
import { DebateLogError, parseDebateLog } from '../../engine/log-reader';
import { protocols } from '../../protocols';
import { describeReadError, entryRule } from '../fs/entry-rule';
import { LinkRefusedError, readTextInside } from '../fs/read-inside';
import { appendRunEvents, indexRunEvents, type RunEventRow, runLogPaths, upsertRunRow } from '../sqlite/run-queries';
import { UserError } from '../workspace/workspace';

/** Where a debate's log lives: beside its idea, or in `debates/` for a free-standing topic. */
export function debateLogPath(header: Pick<DebateHeader, 'id' | 'ideaSlug'>): string {
  return header.ideaSlug ? `ideas/${header.ideaSlug}/debates/${header.id}.jsonl` : `debates/${header.id}.jsonl`;
}

/**
 * Reads the debate log at `rel` (workspace-relative). A damaged log (a bad line anywhere but a torn
 * last one) is not read past or around: every reader refuses it the same way, with a one-line
 * UserError naming the file and the line, and sync lists it among its errors (`checkLogs`).
 */
export function readDebateLog(root: string, rel: string): { text: string } & ReturnType<typeof parseDebateLog> {
  // A log replaced by a link is refused by path (LinkRefusedError), never followed.
  const text = readTextInside(root, rel);
  try {
    return { text, ...parseDebateLog(text) };
  } catch (error) {
    if (error instanceof DebateLogError) {
      throw new UserError(
        `${rel}, ${error.message}: the debate log is damaged and was not read (fix or remove that line)`,
      );
    }
    throw error;
  }
}

/** What a run's index row says of it; both header kinds (a debate's, any other run's) carry it. */
type RunRow = Pick<RunHeader, 'id' | 'protocol' | 'ideaSlug' | 'topic' | 'provider' | 'createdAt'>;

/** The first record of a log: a crux debate's header, or any other protocol's. */
export type RunStart = { type: 'debate_created'; header: DebateHeader } | { type: 'run_created'; header: RunHeader };

/**
 * The append-only log of one run (a debate, an evaluation, any protocol), written to its JSONL file
 * (the authority) and mirrored into the index. Every append is flushed to disk before it returns: a debate killed at any moment
 * resumes from the last record that was acknowledged.
 */
export class DebateJournal {
  private fd: number | null = null;
  private seq: number;
  private cost = 0;

  private constructor(
    readonly root: string,
    readonly relPath: string,
    readonly header: RunRow,
    private readonly db: Database.Database,
    existing: DebateRecord[],
    private readonly onAppend: ((records: DebateRecord[]) => void) | undefined,
    private readonly confirm: () => void,
  ) {
    this.seq = existing.length;
    for (const r of existing) if (r.type === 'llm_call') this.cost += r.call.costUsd;
  }

  /**
   * Starts a new log; refuses to touch an existing file. `confirm` runs before every append and
   * throws when this process may no longer write the log (another took the run over).
   */
  static create(
    root: string,
    db: Database.Database,
    header: DebateHeader,
    onAppend?: (records: DebateRecord[]) => void,
    confirm: () => void = () => {},
  ): DebateJournal {
    return DebateJournal.start(root, db, debateLogPath(header), { type: 'debate_created', header }, onAppend, confirm);
  }

  /** Starts the log of a run of any protocol at `rel`; refuses to touch an existing file. */
  static start(
    root: string,
    db: Database.Database,
    rel: string,
    first: RunStart,
    onAppend?: (records: DebateRecord[]) => void,
    confirm: () => void = () => {},
  ): DebateJournal {
    if (existsSync(join(root, rel))) throw new Error(`${rel} already exists`);
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    refuseLinkedFolder(root, rel);
    upsertRunRow(db, first.header, rel, 'running', 0);
    const journal = new DebateJournal(root, rel, first.header, db, [], onAppend, confirm);
    journal.append([first]);
    return journal;
  }

  /**
   * Reopens a log to continue it; returns the records so far (a torn last line is dropped). The
   * caller holds the run (run-control.ts) before calling: cutting a torn line is a write too.
   */
  static resume(
    root: string,
    db: Database.Database,
    relPath: string,
    onAppend?: (records: DebateRecord[]) => void,
    confirm: () => void = () => {},
  ): { journal: DebateJournal; records: DebateRecord[] } {
    const abs = join(root, relPath);
    // The folder may have been swapped for a link since the run began: a resume neither reads nor
    // appends through it. (While a run goes on its log stays open, so a swap then changes nothing.)
    refuseLinkedFolder(root, relPath);
    const { text, records, tornTail } = readDebateLog(root, relPath);
    const first = records[0];
    if (first?.type !== 'debate_created' && first?.type !== 'run_created') throw new Error(`${relPath}: not a run log`);
    const journal = new DebateJournal(root, relPath, first.header, db, records, onAppend, confirm);
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
    upsertRunRow(db, first.header, relPath, lastStatus(records) ?? 'running', journal.cost);
    indexRunEvents(db, first.header.id, eventRows(records));
    return { journal, records };
  }

  get costUsd(): number {
    return this.cost;
  }

  append(records: readonly NewDebateRecord[]): void {
    if (records.length === 0) return;
    // One writer per log: a process that lost the run throws here, before its line could
    // interleave with the new owner's record numbers.
    this.confirm();
    const at = new Date().toISOString();
    const first = this.seq;
    // Each record is encoded once, its number and time put in front, for the file and the index alike.
    const lines = records.map((r, i) => `{"seq":${first + i},"at":"${at}",${JSON.stringify(r).slice(1)}`);
    this.seq += records.length;
    // O_NOFOLLOW: a log replaced by a link is refused by the kernel, never appended to through it.
    if (this.fd === null)
      this.fd = openSync(
        join(this.root, this.relPath),
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
        0o644,
      );
    writeSync(this.fd, `${lines.join('\n')}\n`);
    fsyncSync(this.fd);
    let status: DebateStatus | null = null;
    for (const r of records) {
      if (r.type === 'llm_call') this.cost += r.call.costUsd;
      if (r.type === 'status') status = r.status;
    }
    const rows = records.map((r, i) => ({ seq: first + i, type: r.type, at, json: lines[i] as string }));
    appendRunEvents(this.db, this.header.id, rows, { status, updatedAt: at, costUsd: this.cost });
    if (this.onAppend) this.onAppend(records.map((r, i) => ({ ...r, seq: first + i, at }) as DebateRecord));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** A logs folder (or one above it) that is a link would put the log outside the workspace: refused. */
function refuseLinkedFolder(root: string, rel: string): void {
  const folder = dirname(join(root, rel));
  if (realpathSync(folder) !== join(realpathSync(root), relative(resolve(root), folder)))
    throw new LinkRefusedError(
      dirname(rel),
      'is a symbolic link, or lies under one; Crucible does not write through links',
    );
}

export function lastStatus(records: readonly DebateRecord[]): DebateStatus | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r?.type === 'status') return r.status;
  }
  return null;
}

/** A log's records as the index mirrors them, each re-encoded as a line of the log. */
function eventRows(records: readonly DebateRecord[]): RunEventRow[] {
  return records.map((r) => ({ seq: r.seq, type: r.type, at: r.at, json: JSON.stringify(r) }));
}

/**
 * Brings the index's run rows up to date with the logs in the folder (crux debates' in
 * `debates/*.jsonl` and `ideas/<slug>/debates/*.jsonl`, evaluations' in
 * `ideas/<slug>/evaluations/*.run.jsonl`): a rebuilt index gets its runs back, with their events,
 * status and cost (a finished debate's result is rebuilt from its log when asked). A log that
 * cannot be read is reported, not fatal.
 */
export function indexRunLogs(
  root: string,
  db: Database.Database,
  options: { verifyKnown?: boolean } = {},
): { indexed: string[]; errors: { file: string; reason: string }[] } {
  const known = new Set(runLogPaths(db));
  const slugs = listDirs(join(root, 'ideas'));
  // Every registered protocol's runs (core/protocols.ts), beside their idea or at the top, in the
  // folder of their kind, named as it names them (an evaluation's `<id>.run.jsonl`: the same folder
  // holds its replay script, `<id>.jsonl`, which is no log).
  const places = new Map<string, string>();
  for (const name of protocols.names) {
    const entry = protocols.get(name);
    if (!entry) continue;
    const suffix = entry.logName ? entry.logName('') : '.jsonl';
    for (const folder of [entry.folder, ...slugs.map((slug) => `ideas/${slug}/${entry.folder}`)])
      if (!places.has(folder)) places.set(folder, suffix);
  }
  const indexed: string[] = [];
  const errors: { file: string; reason: string }[] = [];
  for (const [folder, suffix] of places) {
    for (const { name, problem } of listFiles(root, folder)) {
      if (!name.endsWith(suffix) && name !== '') continue;
      const rel = name === '' ? folder : `${folder}/${name}`;
      if (problem) {
        // A linked log or folder is reported like a garbage log, and never read.
        errors.push({ file: rel, reason: problem });
        continue;
      }
      if (known.has(rel) && !options.verifyKnown) continue;
      try {
        if (known.has(rel)) {
          // Already indexed: only read, so a log damaged since is reported (it is not re-indexed).
          parseDebateLog(readTextInside(root, rel));
          continue;
        }
        const { records } = parseDebateLog(readTextInside(root, rel));
        const first = records[0];
        if (first?.type !== 'debate_created' && first?.type !== 'run_created') throw new Error('not a run log');
        const cost = records.reduce((sum, r) => sum + (r.type === 'llm_call' ? r.call.costUsd : 0), 0);
        upsertRunRow(db, first.header, rel, lastStatus(records) ?? 'running', cost);
        indexRunEvents(db, first.header.id, eventRows(records));
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
    return readdirSync(path, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !e.name.startsWith('_'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * The entries of a logs folder, under the sync's link rule (`entry-rule.ts`): a folder that is a
 * link comes back as one entry named '' with its problem, a link inside it with its problem, and
 * neither is followed.
 */
function listFiles(root: string, folder: string): { name: string; problem?: string }[] {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(join(root, folder), { throwIfNoEntry: false });
  } catch {
    // The idea folder above cannot be read: the sync reports that folder by its path.
    return [];
  }
  if (!stat) return [];
  if (stat.isSymbolicLink()) return [{ name: '', problem: entryRule('', false, stat) }];
  try {
    return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const verdict = entryRule(entry.name, false, entry);
      if (verdict === 'folder') return [];
      return verdict === 'file' ? [{ name: entry.name }] : [{ name: entry.name, problem: verdict }];
    });
  } catch (error) {
    // A logs folder that cannot be listed is reported, so its debates do not vanish unsaid.
    if ((error as { code?: string }).code === 'ENOENT') return [];
    return [{ name: '', problem: describeReadError(error, true) }];
  }
}
