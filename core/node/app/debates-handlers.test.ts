import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AFTER_THE_DEADLINES,
  appPerTest,
  debateEvents,
  runStatuses,
  finishedRuns,
  IDEA,
  lastRunStatus,
  OTHER,
  record,
  refused,
} from '../../../tests/helpers/app-harness';
import { eventually } from '../../../tests/helpers/temp-workspace';
import { type Channel, debatesChannels } from '../../contract';
import { baselineSchema, compareBaseline } from '../../crux/live/baseline';

// The debates:* channels against a real app on a temp workspace, with the offline simulator:
// debates started, paused, resumed and cancelled in the background, and what the views read of
// one that has finished. CRUCIBLE_SIMULATED_LATENCY_MS slows the simulator where a test needs to
// catch a debate mid-way.

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const answered = new Set<Channel>();

describe('running debates', () => {
  const t = appPerTest('crucible-debates-', answered);
  const { boot, call } = t;

  it('estimates a debate without starting one', async () => {
    const app = await boot();
    const estimate = await call(app, 'debates:estimate', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated' });
    expect(estimate.calls).toBeGreaterThan(10);
    expect(estimate.usd).toBe(0);
    expect((await call(app, 'debates:list', {})).debates).toEqual([]);
    expect(existsSync(join(t.root, 'ideas', IDEA, 'debates'))).toBe(false);
    expect(
      await refused(
        call(app, 'debates:estimate', { topic: 'x', agents: ['regulator', 'nobody'], provider: 'simulated' }),
      ),
    ).toMatchObject({
      code: 'user_error',
      message: expect.stringMatching(/^unknown persona "nobody"; available: /),
    });
  });

  it('starts a simulated debate in the background, pushes its events in order, and ends it completed', async () => {
    const app = await boot();
    const seen = record(app);
    const started = await call(app, 'debates:start', {
      ideaSlug: IDEA,
      agents: AGENTS,
      provider: 'simulated',
      seed: 3,
    });
    expect(started.id).toMatch(/^[0-9a-z]{26}$/);
    expect(started.estimate.calls).toBeGreaterThan(0);
    const end = await eventually(
      () => {
        const status = lastRunStatus(seen, started.id);
        return status && status.status !== 'running' ? status : null;
      },
      'the debate to end',
      20_000,
    );
    expect(end).toMatchObject({
      id: started.id,
      protocol: 'crux',
      ideaSlug: IDEA,
      status: 'completed',
      reason: null,
      live: false,
      stopRequested: false,
      provider: 'simulated',
    });
    expect(runStatuses(seen, started.id)).toEqual(['running', 'completed']);

    // The pushed batches number one gap-free sequence that is exactly the log's events.
    const batches = debateEvents(seen, started.id);
    expect(batches.length).toBeGreaterThan(10);
    let next = batches[0]?.from ?? -1;
    for (const batch of batches) {
      expect(batch.from).toBe(next);
      next += batch.events.length;
    }
    const pushed = batches.flatMap((b) => b.events);
    expect(pushed.some((e) => e.type === 'message_posted')).toBe(true);
    expect(pushed.some((e) => e.type === 'crystallized')).toBe(true);
    const fromLog = await call(app, 'debates:events', { id: started.id });
    expect(fromLog.total).toBe(next);
    expect(fromLog.events.slice(batches[0]?.from)).toEqual(pushed);
    expect(fromLog.events[0]).toMatchObject({ type: 'thread_opened', thread: 't1' });
    const tail = await call(app, 'debates:events', { id: started.id, from: next - 2 });
    expect(tail).toMatchObject({ from: next - 2, total: next });
    expect(tail.events).toEqual(pushed.slice(-2));

    const { debates } = await call(app, 'debates:list', { ideaSlug: IDEA });
    expect(debates).toEqual([
      expect.objectContaining({ id: started.id, status: 'completed', live: false, provider: 'simulated' }),
    ]);
    expect((await call(app, 'debates:list', { ideaSlug: OTHER })).debates).toEqual([]);
    const detail = await call(app, 'debates:get', { id: started.id });
    expect(detail).toMatchObject({ status: 'completed', live: false, header: { ideaSlug: IDEA, seed: 3 } });
    expect(detail.result.regime).toBe('polarized');
    expect(detail.transcript).toContain('> **Simulated debate.**');
  });

  it('sets the single pass a start asked for beside the result before the end is pushed, its calls in the estimate', async () => {
    const app = await boot();
    const seen = record(app);
    const request = { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated' as const, seed: 3 };
    const plain = await call(app, 'debates:estimate', request);
    const started = await call(app, 'debates:start', { ...request, baseline: true });
    expect(started.estimate.calls - plain.calls).toBe(AGENTS.length);
    expect(started.estimate.worstCalls - plain.worstCalls).toBe(AGENTS.length);
    await eventually(() => lastRunStatus(seen, started.id)?.status === 'completed', 'the debate to end', 20_000);
    // A view that reloads on the pushed end finds the pass: it is on disk by then.
    const stored = join(t.root, 'ideas', IDEA, 'debates', `${started.id}.baseline.json`);
    expect(existsSync(stored)).toBe(true);
    const detail = await call(app, 'debates:get', { id: started.id });
    expect(detail.baseline).toEqual(
      compareBaseline(baselineSchema.parse(JSON.parse(readFileSync(stored, 'utf8'))), detail.result),
    );
    expect(detail.baseline?.cost.single.llmCalls).toBe(AGENTS.length);
  });

  it('refuses to start what cannot run, with the reason', async () => {
    const app = await boot();
    expect(
      await refused(call(app, 'debates:start', { ideaSlug: 'nope', agents: AGENTS, provider: 'simulated' })),
    ).toMatchObject({
      code: 'user_error',
      message: 'no idea "nope" (see: npm run cli -- list)',
    });
    expect(
      await refused(
        call(app, 'debates:start', { topic: 'x', agents: ['regulator', 'crystallizer'], provider: 'simulated' }),
      ),
    ).toMatchObject({
      code: 'user_error',
      message: expect.stringMatching(/^not crux debaters: crystallizer/),
    });
    expect(await refused(call(app, 'debates:get', { id: 'nope' }))).toMatchObject({ code: 'user_error' });
    expect(await refused(call(app, 'debates:pause', { id: 'nope' }))).toMatchObject({ code: 'user_error' });
  });

  it('pauses, resumes and cancels a running debate, pushing each status as the log records it', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '15';
    const app = await boot();
    const seen = record(app);
    const { id } = await call(app, 'debates:start', {
      topic: 'Should the city run its own bike-share?',
      agents: AGENTS,
      provider: 'simulated',
    });
    await eventually(() => debateEvents(seen, id).length > 3, 'a few events');
    const midway = await call(app, 'debates:get', { id });
    expect(midway).toMatchObject({ status: 'running', live: true, transcript: null, result: { regime: 'partial' } });
    expect(await call(app, 'debates:pause', { id })).toEqual({ id });
    await eventually(() => lastRunStatus(seen, id)?.status === 'paused', 'the pause to be logged');
    const pausedAt = debateEvents(seen, id).length;
    // A single pass is set beside a result that no longer moves, not a paused one.
    expect(await refused(call(app, 'debates:baselineEstimate', { id }))).toMatchObject({
      code: 'user_error',
      message: `debate ${id} has not ended (paused): a single pass is set beside a finished debate's result`,
    });
    expect((await call(app, 'debates:list', {})).debates[0]).toMatchObject({ id, status: 'paused', live: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(debateEvents(seen, id).length).toBe(pausedAt);

    expect(await call(app, 'debates:resume', { id })).toEqual({ id });
    await eventually(() => lastRunStatus(seen, id)?.status === 'running', 'the debate to run again');
    await eventually(() => debateEvents(seen, id).length > pausedAt, 'new events after resuming');
    expect(await call(app, 'debates:cancel', { id })).toEqual({ id });
    const end = await eventually(
      () => (lastRunStatus(seen, id)?.status === 'cancelled' ? lastRunStatus(seen, id) : null),
      'the cancel',
    );
    expect(end?.reason).toBe('cancelled by the researcher');
    expect(runStatuses(seen, id)).toEqual(['running', 'paused', 'running', 'cancelled']);
    expect(await refused(call(app, 'debates:resume', { id }))).toMatchObject({
      code: 'user_error',
      message: `cannot resume debate ${id}: it has already ended (cancelled)`,
    });
  });
});

describe('what the views read of a finished debate', () => {
  const f = finishedRuns('crucible-debate-views-', answered, { evaluation: false });
  const call = f.call;
  let debateId = '';
  let root = '';
  beforeAll(() => {
    ({ debateId, root } = f);
  });

  describe('debate progress', () => {
    it('reports each thread’s stage, budgets, commitments and steelmans, and the meter, as the log has them', async () => {
      const detail = await call('debates:get', { id: debateId });
      const progress = await call('debates:progress', { id: debateId });
      const { total } = await call('debates:events', { id: debateId });
      expect(progress).toMatchObject({ id: debateId, status: 'completed', live: false, events: total });
      expect(progress.threads.map((t) => [t.id, t.status])).toEqual(detail.result.threads.map((t) => [t.id, t.status]));
      const converged = progress.threads.find((t) => t.status === 'CONVERGED');
      expect(converged).toBeDefined();
      expect(converged?.lockAttempts).toBeGreaterThan(0);
      expect(converged?.maxLockAttempts).toBe(3);
      expect(converged?.messages.EVIDENCE).toBeGreaterThan(0);
      expect(converged?.budgets.DISCOVERY).toBeGreaterThanOrEqual(8);
      // Every decided commitment of a converged thread carries its falsifier; steelmans name both ends.
      const decided = converged?.commitments.filter((c) => c.side !== 'UNCERTAIN') ?? [];
      expect(decided.length).toBeGreaterThanOrEqual(2);
      for (const c of decided) expect(c.falsifier?.deadline).toBeTruthy();
      expect(converged?.steelmans.some((s) => s.grade === 'ACCURATE')).toBe(true);
      const metrics = detail.result.systemMetrics;
      expect(progress.meter).toMatchObject({
        messages: metrics.messagesTotal,
        llmCalls: metrics.llmCalls,
        maxMessages: 200,
        budgetUsd: 2,
      });
      expect(progress.meter.llmCalls).toBeGreaterThan(10);
    });

    it('refuses an unknown debate in words', async () => {
      expect(await refused(call('debates:progress', { id: 'nope' }))).toMatchObject({
        code: 'user_error',
        message: expect.stringContaining('no debate "nope"'),
      });
    });
  });

  describe('crux maps', () => {
    it('has a node per crux with positions, falsifiers, criteria and supporting messages that link into the transcript', async () => {
      const detail = await call('debates:get', { id: debateId });
      const map = await call('debates:cruxMap', { id: debateId });
      const transcript = await call('transcripts:get', { kind: 'debate', id: debateId });
      expect(map.agents.map((a) => a.id)).toEqual(AGENTS);
      const crystallized = detail.result.threads.filter((t) => t.crux);
      expect(crystallized.length).toBeGreaterThan(0);
      for (const thread of crystallized) {
        const node = map.cruxes.find((c) => c.id === `crux:${thread.id}`);
        expect(node).toMatchObject({
          question: thread.crux?.question,
          crystallized: true,
          validated: thread.crux?.validated,
          primary: detail.result.primaryCrux === thread.id,
          resolutionCriteria: thread.crux?.resolutionCriteria,
        });
        expect(node?.dcg).toBeCloseTo(thread.crux?.dcg.score ?? -1, 2);
        expect(Object.fromEntries(node?.positions.map((p) => [p.agent, p.side]) ?? [])).toEqual(
          Object.fromEntries(Object.entries(thread.crux?.positions ?? {}).map(([a, p]) => [a, p.side])),
        );
        expect(node?.supporting.length).toBeGreaterThan(0);
        for (const s of node?.supporting ?? []) {
          expect(transcript.transcript[s.index]).toMatchObject({ id: s.messageId, agent: s.agent, thread: thread.id });
        }
      }
      expect(map.cruxes.filter((c) => c.primary)).toHaveLength(detail.result.primaryCrux ? 1 : 0);
      for (const edge of map.edges) {
        expect(map.cruxes.some((c) => c.id === edge.from) && map.cruxes.some((c) => c.id === edge.to)).toBe(true);
      }
      expect(map.layout).toBeNull();
    });

    it('keeps node positions beside the debate’s log, and they survive a rebuilt index', async () => {
      const positions = { 'crux:t1': { x: 10.04, y: -20 }, 'agent:regulator': { x: 300, y: 40.5 } };
      const saved = await call('debates:saveCruxLayout', { id: debateId, positions });
      expect(saved.path).toBe(`ideas/${IDEA}/debates/${debateId}.layout.json`);
      expect(saved.saved).toBe(2);
      expect(JSON.parse(readFileSync(join(root, saved.path), 'utf8')).positions['crux:t1']).toEqual({ x: 10, y: -20 });

      await f.restart(() => rmSync(join(root, '.crucible'), { recursive: true, force: true }));
      const map = await call('debates:cruxMap', { id: debateId });
      expect(map.layout?.positions).toEqual({ 'crux:t1': { x: 10, y: -20 }, 'agent:regulator': { x: 300, y: 40.5 } });
      expect(map.layout?.savedAt).toBe(AFTER_THE_DEADLINES.toISOString());
    });

    it('refuses positions that are not numbers, naming the field', async () => {
      const error = await refused(
        call('debates:saveCruxLayout', { id: debateId, positions: { 'crux:t1': { x: 'left', y: 0 } } } as never),
      );
      expect(error.code).toBe('bad_input');
      expect(error.field).toBe('positions.crux:t1.x');
    });
  });

  describe('a single pass beside the debate', () => {
    it('says what it would cost, then asks each agent once, keeps it beside the log, and the detail carries it', async () => {
      const estimate = await call('debates:baselineEstimate', { id: debateId });
      expect(estimate).toMatchObject({ calls: AGENTS.length, worstCalls: AGENTS.length, usd: 0, cannotRun: null });
      const before = await call('debates:get', { id: debateId });
      expect('baseline' in before).toBe(false);
      const file = join(root, `ideas/${IDEA}/debates/${debateId}.baseline.json`);
      expect(existsSync(file)).toBe(false);

      const comparison = await call('debates:baseline', { id: debateId });
      // The stored pass, set beside the debate's result by the protocol's own comparison, is the answer.
      const stored = baselineSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      expect(comparison).toEqual(compareBaseline(stored, before.result));
      expect(stored.answers.map((a) => [a.agent, a.error, a.answer?.crux.endsWith('?')])).toEqual(
        AGENTS.map((a) => [a, null, true]),
      );
      expect(comparison.cost).toEqual({
        single: { llmCalls: estimate.calls, costUsd: 0 },
        debate: { llmCalls: before.result.systemMetrics.llmCalls, costUsd: 0 },
      });
      expect((await call('debates:get', { id: debateId })).baseline).toEqual(comparison);
    });

    it('refuses an unknown debate in words', async () => {
      expect(await refused(call('debates:baseline', { id: 'nope' }))).toMatchObject({
        code: 'user_error',
        message: expect.stringContaining('no debate "nope"'),
      });
    });
  });

  describe('the course of a debate', () => {
    it('follows each crux’s DCG and each agent’s position message by message, ending on the crux’s own', async () => {
      const course = await call('debates:course', { id: debateId });
      const map = await call('debates:cruxMap', { id: debateId });
      const { transcript } = await call('transcripts:get', { kind: 'debate', id: debateId });
      expect(course).toMatchObject({ debateId, ideaSlug: IDEA, status: 'completed', messages: transcript.length });
      // The ids the chart names its points by are the transcript's, index for index.
      expect(course.messageIds).toEqual(transcript.map((m) => m.id));
      expect(course.agents.map((a) => a.id)).toEqual(AGENTS);
      // Each with its persona: the positions chart colours a line by it, as every other view does.
      expect(course.agents.map((a) => a.persona)).toEqual(AGENTS);
      const crystallized = course.threads.filter((t) => t.crystallizedAt !== null);
      expect(crystallized.length).toBeGreaterThan(0);
      for (const thread of course.threads) {
        const indexes = [
          ...thread.dcgPoints.map((p) => p.index),
          ...thread.positions.flatMap((a) => a.points.map((p) => p.index)),
        ];
        for (const i of indexes) expect(i).toBeLessThan(course.messages);
        // A position before crystallization sits on the agent's own message that took it (its deep link opens it).
        for (const a of thread.positions) {
          for (const p of a.points.filter((p) => p.index !== thread.crystallizedAt)) {
            expect(transcript[p.index]).toMatchObject({ thread: thread.id, agent: a.agent, kind: 'message' });
            expect(['COMMIT_POSITION', 'UPDATE_POSITION', 'CONCEDE']).toContain(transcript[p.index]?.move);
          }
        }
        expect(thread.dcgPoints.map((p) => p.index)).toEqual(
          [...thread.dcgPoints.map((p) => p.index)].sort((a, b) => a - b),
        );
      }
      for (const thread of crystallized) {
        const node = map.cruxes.find((c) => c.id === `crux:${thread.id}`);
        const last = thread.dcgPoints.at(-1);
        expect(last).toMatchObject({ index: thread.crystallizedAt, final: true });
        expect(last?.score).toBeCloseTo(node?.dcg ?? -1, 2);
        expect(thread.dcg).toBeCloseTo(node?.dcg ?? -1, 2);
        expect(thread).toMatchObject({ question: node?.question, validated: node?.validated, primary: node?.primary });
        // Each agent's last point is its final position on the crux.
        const finals = Object.fromEntries(thread.positions.map((a) => [a.agent, a.points.at(-1)?.side]));
        expect(finals).toMatchObject(Object.fromEntries(node?.positions.map((p) => [p.agent, p.side]) ?? []));
      }
      // The curve builds up before the crux crystallizes: sides and falsifiers arrive message by message.
      const converged = crystallized.find((t) => t.status === 'CONVERGED');
      expect(converged?.dcgPoints.some((p) => !p.final && p.score > 0)).toBe(true);
      expect(
        converged?.dcgPoints.filter((p) => !p.final).every((p) => p.index < (converged?.crystallizedAt ?? 0)),
      ).toBe(true);
    });

    it('refuses an unknown debate in words', async () => {
      expect(await refused(call('debates:course', { id: 'nope' }))).toMatchObject({
        code: 'user_error',
        message: expect.stringContaining('no debate "nope"'),
      });
    });
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/debates-channels.ts in this file', () => {
    expect(Object.keys(debatesChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
