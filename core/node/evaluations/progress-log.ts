import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readTextInside } from '../fs/read-inside';
import type { EvaluationInput } from '../../evaluation/inputs';
import type { EvaluationSetup } from '../../evaluation/state';

/**
 * The checkpoint of a running evaluation: `ideas/<slug>/evaluations/<id>.progress.jsonl`, a header
 * line, then every input and every call's cost, each flushed to disk as it happens. A killed
 * evaluation resumes from it (`evaluate --resume ID`) where it stopped, with the money already
 * spent; a finished one removes it (its record and script take over).
 */
export interface ProgressHeader {
  type: 'run';
  slug: string;
  setup: EvaluationSetup & { startedAt: string };
  provider: string;
  seed: number;
  budgetUsd: number;
  /** Model calls made at once (default 6). */
  concurrency?: number;
  /**
   * A dispute: the state is `reopen(record of from, trigger)` with the setup's id and start time,
   * rather than `createEvaluation(setup)`.
   */
  reopen?: { from: string; criterion: string; reason: string };
}

/** Why a checkpointed evaluation is not running: the researcher cancelled it, or the app closed. */
export type StopReason = 'cancelled' | 'app closed';

export class ProgressLog {
  private fd: number;

  /**
   * `confirm` runs before every line and throws when this process may no longer write the
   * checkpoint (another took the run over): its lines never interleave with the new owner's.
   */
  constructor(
    private readonly abs: string,
    header?: ProgressHeader,
    private readonly confirm: () => void = () => {},
  ) {
    mkdirSync(dirname(abs), { recursive: true });
    this.fd = openSync(abs, header ? 'wx' : 'a');
    if (header) this.write(header);
  }

  private write(record: object): void {
    this.confirm();
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  input(input: EvaluationInput): void {
    this.write({ type: 'input', input });
  }

  call(costUsd: number): void {
    this.write({ type: 'call', costUsd });
  }

  /** The run stops here on purpose (it can be resumed); a crash leaves no such line. */
  stop(reason: StopReason): void {
    this.write({ type: 'stopped', reason, at: new Date().toISOString() });
    closeSync(this.fd);
  }

  /** The evaluation is kept: the checkpoint is no longer needed. */
  finish(): void {
    closeSync(this.fd);
    rmSync(this.abs, { force: true });
  }

  close(): void {
    closeSync(this.fd);
  }
}

export function progressPath(root: string, slug: string, id: string): string {
  return join(root, 'ideas', slug, 'evaluations', `${id}.progress.jsonl`);
}

/** Finds the checkpoint of evaluation `id` in any idea folder. */
export function findProgress(root: string, id: string): string | null {
  let slugs: string[] = [];
  try {
    slugs = readdirSync(join(root, 'ideas'));
  } catch {
    return null;
  }
  for (const slug of slugs) {
    const path = progressPath(root, slug, id);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Reads a checkpoint; a last line cut short by a kill is left out. */
export function readProgress(abs: string): {
  header: ProgressHeader;
  inputs: EvaluationInput[];
  spentUsd: number;
  /** Why it stopped, when it stopped on purpose after its last input (null: running, or killed). */
  stopped: { reason: StopReason; at: string } | null;
} {
  // A checkpoint is `<root>/ideas/<slug>/evaluations/<id>.progress.jsonl`: one replaced by a link,
  // or under a linked folder, is refused (LinkRefusedError) rather than read from outside the workspace.
  const text = readTextInside(resolve(abs, '../../../..'), abs);
  const lines = text
    .split('\n')
    .slice(0, -1)
    .filter((l) => l.trim() !== '');
  const records = lines.map(
    (l) =>
      JSON.parse(l) as { type: string; input?: EvaluationInput; costUsd?: number; reason?: StopReason; at?: string },
  );
  const header = records[0] as unknown as ProgressHeader;
  if (header?.type !== 'run') throw new Error(`${abs} is not an evaluation checkpoint`);
  return {
    header,
    inputs: records.filter((r) => r.type === 'input').map((r) => r.input as EvaluationInput),
    spentUsd: records.reduce((sum, r) => sum + (r.type === 'call' ? (r.costUsd ?? 0) : 0), 0),
    stopped: lastStop(records),
  };
}

function lastStop(
  records: { type: string; reason?: StopReason; at?: string }[],
): { reason: StopReason; at: string } | null {
  const last = records.findLast((r) => r.type === 'stopped' || r.type === 'input');
  return last?.type === 'stopped' ? { reason: last.reason ?? 'cancelled', at: last.at ?? '' } : null;
}
