import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_STALE_MS } from '../../core/node/sqlite/run-leases';
import { eventually, runHeldBy, start } from '../helpers/cli-process';
import { cli, cliJson } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: string;

/** The record numbers of a debate's log as written, read line by line (no parser to refuse them). */
function recordNumbers(id: string): number[] {
  const path = join(ws, 'debates', `${id}.jsonl`);
  // The lease comes first, the log a moment later.
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { seq: number }).seq);
}

const consecutive = (seqs: number[]) => seqs.every((seq, i) => seq === i);

/** The status a CLI run printed as JSON, or what it said instead (so a failure shows in the diff). */
function statusOf(run: { code: number | null; stdout: string; stderr: string }): string {
  try {
    return (JSON.parse(run.stdout) as { status: string }).status;
  } catch {
    return `exit ${run.code}: ${run.stderr}`;
  }
}

describe('one writer per run: a second process is refused while the first runs', { timeout: 300_000 }, () => {
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-one-writer-'));
    ws = join(root, 'lab');
    cliJson(['init', ws]);
  });
  afterAll(() => cleanup());

  it('refuses `resume` of a running debate and leaves its log to the first; after a kill -9 a resume takes over at once', async () => {
    const first = start(
      ['debate', '--workspace', ws, '--topic', 'Moss walls', '--agents', 'ethicist,field-researcher', '--json'],
      // Slow enough to outlast a second CLI process starting on a busy machine.
      400,
    );
    let killed: ReturnType<typeof start> | null = null;
    let resumed: ReturnType<typeof start> | null = null;
    try {
      const id = await eventually(() => runHeldBy(ws, first.child.pid as number), 'the debate to start');
      await eventually(() => (recordNumbers(id).length >= 8 ? true : null), 'a few records');
      const refused = cli(['resume', id, '--workspace', ws]);
      const end = await first.exit;
      const shown = cli(['debates', 'show', id, '--workspace', ws, '--json']);

      // A second debate, its process killed mid-run: the lease it leaves names a dead pid.
      killed = start(
        ['debate', '--workspace', ws, '--topic', 'Tidal kites', '--agents', 'ethicist,field-researcher'],
        100,
      );
      const other = await eventually(() => runHeldBy(ws, killed?.child.pid as number), 'the second debate to start');
      await eventually(() => (recordNumbers(other).length >= 8 ? true : null), 'a few records');
      killed.child.kill('SIGKILL');
      await killed.exit;
      const askedAt = Date.now();
      resumed = start(['resume', other, '--workspace', ws, '--json'], 20);
      await eventually(() => runHeldBy(ws, resumed?.child.pid as number), 'the resume to take the debate over');
      const tookOverMs = Date.now() - askedAt;
      const after = await resumed.exit;

      expect({
        refusal: [refused.code, refused.stderr],
        first: [end.code, statusOf(end)],
        firstLog: consecutive(recordNumbers(id)),
        show: [shown.code, statusOf(shown)],
        // Well before a heartbeat could go stale: the dead pid is what let it in.
        promptly: tookOverMs < LEASE_STALE_MS,
        resumed: [after.code, statusOf(after)],
        resumedLog: consecutive(recordNumbers(other)),
        leases: [runHeldBy(ws, first.child.pid as number), runHeldBy(ws, resumed.child.pid as number)],
      }).toEqual({
        refusal: [
          1,
          expect.stringMatching(
            new RegExp(
              `^error: debate ${id} is running in process ${first.child.pid} \\(started \\S+\\); pause or stop it there, or with \`debates pause\\|stop ${id}\`\\n$`,
            ),
          ),
        ],
        first: [0, 'completed'],
        firstLog: true,
        show: [0, 'completed'],
        promptly: true,
        resumed: [0, 'completed'],
        resumedLog: true,
        leases: [null, null],
      });
    } finally {
      for (const p of [first, killed, resumed]) p?.child.kill('SIGKILL');
    }
  });

  it('refuses to resume a running evaluation from another process; after a kill -9 it resumes to its lock', async () => {
    const slug = cliJson<{ ideas: { slug: string }[] }>(['list', '--workspace', ws]).ideas[0]?.slug as string;
    const checkpointOf = (id: string) => join(ws, 'ideas', slug, 'evaluations', `${id}.run.jsonl`);
    const answered = (id: string) =>
      existsSync(checkpointOf(id)) && readFileSync(checkpointOf(id), 'utf8').includes('"type":"input"') ? true : null;
    const first = start(['evaluate', slug, '--workspace', ws, '--mode', 'quick', '--json'], 3000);
    let killed: ReturnType<typeof start> | null = null;
    try {
      const id = await eventually(() => runHeldBy(ws, first.child.pid as number), 'the evaluation to start');
      await eventually(() => answered(id), 'its first answers');
      const before = readFileSync(checkpointOf(id), 'utf8');
      const viaEvaluate = cli(['evaluate', '--resume', id, '--workspace', ws]);
      const viaEvaluations = cli(['evaluations', 'resume', id, '--workspace', ws]);
      // Nothing was written by the refused processes: the checkpoint only grew from the first's end.
      const untouched = readFileSync(checkpointOf(id), 'utf8').startsWith(before);
      const end = await first.exit;

      killed = start(['evaluate', slug, '--workspace', ws, '--mode', 'quick'], 1000);
      const other = await eventually(() => runHeldBy(ws, killed?.child.pid as number), 'the second evaluation');
      await eventually(() => answered(other), 'its first answers');
      killed.child.kill('SIGKILL');
      await killed.exit;
      const resumed = cli(['evaluations', 'resume', other, '--workspace', ws, '--json']);

      expect({
        viaEvaluate: [viaEvaluate.code, viaEvaluate.stderr],
        viaEvaluations: [viaEvaluations.code, viaEvaluations.stderr],
        untouched,
        first: [
          end.code,
          existsSync(checkpointOf(id)),
          existsSync(join(ws, 'ideas', slug, 'evaluations', `${id}.json`)),
        ],
        resumed: [resumed.code, statusOf(resumed)],
      }).toEqual({
        viaEvaluate: [
          1,
          expect.stringMatching(
            new RegExp(
              `^error: evaluation ${id} is running in process ${first.child.pid} \\(started \\S+\\); stop it there, or with \`evaluations stop ${id}\`\\n$`,
            ),
          ),
        ],
        viaEvaluations: [1, `error: evaluation ${id} is already running (process ${first.child.pid})\n`],
        untouched: true,
        // The first run locked: its record is kept, beside the run's log.
        first: [0, true, true],
        resumed: [0, 'completed'],
      });
    } finally {
      for (const p of [first, killed]) p?.child.kill('SIGKILL');
    }
  });

  it('names the file and the line of a log whose record numbers are out of order, for every debate command', () => {
    const { id } = cliJson<{ id: string }>([
      'debate',
      '--workspace',
      ws,
      '--topic',
      'Kelp',
      '--agents',
      'ethicist,field-researcher',
    ]);
    const path = join(ws, 'debates', `${id}.jsonl`);
    // What two writers left before there was a lease: a second run of numbers from 3 after line 6.
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(path, `${[...lines.slice(0, 6), ...lines.slice(3, 5), ...lines.slice(6)].join('\n')}\n`);
    const said = ['show', 'stop', 'pause', 'resume'].map((action) => {
      const run = cli(['debates', action, id, '--workspace', ws]);
      return [action, run.code, run.stderr];
    });
    const refusal = `error: debates/${id}.jsonl, line 7: expected record number 6, found 3: the debate log is damaged and was not read (fix or remove that line)\n`;
    expect(said).toEqual(['show', 'stop', 'pause', 'resume'].map((action) => [action, 1, refusal]));
  });
});
