import { describe, expect, it } from 'vitest';
import type { PushPayload } from '../../contract';
import type { DebateRecord } from '../../engine/debate-record';
import type { RunStatus } from '../../engine/protocol';
import { silentLog } from '../../ports/log';
import { LiveRuns, type RunStart } from './live-runs';
import { PushEmitter } from './push-emitter';

// LiveRuns alone, fed the records a run's log appends: what it pushes, when, and how often. No
// timer is involved anywhere: every push below happens inside the call that caused it.

function host() {
  const bugs: Error[] = [];
  const emitter = new PushEmitter(silentLog, (e) => bugs.push(e));
  const pushed: PushPayload<'run:status'>[] = [];
  emitter.on('run:status', (p) => pushed.push(p));
  const runs = new LiveRuns(emitter, () => new Date('2026-05-01T10:00:00Z'));
  return { runs, pushed, bugs };
}

const START: RunStart = {
  id: 'r1',
  protocol: 'crux',
  ideaSlug: 'solar',
  topic: 'Solar co-ops',
  provider: 'simulated',
  startedAt: '2026-05-01T09:00:00Z',
  costUsd: 0.5,
};

let seq = 10;
const status = (s: RunStatus, reason?: string): DebateRecord =>
  ({
    seq: seq++,
    at: `2026-05-01T10:00:${seq}Z`,
    type: 'status',
    status: s,
    ...(reason ? { reason } : {}),
  }) as DebateRecord;
const call = (costUsd: number): DebateRecord =>
  ({
    seq: seq++,
    at: `2026-05-01T10:00:${seq}Z`,
    type: 'llm_call',
    agent: 'a',
    purpose: 'turn:t1',
    call: { costUsd },
  }) as unknown as DebateRecord;
const input = (): DebateRecord =>
  ({ seq: seq++, at: `2026-05-01T10:00:${seq}Z`, type: 'input', input: { kind: 'answer' } }) as DebateRecord;
const event = (): DebateRecord =>
  ({ seq: seq++, at: `2026-05-01T10:00:${seq}Z`, type: 'event', event: { type: 'message_posted' } }) as DebateRecord;

describe('LiveRuns', () => {
  it('pushes each status change once, in the order the log records them, and holds an end until the run’s outputs are written', () => {
    const { runs, pushed, bugs } = host();
    const run = runs.follow(START);
    run.records([event(), call(0.25)]);
    run.stopAsked(true);
    expect(runs.get('r1')).toMatchObject({ status: 'running', stopRequested: true, costUsd: 0.75 });
    run.records([call(0.125), status('paused')]);
    // A second record of the same status (a resume logging `running` the host already pushed) is no change.
    run.records([status('paused')]);
    run.stopAsked(false);
    run.records([status('running'), event()]);
    run.stopAsked(true);
    run.records([status('cancelled', 'cancelled by the researcher')]);
    // Logged, but the transcript is not written yet: nothing is pushed, and it still counts as running.
    expect(pushed.map((p) => p.status)).toEqual(['running', 'paused', 'running']);
    expect(runs.get('r1')).toMatchObject({ status: 'running', live: true });
    run.end();
    run.end();
    run.records([status('running')]);
    expect(pushed.map((p) => [p.status, p.reason, p.live, p.stopRequested])).toEqual([
      ['running', null, true, false],
      ['paused', null, true, false],
      ['running', null, true, false],
      ['cancelled', 'cancelled by the researcher', false, false],
    ]);
    expect(pushed.at(-1)).toEqual({
      id: 'r1',
      protocol: 'crux',
      ideaSlug: 'solar',
      topic: 'Solar co-ops',
      status: 'cancelled',
      reason: 'cancelled by the researcher',
      live: false,
      stopRequested: false,
      provider: 'simulated',
      costUsd: 0.875,
      startedAt: '2026-05-01T09:00:00Z',
      updatedAt: pushed.at(-1)?.updatedAt,
    });
    expect(pushed.at(-1)?.updatedAt).toMatch(/^2026-05-01T10:00:\d+Z$/);
    expect(runs.get('r1')).toBeNull();
    expect(runs.list()).toEqual([]);
    expect(bugs).toEqual([]);
  });

  it('pushes run:progress when answers are applied, with the log size and the cost so far, and for nothing else', () => {
    const { runs } = host();
    const emitter = (runs as unknown as { emitter: PushEmitter }).emitter;
    const progress: PushPayload<'run:progress'>[] = [];
    emitter.on('run:progress', (p) => progress.push(p));
    const run = runs.follow(START);
    run.records([call(0.25), event()]);
    const batch = [call(0.125), input(), event()];
    const first = batch[1] as DebateRecord;
    run.records(batch);
    run.records([status('paused')]);
    run.records([input()]);
    expect(progress).toEqual([
      { id: 'r1', protocol: 'crux', records: first.seq + 2, costUsd: 0.875 },
      { id: 'r1', protocol: 'crux', records: first.seq + 4, costUsd: 0.875 },
    ]);
  });

  it('ends a run that threw as failed with its reason, and one that ended without a word quietly', () => {
    const { runs, pushed } = host();
    const crashed = runs.follow(START);
    crashed.end('the index is closed');
    const quiet = runs.follow({ ...START, id: 'r2' });
    quiet.records([status('paused', 'app closed')]);
    quiet.end();
    expect(pushed.map((p) => [p.id, p.status, p.reason])).toEqual([
      ['r1', 'running', null],
      ['r1', 'failed', 'the index is closed'],
      ['r2', 'running', null],
      ['r2', 'paused', 'app closed'],
    ]);
  });

  it('takes a stop request only while the run runs, and wakes a waiter by the record, not a clock', async () => {
    const { runs } = host();
    const run = runs.follow(START);
    let paused = false;
    const waiting = runs
      .until('r1', (s) => s === 'paused')
      .then(() => {
        paused = true;
      });
    run.records([status('paused')]);
    await waiting;
    expect(paused).toBe(true);
    run.stopAsked(true);
    expect(runs.get('r1')?.stopRequested).toBe(false);
    // A waiter whose run ends without reaching the status is let go too.
    const gone = runs.until('r1', (s) => s === 'completed');
    run.end();
    await gone;
    await runs.until('nope', () => false);
  });

  it('lists the runs it follows and sends pause, resume and cancel to the host of their protocol', async () => {
    const { runs } = host();
    runs.follow(START);
    runs.follow({ ...START, id: 'e1', protocol: 'evaluation' });
    expect(runs.list().map((r) => [r.id, r.protocol, r.status])).toEqual([
      ['r1', 'crux', 'running'],
      ['e1', 'evaluation', 'running'],
    ]);
    const asked: string[] = [];
    runs.serve('evaluation', {
      pause: (id) => void asked.push(`pause ${id}`),
      resume: async (id) => void asked.push(`resume ${id}`),
      cancel: (id) => void asked.push(`cancel ${id}`),
    });
    const controls = runs.controls('evaluation');
    controls.pause('e1');
    await controls.resume('e1');
    controls.cancel('e1');
    expect(asked).toEqual(['pause e1', 'resume e1', 'cancel e1']);
    expect(() => runs.controls('arena')).toThrow('this app cannot drive runs of the arena protocol');
  });
});
