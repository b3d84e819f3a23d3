import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDebateLog } from '../../core/engine/log-reader';
import { cli, cliJson } from '../helpers/run-cli';
import { eventually, runHeldBy, start } from '../helpers/cli-process';
import { tempWorkspace } from '../helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: string;

/** The id of the run that `child` holds, by its lease in the index. */
function runningId(child: ChildProcess): string | null {
  return runHeldBy(ws, child.pid as number);
}

/** The debate's log so far; empty while it is not written yet (the lease is taken just before it). */
function debateLog(id: string) {
  const path = join(ws, 'debates', `${id}.jsonl`);
  return existsSync(path) ? parseDebateLog(readFileSync(path, 'utf8')).records : [];
}

const statuses = (id: string) => debateLog(id).flatMap((r) => (r.type === 'status' ? [r.status] : []));
const messages = (id: string) =>
  debateLog(id).filter((r) => r.type === 'event' && r.event.type === 'message_posted').length;

describe('a debate or evaluation running in one process, controlled from another', { timeout: 240_000 }, () => {
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-cli-control-'));
    ws = join(root, 'lab');
    cliJson(['init', ws]);
  });
  afterAll(() => cleanup());

  it('pauses a running debate from a second process, then resumes it there to completion', async () => {
    // Half a second a call: the 22 calls of this debate outlast a second CLI process starting on a
    // busy machine (at 150 ms the debate could end before `debates pause` was up).
    const debate = start(
      [
        'debate',
        '--workspace',
        ws,
        '--topic',
        'Should cities plant moss walls?',
        '--agents',
        'ethicist,field-researcher',
        '--json',
      ],
      500,
    );
    try {
      const id = await eventually(() => runningId(debate.child), 'the debate to start');
      await eventually(() => (messages(id) >= 2 ? true : null), 'a few messages');

      const paused = cliJson<{ id: string; status: string; process: number }>([
        'debates',
        'pause',
        id,
        '--workspace',
        ws,
      ]);
      expect(paused).toEqual({ id, status: 'paused', process: debate.child.pid });
      // Paused for real: nothing more is said while it waits, and the process is still there.
      const said = messages(id);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect([messages(id), statuses(id).at(-1), debate.child.exitCode]).toEqual([said, 'paused', null]);
      const progress = cliJson<{ status: string }>(['debates', 'progress', id, '--workspace', ws]);
      expect(progress.status).toBe('paused');

      const resumed = cliJson<{ status: string }>(['debates', 'resume', id, '--workspace', ws]);
      expect(resumed.status).toBe('running');
      const end = await debate.exit;
      expect(end.code).toBe(0);
      expect(JSON.parse(end.stdout)).toMatchObject({ id, status: 'completed' });
      expect(statuses(id)).toEqual(['paused', 'running', 'completed']);
      expect(messages(id)).toBeGreaterThan(said);
      expect(runHeldBy(ws, debate.child.pid as number)).toBe(null);

      const again = cli(['debates', 'pause', id, '--workspace', ws]);
      expect([again.code, again.stderr]).toEqual([
        1,
        `error: cannot pause debate ${id}: it has already ended (completed)\n`,
      ]);
    } finally {
      debate.child.kill('SIGKILL');
    }
  });

  it("stops a debate whose process was killed, through the app's cancel, and one still running", async () => {
    const killed = start(
      ['debate', '--workspace', ws, '--topic', 'Tidal kites', '--agents', 'ethicist,field-researcher'],
      150,
    );
    const id = await eventually(() => runningId(killed.child), 'the debate to start');
    await eventually(() => (messages(id) >= 2 ? true : null), 'a few messages');
    killed.child.kill('SIGKILL');
    await killed.exit;
    // Its marker is left behind, but no process owns it: pausing is refused, stopping cancels it here.
    const pause = cli(['debates', 'pause', id, '--workspace', ws]);
    expect(pause.code).toBe(1);
    expect(pause.stderr).toMatch(
      /^error: cannot pause debate \S+: no process is running it \(interrupted\); resume it with: debates resume \S+\n$/,
    );
    const stopped = cliJson<{ status: string }>(['debates', 'stop', id, '--workspace', ws]);
    expect(stopped.status).toBe('cancelled');
    expect(statuses(id).at(-1)).toBe('cancelled');

    const running = start(
      ['debate', '--workspace', ws, '--topic', 'Kelp farming', '--agents', 'ethicist,field-researcher', '--json'],
      500,
    );
    try {
      const other = await eventually(() => runningId(running.child), 'the second debate to start');
      const stop = cliJson<{ status: string; process: number }>(['debates', 'stop', other, '--workspace', ws]);
      expect(stop).toMatchObject({ status: 'cancelled', process: running.child.pid });
      const end = await running.exit;
      expect(JSON.parse(end.stdout)).toMatchObject({ id: other, status: 'cancelled' });
    } finally {
      running.child.kill('SIGKILL');
    }
  });

  it('stops a running evaluation at its checkpoint from another process, and resumes it to its lock', async () => {
    const slug = cliJson<{ ideas: { slug: string }[] }>(['list', '--workspace', ws]).ideas[0]?.slug as string;
    // A quick evaluation takes a handful of batches of calls; at 1.5 s a call there is time to stop it.
    const evaluation = start(['evaluate', slug, '--workspace', ws, '--mode', 'quick'], 1500);
    try {
      const id = await eventually(() => runningId(evaluation.child), 'the evaluation to start');
      const checkpoint = join(ws, 'ideas', slug, 'evaluations', `${id}.run.jsonl`);
      await eventually(
        () => (existsSync(checkpoint) && readFileSync(checkpoint, 'utf8').includes('"type":"input"') ? true : null),
        'its first answers',
      );

      const stopped = cliJson<{ status: string }>(['evaluations', 'stop', id, '--workspace', ws]);
      expect(stopped.status).toBe('paused');
      const lines = readFileSync(checkpoint, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; status?: string; reason?: string });
      // The run's log ends with the stop, in the status words every run uses: paused, resumable.
      expect(lines.at(-1)).toMatchObject({ type: 'status', status: 'paused', reason: 'cancelled' });
      const end = await evaluation.exit;
      // Its cost was said before it ran; then the stop.
      expect([end.code, end.stderr]).toEqual([
        1,
        expect.stringMatching(
          /^Estimated cost: likely .*\nRunning…\nerror: the evaluation was stopped before it locked \(resume it with evaluate --resume ID\)\n$/s,
        ),
      ]);

      const resumed = cliJson<{ status: string; lockReason: string }>(['evaluations', 'resume', id, '--workspace', ws]);
      expect(resumed.status).toBe('completed');
      // Its log records the whole run, the stop and the resume included, ending completed.
      const last = readFileSync(checkpoint, 'utf8').trim().split('\n').at(-1) as string;
      expect(JSON.parse(last)).toMatchObject({ type: 'status', status: 'completed' });
      const shown = cliJson<{ status: string; entries: unknown[] }>(['evaluations', 'show', id, '--workspace', ws]);
      expect(shown.status).toBe('completed');
    } finally {
      evaluation.child.kill('SIGKILL');
    }
  });
});
