import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { finishedRuns, IDEA, refused } from '../../../tests/helpers/app-harness';
import { type Channel, transcriptsChannels } from '../../contract';

// The transcripts:* channels on a workspace where a simulated debate has finished and a quick
// simulated evaluation of the same idea has locked: both kinds of transcript, side by side.

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const answered = new Set<Channel>();
const f = finishedRuns('crucible-transcripts-', answered, { evaluation: true });
const call = f.call;
let debateId = '';
let evaluationId = '';
let root = '';
beforeAll(() => {
  ({ debateId, evaluationId, root } = f);
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
    expect(detail.status).toBe('completed');
    const one = await call('transcripts:get', { kind: 'evaluation', id: evaluationId });
    // The evaluation started after the debate: it comes first.
    expect(transcripts.map((t) => [t.kind, t.id])).toEqual([
      ['evaluation', evaluationId],
      ['debate', debateId],
    ]);
    expect(transcripts[0]).toMatchObject({
      ideaSlug: IDEA,
      status: 'completed',
      live: false,
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
    await f.restart(() => rmSync(cache, { force: true }));
    // No cache: the record's script is replayed, and what it gives is kept.
    expect((await call('transcripts:get', { kind: 'evaluation', id: evaluationId })).entries).toEqual(before.entries);
    const kept = JSON.parse(readFileSync(cache, 'utf8'));
    expect(kept.entries).toEqual(before.entries);
    // The next app reads the kept entries rather than replaying (a marked title shows it).
    kept.entries[0].title = 'read from the cache';
    await f.restart(() => writeFileSync(cache, JSON.stringify(kept)));
    const cached = await call('transcripts:get', { kind: 'evaluation', id: evaluationId });
    expect(cached.entries[0]?.title).toBe('read from the cache');
    expect(cached.entries.slice(1)).toEqual(before.entries.slice(1));
    // A cache that does not fit the script it claims to come from is not trusted.
    await f.restart(() => writeFileSync(cache, JSON.stringify({ ...kept, key: 'another script' })));
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
  it('answered every channel of core/contract/transcripts-channels.ts in this file', () => {
    expect(Object.keys(transcriptsChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
