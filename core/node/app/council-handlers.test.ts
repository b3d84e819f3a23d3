import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, record, refused, runStatuses } from '../../../tests/helpers/app-harness';
import { type Channel, councilChannels, type PushEvent } from '../../contract';
import { councilRecorder } from '../../council/recorder';
import { replayCouncil } from '../../council/replay';
import { nodeCouncilFiles } from '../council/council-files';
import { loadTaxonomy } from '../taxonomy-loader';
import type { App } from './create-app';

// The council:* channels against a real app on a temp workspace with the offline simulator: a task
// run in the background and followed by its pushes alone, the researcher's inbox with the preview of
// what a high-stakes proposal would change, every path that is not the researcher's decision leaving
// it waiting, approve, reject and revert (byte for byte), and the weights read from what a replayed
// task left.

const answered = new Set<Channel>();
const LICHENS = 'city-lichens-field-guide';
const README = `ideas/${IDEA}/README.md`;

/** Resolves with the first pushed event (seen already, or to come) that `test` accepts. */
function pushed<E extends PushEvent>(app: App, seen: PushEvent[], test: (e: PushEvent) => e is E): Promise<E>;
function pushed(app: App, seen: PushEvent[], test: (e: PushEvent) => boolean): Promise<PushEvent>;
function pushed(app: App, seen: PushEvent[], test: (e: PushEvent) => boolean): Promise<PushEvent> {
  const found = seen.find(test);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const off = app.events.onAny((e) => {
      if (!test(e)) return;
      off();
      resolve(e);
    });
  });
}

type Changed = Extract<PushEvent, { event: 'proposal:changed' }>;
const changes = (seen: PushEvent[], id: string) =>
  seen.flatMap((e) => (e.event === 'proposal:changed' && e.payload.id === id ? [e.payload] : []));
/** The drive of the task stopped with `id` waiting for the researcher (the `after`-th such push). */
const standsWaiting = (id: string, after = 0) => {
  let n = 0;
  return (e: PushEvent): e is Changed =>
    e.event === 'proposal:changed' &&
    e.payload.id === id &&
    e.payload.status === 'AWAITING_RESEARCHER' &&
    !e.payload.taskLive &&
    n++ === after;
};
const ended = (id: string) => (e: PushEvent) =>
  e.event === 'run:status' && e.payload.id === id && ['completed', 'partial', 'failed'].includes(e.payload.status);

