import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { type Channel, type ChannelInput, type ChannelOutput, ContractError, debateViewChannels } from '../../contract';
import { appRoot } from '../app-root';
import { type App, createApp } from './create-app';

const IDEA = 'community-solar-coop';
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
/** The simulator's falsifiers fall due on 2027-12-31; this "today" is after that. */
const TODAY = new Date('2028-03-01T12:00:00Z');

let root: string;
let cleanup: () => void;
let app: App;
let debateId: string;
const bugs: Error[] = [];
const answered = new Set<Channel>();

async function boot(): Promise<App> {
  return createApp({
    workspaceRoot: root,
    watch: false,
    clock: { now: () => TODAY },
    onContractBug: (e) => bugs.push(e),
  });
}

async function call<C extends Channel>(channel: C, input: ChannelInput<C>, on = app): Promise<ChannelOutput<C>> {
  const output = await on.handlers[channel](input);
  answered.add(channel);
  return output;
}

async function refused(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ContractError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

beforeAll(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-debate-view-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  app = await boot();
  debateId = (await call('debates:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 })).id;
  const until = Date.now() + 30_000;
  while ((await app.handlers['debates:get']({ id: debateId })).status === 'running') {
    if (Date.now() > until) throw new Error('the simulated debate did not end');
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);

afterAll(async () => {
  await app?.close();
  cleanup?.();
  expect(bugs).toEqual([]);
});

describe('debate progress', () => {
  it('reports each thread’s stage, budgets, commitments and steelmans, and the meter, as the log has them', async () => {
    const detail = await call('debates:get', { id: debateId });
    const progress = await call('debateProgress:get', { id: debateId });
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
    expect(await refused(call('debateProgress:get', { id: 'nope' }))).toMatchObject({
      code: 'user_error',
      message: expect.stringContaining('no debate "nope"'),
    });
  });
});

describe('crux maps', () => {
  it('has a node per crux with positions, falsifiers, criteria and supporting messages that link into the transcript', async () => {
    const detail = await call('debates:get', { id: debateId });
    const map = await call('cruxMaps:get', { id: debateId });
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
    const saved = await call('cruxMaps:savePositions', { id: debateId, positions });
    expect(saved.path).toBe(`ideas/${IDEA}/debates/${debateId}.layout.json`);
    expect(saved.saved).toBe(2);
    expect(JSON.parse(readFileSync(join(root, saved.path), 'utf8')).positions['crux:t1']).toEqual({ x: 10, y: -20 });

    await app.close();
    rmSync(join(root, '.crucible'), { recursive: true, force: true });
    app = await boot();
    const map = await call('cruxMaps:get', { id: debateId });
    expect(map.layout?.positions).toEqual({ 'crux:t1': { x: 10, y: -20 }, 'agent:regulator': { x: 300, y: 40.5 } });
    expect(map.layout?.savedAt).toBe(TODAY.toISOString());
  });

  it('refuses positions that are not numbers, naming the field', async () => {
    const error = await refused(
      call('cruxMaps:savePositions', { id: debateId, positions: { 'crux:t1': { x: 'left', y: 0 } } } as never),
    );
    expect(error.code).toBe('bad_input');
    expect(error.field).toBe('positions.crux:t1.x');
  });
});

describe('the ledger', () => {
  it('lists every falsifier with its deadline, overdue once the day has passed, and records a resolution in ledger.md', async () => {
    const before = await call('ledger:list', {});
    expect(before.today).toBe('2028-03-01');
    expect(before.problems).toEqual([]);
    expect(existsSync(join(root, 'ledger.md'))).toBe(false);
    const dated = before.falsifiers.filter((f) => f.deadlineDate === '2027-12-31');
    expect(dated.length).toBeGreaterThan(0);
    for (const f of dated) expect(f.status).toBe('overdue');
    const target = dated[0] as (typeof dated)[number];
    expect(target).toMatchObject({ debateId, ideaSlug: IDEA, debateTopic: expect.any(String) });
    expect(before.cruxes.find((c) => c.thread === target.thread)).toMatchObject({ status: 'overdue', resolved: 0 });

    const recorded = await call('ledger:resolveFalsifier', {
      debateId,
      thread: target.thread,
      agent: target.agent,
      outcome: 'survived',
      resolvedOn: '2028-01-05',
      note: 'The co-op reported 240 members.\n## not a new entry',
    });
    expect(recorded).toMatchObject({ path: 'ledger.md', conflict: false, falsifier: { status: 'resolved' } });
    const file = readFileSync(join(root, 'ledger.md'), 'utf8');
    expect(file).toContain(`## ${target.key}\n- outcome: survived\n- resolved: 2028-01-05\n`);

    const after = await call('ledger:list', {});
    expect(after.falsifiers.find((f) => f.key === target.key)?.resolution).toEqual({
      outcome: 'survived',
      resolvedOn: '2028-01-05',
      note: 'The co-op reported 240 members.\n## not a new entry',
      recordedAt: TODAY.toISOString(),
    });

    // The file is the researcher's: an edit by hand is what the next look shows.
    writeFileSync(join(root, 'ledger.md'), file.replace('- outcome: survived', '- outcome: falsified'));
    const edited = await call('ledger:list', {});
    expect(edited.falsifiers.find((f) => f.key === target.key)?.resolution?.outcome).toBe('falsified');
    writeFileSync(join(root, 'ledger.md'), file.replace('- outcome: survived', '- outcome: perhaps'));
    const broken = await call('ledger:list', {});
    expect(broken.problems).toEqual([
      { line: expect.any(Number), reason: expect.stringContaining('"perhaps" is not one of') },
    ]);
    expect(broken.falsifiers.find((f) => f.key === target.key)?.status).toBe('overdue');
  });

  it('refuses a falsifier that does not exist and a date that is not one', async () => {
    expect(
      await refused(
        call('ledger:resolveFalsifier', {
          debateId,
          thread: 't9',
          agent: 'regulator',
          outcome: 'void',
          resolvedOn: '2028-01-01',
        }),
      ),
    ).toMatchObject({ code: 'user_error', message: `debate ${debateId} has no falsifier by regulator in thread t9` });
    expect(
      await refused(
        call('ledger:resolveFalsifier', {
          debateId,
          thread: 't1',
          agent: 'regulator',
          outcome: 'void',
          resolvedOn: '2028-02-30',
        }),
      ),
    ).toMatchObject({ code: 'bad_input', field: 'resolvedOn' });
  });
});

describe('transcripts', () => {
  it('lists the debate with its message count and reads it back in log order', async () => {
    const { transcripts } = await call('transcripts:list', {});
    const one = await call('transcripts:get', { kind: 'debate', id: debateId });
    expect(transcripts).toEqual([
      expect.objectContaining({ kind: 'debate', id: debateId, ideaSlug: IDEA, messages: one.transcript.length }),
    ]);
    expect(one.transcript.map((m) => m.index)).toEqual(one.transcript.map((_, i) => i));
    expect(one.agents.map((a) => a.id)).toEqual(AGENTS);
    expect(one.threads[0]).toMatchObject({ id: 't1' });
    const { events } = await call('debates:events', { id: debateId });
    const posted = events.filter(
      (e) => e.type === 'message_posted' || e.type === 'message_blocked' || e.type.startsWith('moderator_'),
    );
    expect(one.transcript.map((m) => m.id)).toEqual(posted.map((e) => (e as { id: string }).id));
    expect(one.transcript.some((m) => m.kind === 'blocked')).toBe(true);
    expect(one.transcript.some((m) => m.kind === 'moderator')).toBe(true);
  });

  it('finds messages by words, agent, move, idea and day, each hit pointing at its message', async () => {
    const { transcript } = await call('transcripts:get', { kind: 'debate', id: debateId });
    const sample = transcript.find(
      (m) => m.kind === 'message' && m.move === 'PROVIDE_EVIDENCE' && m.agent === 'investor',
    );
    expect(sample).toBeDefined();
    const word = (sample?.content.split(/\s+/).find((w) => /^[a-z]{6,}$/i.test(w)) ?? '').toUpperCase();
    const found = await call('transcripts:search', { text: word, agent: 'Investor', move: 'PROVIDE_EVIDENCE' });
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.total).toBe(found.hits.length);
    for (const hit of found.hits) {
      const message = transcript[hit.index];
      expect(message).toMatchObject({ id: hit.messageId, agent: 'investor', move: 'PROVIDE_EVIDENCE' });
      expect(message?.content.toLowerCase()).toContain(word.toLowerCase());
      expect(hit.snippet.toLowerCase()).toContain(word.toLowerCase());
      expect(hit.agentName).toBe('Investor');
    }
    const moderator = await call('transcripts:search', { move: 'MODERATOR', limit: 1 });
    expect(moderator).toMatchObject({ truncated: true, hits: [{ agent: null, move: 'MODERATOR' }] });
    expect((await call('transcripts:search', { text: word, ideaSlug: 'another-idea' })).total).toBe(0);
    const day = sample?.at.slice(0, 10) ?? '';
    expect((await call('transcripts:search', { text: word, from: day, to: day })).total).toBeGreaterThan(0);
    expect((await call('transcripts:search', { text: word, to: '2020-01-01' })).total).toBe(0);
    expect(await refused(call('transcripts:search', { move: 'SHOUT' } as never))).toMatchObject({
      code: 'bad_input',
      field: 'move',
    });
  });
});

describe('coverage', () => {
  it('answered every channel of this area', () => {
    expect(Object.keys(debateViewChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
