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
let evaluationId: string;
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
  // An evaluation of the same idea, whose entries the transcripts list, read and search too.
  evaluationId = (await call('evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated', seed: 5 })).id;
  const locked = Date.now() + 30_000;
  while ((await app.handlers['evaluations:get']({ id: evaluationId })).status === 'running') {
    if (Date.now() > locked) throw new Error('the simulated evaluation did not lock');
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

    await app.close();
    rmSync(join(root, '.crucible'), { recursive: true, force: true });
    app = await boot();
    const map = await call('debates:cruxMap', { id: debateId });
    expect(map.layout?.positions).toEqual({ 'crux:t1': { x: 10, y: -20 }, 'agent:regulator': { x: 300, y: 40.5 } });
    expect(map.layout?.savedAt).toBe(TODAY.toISOString());
  });

  it('refuses positions that are not numbers, naming the field', async () => {
    const error = await refused(
      call('debates:saveCruxLayout', { id: debateId, positions: { 'crux:t1': { x: 'left', y: 0 } } } as never),
    );
    expect(error.code).toBe('bad_input');
    expect(error.field).toBe('positions.crux:t1.x');
  });
});

describe('the course of a debate', () => {
  it('follows each crux’s DCG and each agent’s position message by message, ending on the crux’s own', async () => {
    const course = await call('debates:course', { id: debateId });
    const map = await call('debates:cruxMap', { id: debateId });
    const { transcript } = await call('transcripts:get', { kind: 'debate', id: debateId });
    expect(course).toMatchObject({ debateId, ideaSlug: IDEA, status: 'completed', messages: transcript.length });
    expect(course.agents.map((a) => a.id)).toEqual(AGENTS);
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
    expect(converged?.dcgPoints.filter((p) => !p.final).every((p) => p.index < (converged?.crystallizedAt ?? 0))).toBe(
      true,
    );
  });

  it('refuses an unknown debate in words', async () => {
    expect(await refused(call('debates:course', { id: 'nope' }))).toMatchObject({
      code: 'user_error',
      message: expect.stringContaining('no debate "nope"'),
    });
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

  it('scores each agent’s calibration from the falsifiers the researcher resolved', async () => {
    rmSync(join(root, 'ledger.md'), { force: true });
    expect(await call('ledger:calibration', {})).toEqual({ agents: [] });
    const { falsifiers } = await call('ledger:list', {});
    const sided = falsifiers.filter((f) => (f.side === 'YES' || f.side === 'NO') && f.confidence !== null);
    const [first, second] = sided;
    if (!first || !second) throw new Error('the debate left fewer than two sided falsifiers with a confidence');
    const resolve = (f: (typeof sided)[number], outcome: 'survived' | 'falsified' | 'void') =>
      call('ledger:resolveFalsifier', {
        debateId,
        thread: f.thread,
        agent: f.agent,
        outcome,
        resolvedOn: '2028-01-05',
      });
    await resolve(first, 'survived');
    await resolve(second, 'falsified');
    const unscored = falsifiers.find((f) => f.key !== first.key && f.key !== second.key);
    if (unscored) await resolve(unscored, 'void');

    const { agents } = await call('ledger:calibration', {});
    // Recomputed by hand from the listed falsifiers: one forecast per scored resolution.
    const expected = new Map<string, { scored: number; brier: number; unscored: number }>();
    for (const [f, held] of [
      [first, 1],
      [second, 0],
    ] as const) {
      const row = expected.get(f.agent) ?? { scored: 0, brier: 0, unscored: 0 };
      row.brier = (row.brier * row.scored + ((f.confidence as number) - held) ** 2) / (row.scored + 1);
      row.scored++;
      expected.set(f.agent, row);
    }
    if (unscored) {
      const row = expected.get(unscored.agent) ?? { scored: 0, brier: Number.NaN, unscored: 0 };
      row.unscored++;
      expected.set(unscored.agent, row);
    }
    expect(agents.map((a) => a.agent).sort()).toEqual([...expected.keys()].sort());
    for (const a of agents) {
      const want = expected.get(a.agent);
      expect({ scored: a.scored, unscored: a.unscored }).toEqual({ scored: want?.scored, unscored: want?.unscored });
      if (a.scored > 0) expect(a.brier).toBeCloseTo(want?.brier ?? Number.NaN, 12);
      else expect(a.brier).toBeNull();
      expect(a.agentName).toBe(falsifiers.find((f) => f.agent === a.agent)?.agentName);
    }
    // Best calibrated first.
    const briers = agents.map((a) => a.brier ?? Number.POSITIVE_INFINITY);
    expect(briers).toEqual([...briers].sort((x, y) => x - y));
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
    expect(transcripts.filter((t) => t.kind === 'debate')).toEqual([
      expect.objectContaining({ kind: 'debate', id: debateId, ideaSlug: IDEA, messages: one.transcript.length }),
    ]);
    expect(one.entries).toEqual([]);
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

describe('evaluation transcripts', () => {
  it('lists the evaluation beside the debate and reads its entries as the evaluation channels do', async () => {
    const { transcripts } = await call('transcripts:list', {});
    const detail = await call('evaluations:get', { id: evaluationId });
    expect(detail.status).toBe('locked');
    const one = await call('transcripts:get', { kind: 'evaluation', id: evaluationId });
    // The evaluation started after the debate: it comes first.
    expect(transcripts.map((t) => [t.kind, t.id])).toEqual([
      ['evaluation', evaluationId],
      ['debate', debateId],
    ]);
    expect(transcripts[0]).toMatchObject({
      ideaSlug: IDEA,
      status: 'locked',
      provider: 'simulated',
      createdAt: detail.startedAt,
      messages: detail.entries.length,
      title: expect.stringContaining(detail.ideaTitle),
    });
    expect(one.entries).toEqual(detail.entries);
    expect(one.entries.map((e) => e.seq)).toEqual(one.entries.map((_, i) => i));
    expect(one.transcript).toEqual([]);
    const types = new Set(one.entries.map((e) => e.type));
    for (const t of ['initial_scores', 'challenge_accepted', 'defense_recorded', 'ruling', 'synthesis_applied'])
      expect(types).toContain(t);
    expect(one.agents).toContainEqual({ id: 'arbiter', name: 'Arbiter' });
    expect(one.agents.find((a) => a.id.startsWith('evaluator:'))?.name).toMatch(/ evaluator$/);
    expect(one.threads.map((t) => t.id)).toEqual(['evaluators', 'transcript', 'redteam']);
  });

  it('finds an entry by a word of a challenge, and the hit’s index is the entry’s place (its deep link)', async () => {
    const { entries } = await call('transcripts:get', { kind: 'evaluation', id: evaluationId });
    const challenge = entries.find((e) => e.type === 'challenge_accepted');
    if (!challenge?.agent) throw new Error('the simulated evaluation raised no challenge');
    // The challenge's rarest long word across the whole evaluation, so the hit is this entry.
    const all = entries.map((e) => `${e.title} ${e.text}`.toLowerCase()).join(' ');
    const words = challenge.text.split(/[^A-Za-z]+/).filter((w) => w.length >= 6);
    const word = words.sort((a, b) => all.split(a.toLowerCase()).length - all.split(b.toLowerCase()).length)[0] ?? '';
    expect(word).not.toBe('');

    const found = await call('transcripts:search', { text: word.toUpperCase(), kind: 'evaluation' });
    const hit = found.hits.find((h) => h.index === challenge.seq);
    expect(hit).toMatchObject({
      kind: 'evaluation',
      id: evaluationId,
      ideaSlug: IDEA,
      thread: 'redteam',
      agent: challenge.agent,
      move: 'RED_TEAM',
      messageId: challenge.title,
    });
    // Every hit points at an entry holding the word: `#/transcript/evaluation/<id>?m=<index>` opens it.
    for (const h of found.hits) {
      const entry = entries[h.index];
      expect(entry?.seq).toBe(h.index);
      expect(`${entry?.title} ${entry?.text}`.toLowerCase()).toContain(word.toLowerCase());
    }
    expect(hit?.snippet.toLowerCase()).toContain(word.toLowerCase());

    // The other filters: the kind of entry, the red-teamer by name, the idea, the days; either kind.
    const name = hit?.agentName ?? '';
    expect(name).toMatch(/\(red team\)$/);
    expect((await call('transcripts:search', { text: word, move: 'RED_TEAM', agent: name })).hits).toContainEqual(hit);
    expect(
      (await call('transcripts:search', { text: word, move: 'RULING' })).hits.some((h) => h.index === hit?.index),
    ).toBe(false);
    expect(
      (await call('transcripts:search', { text: word, kind: 'debate' })).hits.some((h) => h.kind === 'evaluation'),
    ).toBe(false);
    expect((await call('transcripts:search', { text: word })).hits).toContainEqual(hit);
    expect((await call('transcripts:search', { text: word, ideaSlug: 'another-idea' })).total).toBe(0);
    const day = hit?.at.slice(0, 10) ?? '';
    expect((await call('transcripts:search', { text: word, from: day, to: day })).hits).toContainEqual(hit);
    expect((await call('transcripts:search', { text: word, to: '2020-01-01' })).total).toBe(0);
    // A debate move finds no evaluation entry.
    expect(
      (await call('transcripts:search', { move: 'CHALLENGE', limit: 2000 })).hits.every((h) => h.kind === 'debate'),
    ).toBe(true);
  });

  it('keeps a locked evaluation’s entries beside the index, read by the next app, and replays when they are gone', async () => {
    const before = await call('transcripts:get', { kind: 'evaluation', id: evaluationId });
    const cache = join(root, '.crucible', 'evaluation-entries', `${evaluationId}.json`);
    await app.close();
    rmSync(cache, { force: true });
    app = await boot();
    // No cache: the record's script is replayed, and what it gives is kept.
    expect((await call('transcripts:get', { kind: 'evaluation', id: evaluationId })).entries).toEqual(before.entries);
    const kept = JSON.parse(readFileSync(cache, 'utf8'));
    expect(kept.entries).toEqual(before.entries);
    // The next app reads the kept entries rather than replaying (a marked title shows it).
    kept.entries[0].title = 'read from the cache';
    writeFileSync(cache, JSON.stringify(kept));
    await app.close();
    app = await boot();
    const cached = await call('transcripts:get', { kind: 'evaluation', id: evaluationId });
    expect(cached.entries[0]?.title).toBe('read from the cache');
    expect(cached.entries.slice(1)).toEqual(before.entries.slice(1));
    // A cache that does not fit the script it claims to come from is not trusted.
    writeFileSync(cache, JSON.stringify({ ...kept, key: 'another script' }));
    await app.close();
    app = await boot();
    expect((await call('transcripts:get', { kind: 'evaluation', id: evaluationId })).entries).toEqual(before.entries);
  });

  it('refuses an evaluation id that could name a path, and an unknown one in words', async () => {
    expect(await refused(call('transcripts:get', { kind: 'evaluation', id: '../secrets' }))).toMatchObject({
      code: 'bad_input',
      field: 'id',
    });
    expect(await refused(call('transcripts:get', { kind: 'evaluation', id: 'nope' }))).toMatchObject({
      code: 'user_error',
      message: expect.stringContaining('no evaluation "nope"'),
    });
  });
});

describe('coverage', () => {
  it('answered every channel of this area', () => {
    expect(Object.keys(debateViewChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