describe('the council in the app', () => {
  const t = appPerTest('crucible-council-app-', answered, [IDEA, LICHENS]);
  const { boot, call } = t;
  const file = (rel: string) => readFileSync(join(t.root, rel));

  it('runs a task in the background, follows it by its pushes to its end, and reverts what it wrote byte for byte', async () => {
    const app = await boot();
    const seen = record(app);
    const before = file(README);
    // Its cost is said first: the simulator's is nothing, and it can run.
    expect(await call(app, 'council:estimate', { provider: 'simulated' })).toMatchObject({
      calls: 6,
      worstCalls: 50,
      usd: 0,
      cannotRun: null,
    });
    // Seed 3: the agents agree at once on a note (medium stakes, nothing flagged): it executes.
    const started = await call(app, 'council:run', {
      task: 'Write down the open questions',
      idea: IDEA,
      provider: 'simulated',
      seed: 3,
    });
    await pushed(app, seen, ended(started.id));
    const task = await call(app, 'council:get', { id: started.id });
    const p1 = task.proposals[0];
    const notePath = p1?.results[0]?.changes[0]?.path ?? '';
    const written = file(notePath).toString('utf8');
    const reverted = await call(app, 'council:revert', { id: `${started.id}-p1`, note: 'not needed' });
    const again = await call(app, 'council:get', { id: started.id });
    const listed = await call(app, 'council:list', {});
    expect({
      started: [started.task, started.idea, started.run?.live, started.run?.status],
      runStatuses: runStatuses(seen, started.id),
      task: [task.outcome, task.phase, task.waitsFor, task.run?.live, task.figures],
      p1: p1 && [
        p1.status,
        p1.stakes,
        p1.flags,
        p1.ladder,
        p1.decidedBy,
        p1.executed,
        p1.checked,
        p1.revertable,
        p1.versions.map((v) => [v.kind, v.author, v.reviews.map((r) => `${r.agent} ${r.review.decision}`)]),
        p1.postconditions?.map((c) => c.holds),
      ],
      note: [notePath, written.startsWith('# Write down the open questions')],
      lastPushes: changes(seen, `${started.id}-p1`)
        .slice(-2)
        .map((c) => [c.status, c.stakes, c.taskLive, c.waiting]),
      reverted: [
        reverted.proposal.status,
        reverted.changes,
        reverted.conflicts,
        existsSync(join(t.root, notePath)),
        file(README).equals(before),
      ],
      after: [again.proposals[0]?.status, again.proposals[0]?.revertable, again.proposals[0]?.reverted?.conflicts],
      listed: listed.tasks.map((x) => [x.id, x.outcome, x.proposals.map((p) => p.status)]),
      waiting: listed.waiting,
    }).toEqual({
      started: ['Write down the open questions', IDEA, true, 'running'],
      runStatuses: ['running', 'completed'],
      // Proposal, two reviews, the outcome review, "nothing more to propose", the episode.
      task: [
        'COMPLETED',
        'done',
        'nothing more (the task is over)',
        false,
        { calls: 6, proposalsWithDissent: 1, dissentRate: 1 },
      ],
      p1: [
        'RECORDED',
        'medium',
        [],
        0,
        'consensus',
        true,
        true,
        true,
        [['proposal', 'executor', ['verifier approve_with_concerns', 'integrator approve']]],
        [true],
      ],
      note: [`ideas/${IDEA}/notes/council-write-down-the-open-questions.md`, true],
      lastPushes: [
        ['RECORDED', 'medium', false, 0],
        ['REVERTED', 'medium', false, 0],
      ],
      reverted: [
        'REVERTED',
        [{ path: `ideas/${IDEA}/notes/council-write-down-the-open-questions.md`, change: 'deleted' }],
        [],
        false,
        true,
      ],
      after: ['REVERTED', false, []],
      listed: [[started.id, 'COMPLETED', ['REVERTED']]],
      waiting: 0,
    });
    expect(await refused(call(app, 'council:revert', { id: `${started.id}-p1`, note: '' }))).toMatchObject({
      code: 'user_error',
      message: expect.stringMatching(new RegExp(`^${started.id}-p1 was already reverted`)),
    });
    // The figures over time are read from the task's log: one simple task, its calls as the run metered them.
    const figures = await call(app, 'council:figures', {});
    expect({
      tasks: figures.tasks.map((f) => [f.taskId, f.complexity, f.proposals, f.dissentRate, f.calls, f.costUsd]),
      days: figures.byDay.map((d) => [d.day, d.tasks, d.callsPerTask]),
      band: figures.targets.dissentRate,
      problems: figures.problems,
    }).toEqual({
      tasks: [[started.id, 'simple', 1, task.figures.dissentRate, task.calls, 0]],
      days: [[task.run?.startedAt.slice(0, 10), 1, task.calls]],
      band: { min: 0.15, max: 0.3 },
      problems: [],
    });
  });

  it('keeps a high-stakes proposal waiting on every path but the researcher’s approval, previews it without writing, executes it on approval and reverts it', async () => {
    const app = await boot();
    const seen = record(app);
    const before = file(README);
    const started = await call(app, 'council:run', {
      task: 'Archive this idea',
      idea: IDEA,
      provider: 'simulated',
      seed: 3,
    });
    const id = `${started.id}-p1`;
    const waited = await pushed(app, seen, standsWaiting(id));
    const inbox = await call(app, 'council:approvals', {});
    const preview = await call(app, 'council:preview', { id });
    const untouchedByPreview = file(README).equals(before);

    // Paths that are not the researcher's decision: each leaves the proposal waiting, the file as it was.
    await call(app, 'council:resume', { id: started.id });
    await pushed(app, seen, standsWaiting(id, 1));
    await call(app, 'runs:resume', { id: started.id });
    await pushed(app, seen, standsWaiting(id, 2));
    const general = await refused(
      call(app, 'runs:start', {
        protocol: 'council',
        ideaSlug: IDEA,
        provider: 'simulated',
        setup: { task: 'Archive' },
      }),
    );
    const neverExecuted = await refused(call(app, 'council:revert', { id, note: '' }));
    const stillWaiting = await call(app, 'council:get', { id: started.id });
    const untouched = file(README).equals(before);

    const approved = await call(app, 'council:approve', { id, note: 'Idle for a year' });
    const inboxWhileDeciding = await call(app, 'council:approvals', {});
    await pushed(app, seen, ended(started.id));
    const archived = file(README).toString('utf8');
    const done = await call(app, 'council:get', { id: started.id });
    const precedents = readFileSync(join(t.root, 'council/memory/consensus_history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { proposal: string; precedent: boolean; note: string | null; decision: string },
      );
    const twice = await refused(call(app, 'council:approve', { id, note: '' }));
    const executedPreview = await refused(call(app, 'council:preview', { id }));
    const reverted = await call(app, 'council:revert', { id, note: 'Changed my mind' });

    expect({
      waited: [waited.payload.stakes, waited.payload.waitReason, waited.payload.waiting],
      inbox: inbox.proposals.map((p) => [p.id, p.stakes, p.waitReason, p.ladder, p.flags, p.votes, p.waitsFor]),
      preview: preview.files.map((f) => [
        f.path,
        f.change,
        f.before === before.toString('utf8'),
        /^stage: ARCHIVE$/m.test(f.after ?? ''),
        f.actions,
      ]),
      previewRest: [preview.version, preview.reads, preview.failures, untouchedByPreview],
      general: [general.code, /council run/.test(general.message)],
      neverExecuted: neverExecuted.message,
      stillWaiting: [stillWaiting.outcome, stillWaiting.proposals[0]?.status, untouched],
      approved: [approved.status, approved.deciding, inboxWhileDeciding.proposals],
      archived: /^stage: ARCHIVE$/m.test(archived),
      done: [done.outcome, done.proposals[0]?.status, done.proposals[0]?.decidedBy, done.proposals[0]?.researcherNote],
      precedent: precedents.filter((p) => p.proposal === id).map((p) => [p.decision, p.precedent, p.note]),
      twice: twice.message,
      executedPreview: executedPreview.message,
      reverted: [reverted.proposal.status, reverted.conflicts, file(README).equals(before)],
    }).toEqual({
      waited: ['high', 'stakes', 1],
      inbox: [
        [
          id,
          'high',
          'stakes',
          0,
          [],
          { executor: 'approve', verifier: 'approve_with_concerns', integrator: 'approve' },
          'your decision',
        ],
      ],
      preview: [[README, 'modified', true, true, [0]]],
      previewRest: [1, [], [], true],
      general: ['user_error', true],
      neverExecuted: `${id} was never executed: there is nothing to revert`,
      stillWaiting: ['AWAITING_RESEARCHER', 'AWAITING_RESEARCHER', true],
      approved: ['AWAITING_RESEARCHER', true, []],
      archived: true,
      done: ['COMPLETED', 'RECORDED', 'researcher', 'Idle for a year'],
      precedent: [['approved', true, 'Idle for a year']],
      twice: `${id} does not wait for your decision (it is RECORDED)`,
      executedPreview: `${id} has been executed: what it did is in its results`,
      reverted: ['REVERTED', [], true],
    });
  });

  it('rejects a waiting proposal with a note: nothing is written and the inbox empties', async () => {
    const app = await boot();
    const seen = record(app);
    const before = file(README);
    const started = await call(app, 'council:run', { task: 'Archive it', idea: IDEA, provider: 'simulated', seed: 6 });
    const id = `${started.id}-p1`;
    await pushed(app, seen, standsWaiting(id));
    await call(app, 'council:reject', { id, note: 'Still active' });
    const last = await pushed(
      app,
      seen,
      (e): e is Changed => e.event === 'proposal:changed' && e.payload.id === id && e.payload.status === 'REJECTED',
    );
    await pushed(app, seen, ended(started.id));
    const task = await call(app, 'council:get', { id: started.id });
    expect({
      pushed: [last.payload.waiting],
      task: [task.outcome, task.proposals[0]?.status, task.proposals[0]?.decision, task.proposals[0]?.researcherNote],
      inbox: (await call(app, 'council:approvals', {})).proposals,
      untouched: file(README).equals(before),
    }).toEqual({
      pushed: [0],
      task: ['REJECTED', 'REJECTED', 'rejected', 'Still active'],
      inbox: [],
      untouched: true,
    });
  });

  it('reads the weights, their history and a task replayed from a script (no run log)', async () => {
    const app = await boot();
    const files = nodeCouncilFiles(t.root, { stages: [...loadTaxonomy(null).stageIds] });
    const script = readFileSync(
      join(import.meta.dirname, '../../../tests/fixtures/council/medium-discussion.jsonl'),
      'utf8',
    );
    replayCouncil(script, files, { taskId: 'replayed1', observer: councilRecorder(files, 'replayed1') });
    const weights = await call(app, 'council:weights', {});
    const listed = await call(app, 'council:list', {});
    const task = await call(app, 'council:get', { id: 'replayed1' });
    expect({
      history: weights.history.map((h) => [h.agent, h.value, h.delta, h.from, h.to, h.refused !== null]),
      series: weights.series.map((p) => [p.taskId, p.weights.integrator.transparency, p.weights.verifier.exploration]),
      current: [weights.current.integrator.transparency, weights.current.verifier.exploration],
      spread: weights.spread.transparency,
      listed: listed.tasks.map((x) => [x.id, x.run, x.outcome]),
      task: [task.weights, task.phase, task.proposals.map((p) => [p.status, p.ladder, p.versions.length])],
    }).toEqual({
      history: [
        ['integrator', 'transparency', -0.05, 0.9, 0.85, false],
        ['verifier', 'exploration', 0.05, 0.5, 0.55, false],
        ['executor', 'safety', 0.06, null, null, true],
        ['integrator', 'transparency', -0.05, null, null, true],
        ['verifier', 'truth', 0.05, null, null, true],
      ],
      series: [
        [null, 0.9, 0.5],
        ['replayed1', 0.85, 0.55],
      ],
      current: [0.85, 0.55],
      // Population standard deviation of (0.5, 0.5, 0.85).
      spread: 0.165,
      listed: [['replayed1', null, 'COMPLETED']],
      task: [null, 'done', [['RECORDED', 1, 2]]],
    });
  });

  it('refuses bad input naming the field, and what cannot be done in words', async () => {
    const app = await boot();
    expect(await refused(call(app, 'council:run', { task: '  ', provider: 'simulated' }))).toMatchObject({
      code: 'bad_input',
      field: 'task',
    });
    expect(await refused(call(app, 'council:approve', { id: 'nope', note: '' }))).toMatchObject({
      code: 'bad_input',
      field: 'id',
    });
    expect(
      await refused(call(app, 'council:run', { task: 'x', idea: 'no-such-idea', provider: 'simulated' })),
    ).toMatchObject({
      code: 'user_error',
      message: 'no idea "no-such-idea" in this workspace',
    });
    expect(await refused(call(app, 'council:get', { id: 'nothing' }))).toMatchObject({
      code: 'user_error',
      message: 'no council task "nothing" in this workspace',
    });
    expect(await refused(call(app, 'council:preview', { id: 'nothing-p1' }))).toMatchObject({
      code: 'user_error',
    });
    expect(await refused(call(app, 'council:reject', { id: 'nothing-p1', note: '' }))).toMatchObject({
      code: 'user_error',
    });
    expect((await call(app, 'council:list', {})).tasks).toEqual([]);
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/council-channels.ts in this file', () => {
    expect(Object.keys(councilChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
