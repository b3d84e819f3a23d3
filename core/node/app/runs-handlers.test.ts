import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPerTest, IDEA, record, refused, runStatuses } from '../../../tests/helpers/app-harness';
import { type Channel, type PushPayload, type RunStatusView, runsChannels } from '../../contract';
import type { App } from './create-app';
import { protocols } from '../../protocols';
import { tallyEntry } from '../../../tests/protocols/tally/protocol';

// The runs:* channels against a real app on a temp workspace, with the offline simulator: a crux
// debate and an evaluation paused, resumed and stopped through the same three channels, and their
// status followed through `run:status` alone. setTimeout and setInterval are faked and never
// advanced, so every status below reaches the test without a timer: were one polled, the wait for
// it would never end and the test would time out.

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const answered = new Set<Channel>();

/** The next `run:status` of run `id` with `status`, as it is pushed (subscribe before acting). */
function pushed(app: App, id: string, status: RunStatusView): Promise<PushPayload<'run:status'>> {
  return new Promise((resolve) => {
    const off = app.events.on('run:status', (p) => {
      if (p.id !== id || p.status !== status) return;
      off();
      resolve(p);
    });
  });
}

describe('runs of every protocol', () => {
  const t = appPerTest('crucible-runs-', answered);
  const { boot, call } = t;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  // Registered after the harness's, so it runs before it: the apps close on real timers.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pauses, resumes and cancels a debate and an evaluation through runs:*, pushing each change once, in order, with no timer', async () => {
    const app = await boot();
    const seen = record(app);

    // A crux debate: its pause lands when the calls in flight return, and is pushed then.
    const debate = (
      await call(app, 'debates:start', { topic: 'A city bike-share?', agents: AGENTS, provider: 'simulated' })
    ).id;
    let landed = pushed(app, debate, 'paused');
    expect(await call(app, 'runs:pause', { id: debate })).toMatchObject({
      id: debate,
      protocol: 'crux',
      status: 'running',
      live: true,
      stopRequested: true,
    });
    expect(await landed).toMatchObject({ status: 'paused', live: true, stopRequested: false });
    const listed = await call(app, 'runs:list', {});
    expect(listed.runs.map((r) => [r.id, r.status, r.live])).toEqual([[debate, 'paused', true]]);
    landed = pushed(app, debate, 'running');
    expect(await call(app, 'runs:resume', { id: debate })).toMatchObject({ id: debate, live: true });
    await landed;
    landed = pushed(app, debate, 'cancelled');
    await call(app, 'runs:cancel', { id: debate });
    expect(await landed).toMatchObject({ reason: 'cancelled by the researcher', live: false });
    expect(runStatuses(seen, debate)).toEqual(['running', 'paused', 'running', 'cancelled']);

    // An evaluation: it pauses only at its checkpoint (`paused`, why in `reason`), and its lock is
    // pushed once its record is written.
    const evaluation = (await call(app, 'evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' })).id;
    landed = pushed(app, evaluation, 'paused');
    expect(await call(app, 'runs:pause', { id: evaluation })).toMatchObject({
      protocol: 'evaluation',
      ideaSlug: IDEA,
      status: 'running',
      stopRequested: true,
    });
    expect((await call(app, 'evaluations:get', { id: evaluation })).stopRequested).toBe(true);
    expect(await landed).toMatchObject({ reason: 'cancelled' });
    landed = pushed(app, evaluation, 'completed');
    expect(await call(app, 'runs:resume', { id: evaluation })).toMatchObject({ status: 'running', live: true });
    await landed;
    expect((await call(app, 'evaluations:get', { id: evaluation })).status).toBe('completed');
    expect(runStatuses(seen, evaluation)).toEqual(['running', 'paused', 'running', 'completed']);

    // Both protocols in one list, newest first, as their logs left them.
    const all = (await call(app, 'runs:list', {})).runs;
    expect(all.map((r) => [r.id, r.protocol, r.status, r.reason, r.live])).toEqual([
      [evaluation, 'evaluation', 'completed', null, false],
      [debate, 'crux', 'cancelled', 'cancelled by the researcher', false],
    ]);
    expect((await call(app, 'runs:list', { protocol: 'crux' })).runs.map((r) => r.id)).toEqual([debate]);
    expect((await call(app, 'runs:list', { status: 'completed' })).runs.map((r) => r.id)).toEqual([evaluation]);
    expect((await call(app, 'runs:list', { protocol: 'evaluation', status: 'cancelled' })).runs).toEqual([]);
  }, 30_000);

  it('refuses what cannot be done, in words, whatever the protocol', async () => {
    const app = await boot();
    expect(await refused(call(app, 'runs:pause', { id: 'nope' }))).toMatchObject({
      code: 'user_error',
      message: 'no run "nope" (see: npm run cli -- runs list)',
    });
    expect(await refused(call(app, 'runs:cancel', { id: '../x' }))).toMatchObject({ code: 'bad_input' });
    expect(await refused(call(app, 'runs:list', { status: 'locked' as RunStatusView }))).toMatchObject({
      code: 'bad_input',
    });
    const evaluation = (await call(app, 'evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' })).id;
    await pushed(app, evaluation, 'completed');
    expect(await refused(call(app, 'runs:pause', { id: evaluation }))).toMatchObject({
      message: `cannot pause evaluation ${evaluation}: it is not running`,
    });
    expect(await refused(call(app, 'runs:resume', { id: evaluation }))).toMatchObject({
      message: `evaluation "${evaluation}" has already locked; dispute a criterion to reopen it`,
    });
  }, 30_000);
});

