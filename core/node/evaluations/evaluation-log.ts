import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { DebateRecord, NewDebateRecord } from '../../engine/debate-record';
import type { RunRecord } from '../../engine/protocol';
import type { EvaluationInput } from '../../evaluation/inputs';
import type { EvaluationRunSetup } from '../../evaluation/live/entry';
import { DebateJournal, readDebateLog } from '../debates/journal';

/**
 * An evaluation's run log: `ideas/<slug>/evaluations/<id>.run.jsonl`, the one log format every
 * protocol writes (a `run_created` header naming the protocol and its version, then the runner's
 * records, each flushed to disk as it happens), mirrored into the index's run tables. It is the
 * authority for a run in progress: a killed evaluation resumes from it (`evaluate --resume ID`) with
 * the money already spent. Once the evaluation is kept, its record (`<id>.json`) and script
 * (`<id>.jsonl`) are what readers use; the log stays beside them.
 */
export type { EvaluationRunSetup } from '../../evaluation/live/entry';

/**
 * Why a logged evaluation is not running: the researcher cancelled it, the app closed, or the
 * pipeline holds it in its review gate (CRITICAL challenges to see before it locks).
 */
export type StopReason = 'cancelled' | 'app closed' | 'review gate';

export const EVALUATION_PROTOCOL_VERSION = 1;

export function evaluationLogPath(slug: string, id: string): string {
  return `ideas/${slug}/evaluations/${id}.run.jsonl`;
}

export class EvaluationLog {
  private readonly journal: DebateJournal;
  private listener: ((records: DebateRecord[]) => void) | null = null;

  private constructor(open: (onAppend: (records: DebateRecord[]) => void) => DebateJournal) {
    this.journal = open((records) => this.listener?.(records));
  }

  /** Hands every record appended from now on, once it is on disk, to `listener` (one at a time). */
  listen(listener: (records: DebateRecord[]) => void): void {
    this.listener = listener;
  }

  /** A new evaluation's log; refuses to touch an existing file. */
  static create(root: string, db: Database.Database, run: EvaluationRunSetup, confirm: () => void): EvaluationLog {
    const header = {
      id: run.setup.evaluationId,
      protocol: 'evaluation',
      version: EVALUATION_PROTOCOL_VERSION,
      ideaSlug: run.slug,
      topic: run.setup.idea.title,
      provider: run.provider,
      createdAt: run.setup.startedAt,
      setup: run as unknown as Record<string, unknown>,
    };
    const rel = evaluationLogPath(run.slug, run.setup.evaluationId);
    return new EvaluationLog((onAppend) =>
      DebateJournal.start(root, db, rel, { type: 'run_created', header }, onAppend, confirm),
    );
  }

  /** Reopens a log to continue it (a torn last line is cut). The caller holds the run. */
  static reopen(root: string, db: Database.Database, rel: string, confirm: () => void): EvaluationLog {
    return new EvaluationLog((onAppend) => DebateJournal.resume(root, db, rel, onAppend, confirm).journal);
  }

  /** The runner's records, as it writes them. */
  append = (records: readonly RunRecord[]): void => {
    this.journal.append(records as readonly NewDebateRecord[]);
  };

  input(input: EvaluationInput): void {
    this.append([{ type: 'input', input: input as unknown as Record<string, unknown> }]);
  }

  /** The run stops here on purpose (it can be resumed); a crash leaves no such record. */
  stop(reason: StopReason): void {
    this.append([{ type: 'status', status: 'paused', reason }]);
    this.journal.close();
  }

  close(): void {
    this.journal.close();
  }
}

/** The log of evaluation `id` in any idea folder whose evaluation is not kept yet (no `<id>.json`), or null. */
export function findUnfinished(root: string, id: string): string | null {
  let slugs: string[] = [];
  try {
    slugs = readdirSync(join(root, 'ideas'));
  } catch {
    return null;
  }
  for (const slug of slugs) {
    const rel = evaluationLogPath(slug, id);
    if (existsSync(join(root, rel)) && !existsSync(join(root, 'ideas', slug, 'evaluations', `${id}.json`))) return rel;
  }
  return null;
}

/** Reads an evaluation's log; a last line cut short by a kill is left out. */
export function readEvaluationLog(
  root: string,
  rel: string,
): {
  run: EvaluationRunSetup;
  inputs: EvaluationInput[];
  spentUsd: number;
  /** Why it stopped, when it stopped on purpose after its last input (null: running, or killed). */
  stopped: { reason: StopReason; at: string } | null;
} {
  // A log replaced by a link, or under a linked folder, is refused (LinkRefusedError), never followed.
  const { records } = readDebateLog(root, rel);
  const first = records[0];
  if (first?.type !== 'run_created' || first.header.protocol !== 'evaluation')
    throw new Error(`${rel} is not an evaluation's log`);
  return {
    run: first.header.setup as unknown as EvaluationRunSetup,
    inputs: records.flatMap((r) => (r.type === 'input' ? [r.input as unknown as EvaluationInput] : [])),
    spentUsd: records.reduce((sum, r) => sum + (r.type === 'llm_call' ? r.call.costUsd : 0), 0),
    stopped: lastStop(records),
  };
}

function lastStop(records: readonly DebateRecord[]): { reason: StopReason; at: string } | null {
  const last = records.findLast((r) => r.type === 'status' || r.type === 'input');
  if (last?.type !== 'status' || last.status !== 'paused') return null;
  const reason = last.reason === 'app closed' || last.reason === 'review gate' ? last.reason : 'cancelled';
  return { reason, at: last.at };
}