describe('a protocol that lives only in the tests, in the app', () => {
  // Registered before the app boots, as core/protocols.ts registers a real one.
  if (!protocols.get('tally')) protocols.register(tallyEntry);
  const t = appPerTest('crucible-runs-tally-', answered);
  const { boot, call } = t;

  it('starts through runs:start, is followed by the live host to its end, and reads as a transcript', async () => {
    const app = await boot();
    const seen = record(app);
    const setup = { agents: ['ada', 'bo', 'cy'], rounds: 3, tolerance: 0 };
    const started = await call(app, 'runs:start', {
      protocol: 'tally',
      ideaSlug: IDEA,
      provider: 'simulated',
      seed: 2,
      setup,
    });
    await new Promise<void>((resolve) => {
      if (runStatuses(seen, started.id).includes('completed')) return resolve();
      const off = app.events.on('run:status', (p) => {
        if (p.id === started.id && p.status === 'completed') {
          off();
          resolve();
        }
      });
    });
    const listed = (await call(app, 'runs:list', { protocol: 'tally' })).runs;
    const transcripts = (await call(app, 'transcripts:list', {})).transcripts.filter((x) => x.kind === 'run');
    const read = await call(app, 'transcripts:get', { kind: 'run', id: started.id });
    const found = await call(app, 'transcripts:search', { kind: 'run', text: 'first guess' });
    expect({
      started: [started.protocol, started.live, started.status],
      pushed: runStatuses(seen, started.id),
      listed: listed.map((r) => [r.id, r.status, r.live]),
      transcripts: transcripts.map((x) => [x.id, x.status, x.messages]),
      read: read.transcript.map((m) => `${m.agent} ${m.content.split(':')[0]}`),
      found: found.hits.map((h) => h.agent),
    }).toEqual({
      started: ['tally', true, 'running'],
      pushed: ['running', 'completed'],
      listed: [[started.id, 'completed', false]],
      transcripts: [[started.id, 'completed', 9]],
      // Three agents, three rounds (a zero tolerance is never met), in the order they answered.
      read: [1, 2, 3].flatMap((round) => ['ada', 'bo', 'cy'].map((agent) => `${agent} round ${round}`)),
      found: ['ada', 'bo', 'cy'],
    });
    expect(
      await refused(call(app, 'runs:start', { protocol: 'nope', topic: 'x', provider: 'simulated' })),
    ).toMatchObject({
      code: 'user_error',
      message: expect.stringMatching(/^no protocol "nope" \(registered: .*tally.*\)$/),
    });
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/runs-channels.ts in this file', () => {
    expect(Object.keys(runsChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
