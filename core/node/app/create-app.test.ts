import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, readme, tempWorkspace, writeFile } from '../../../tests/helpers/temp-workspace';
import {
  CHANNEL_NAMES,
  type Channel,
  type ChannelInput,
  type ChannelOutput,
  ContractError,
  debateViewChannels,
  evaluationChannels,
  settingsChannels,
  type PushEvent,
  type PushPayload,
} from '../../contract';
import type { CruxEvent } from '../../crux/events';
import { parseDebateLog } from '../../engine/log-reader';
import { appRoot } from '../app-root';
import { type App, createApp } from './create-app';
import { OutputContractError, wrapHandler } from './handler';

const IDEA = 'community-solar-coop';
const OTHER = 'ebike-repair-workshop';
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];

let root: string;
let cleanup: () => void;
let outside: { root: string; cleanup: () => void };
const apps: App[] = [];
const bugs: Error[] = [];
/** Channels that answered successfully somewhere in this file (checked by the last test). */
const answered = new Set<Channel>();

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-app-'));
  outside = tempWorkspace('crucible-drop-');
  for (const slug of [IDEA, OTHER])
    cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
  cleanup();
  outside.cleanup();
  expect(bugs.splice(0)).toEqual([]);
});

async function boot(options: Partial<Parameters<typeof createApp>[0]> = {}): Promise<App> {
  const app = await createApp({ workspaceRoot: root, watch: false, onContractBug: (e) => bugs.push(e), ...options });
  apps.push(app);
  return app;
}

async function call<C extends Channel>(app: App, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const output = await app.handlers[channel](input);
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

/** Every pushed event, in order. */
function record(app: App): PushEvent[] {
  const seen: PushEvent[] = [];
  app.events.onAny((event) => seen.push(event));
  return seen;
}

const debateEvents = (seen: PushEvent[], id: string) =>
  seen.flatMap((e) => (e.event === 'debate:event' && e.payload.debateId === id ? [e.payload] : []));
const statuses = (seen: PushEvent[], id: string) =>
  seen.flatMap((e) => (e.event === 'debate:status' && e.payload.debateId === id ? [e.payload.status] : []));
const lastStatus = (seen: PushEvent[], id: string) =>
  seen.findLast(
    (e): e is Extract<PushEvent, { event: 'debate:status' }> =>
      e.event === 'debate:status' && e.payload.debateId === id,
  )?.payload;

describe('ideas', () => {
  it('lists, filters, shows and searches ideas', async () => {
    const app = await boot();
    const { ideas } = await call(app, 'ideas:list', {});
    expect(ideas.map((i) => i.slug)).toEqual([IDEA, OTHER]);
    expect(ideas[0]).not.toHaveProperty('contentHash');
    expect((await call(app, 'ideas:list', { stage: 'clarify' })).ideas.map((i) => i.slug)).toEqual([IDEA]);
    expect((await call(app, 'ideas:list', { tag: 'energy' })).ideas).toHaveLength(1);

    const idea = await call(app, 'ideas:get', { slug: IDEA });
    expect(idea).toMatchObject({ slug: IDEA, type: 'business', stage: 'CLARIFY', stale: false });
    expect(idea.readme).toContain('# A community-owned solar co-op');
    expect(idea.files.map((f) => f.kind)).toEqual(['readme']);
    // Both ends of a relationship show it: the one this idea declares and the one declared towards it.
    expect(idea.relationships).toEqual([
      expect.objectContaining({ source: IDEA, target: OTHER, type: 'conflicts', strength: 0.5 }),
      expect.objectContaining({ source: OTHER, target: IDEA, type: 'conflicts' }),
    ]);

    const { hits, total } = await call(app, 'ideas:search', { query: 'solar roofs' });
    expect(hits[0]).toMatchObject({ slug: IDEA });
    expect(hits[0]?.snippet).toMatch(/\[/);
    expect(total).toBe(hits.length);
    // A limit cuts the hits, never the total.
    const one = await call(app, 'ideas:search', { query: 'the', limit: 1 });
    expect(one.hits).toHaveLength(1);
    expect(one.total).toBeGreaterThan(1);
  });

  it('answers a mistake in what was asked as a user_error with its one line', async () => {
    const app = await boot();
    const stage = await refused(call(app, 'ideas:list', { stage: 'nowhere' }));
    expect(stage).toMatchObject({ code: 'user_error' });
    expect(stage.message).toMatch(/^unknown stage "nowhere" \(one of SPARK, /);
    expect(await refused(call(app, 'ideas:get', { slug: 'no-such-idea' }))).toMatchObject({
      code: 'user_error',
      message: 'no idea "no-such-idea" (see: npm run cli -- list)',
    });
    expect(await refused(call(app, 'ideas:setStage', { slug: IDEA, stage: 'LATER' }))).toMatchObject({
      code: 'user_error',
    });
  });

  it('refuses bad input naming the field, before anything runs', async () => {
    const app = await boot();
    expect(await refused(app.invoke('ideas:capture', { title: '   ' }))).toMatchObject({
      code: 'bad_input',
      field: 'title',
      message: 'title: an idea needs a title',
    });
    expect(await refused(app.invoke('ideas:search', { query: '' }))).toMatchObject({
      code: 'bad_input',
      field: 'query',
    });
    expect(await refused(app.invoke('ideas:list', { stag: 'SPARK' }))).toMatchObject({
      code: 'bad_input',
      field: 'stag',
    });
    expect(await refused(app.invoke('ideas:get', { slug: 42 }))).toMatchObject({ code: 'bad_input', field: 'slug' });
    expect(
      await refused(
        app.invoke('debates:start', {
          topic: 'x',
          agents: ['a', 'b'],
          provider: 'simulated',
          limits: { budgetUsd: -1 },
        }),
      ),
    ).toMatchObject({
      code: 'bad_input',
      field: 'limits.budgetUsd',
    });
    const none = await refused(app.invoke('ideas:list', undefined));
    expect(none).toMatchObject({ code: 'bad_input', message: 'the input expected object, received undefined' });
    expect(none.field).toBeUndefined();
    expect((await call(app, 'ideas:list', {})).ideas).toHaveLength(2);
  });

  it('captures an idea from a title, moves its stage, and pushes each change of the index', async () => {
    const app = await boot();
    const seen = record(app);
    const captured = await call(app, 'ideas:capture', { title: 'Tool library', text: 'Lend drills.', tags: ['local'] });
    expect(captured).toMatchObject({ slug: 'tool-library', path: 'ideas/tool-library/README.md', conflict: false });
    expect(captured.idea).toMatchObject({ title: 'Tool library', stage: 'SPARK', tags: ['local'] });
    const moved = await call(app, 'ideas:setStage', { slug: 'tool-library', stage: 'research' });
    expect(moved.idea?.stage).toBe('RESEARCH');
    expect(readFileSync(join(root, 'ideas/tool-library/README.md'), 'utf8')).toMatch(/^stage: RESEARCH$/m);
    const syncs = seen.flatMap((e) => (e.event === 'sync:changed' ? [e.payload] : []));
    expect(syncs.map((s) => s.slugs)).toEqual([
      { added: ['tool-library'], changed: [], removed: [] },
      { added: [], changed: ['tool-library'], removed: [] },
    ]);
  });
});

describe('files', () => {
  it('captures a dropped file by its path and by its uploaded bytes, and attaches both ways', async () => {
    const app = await boot();
    const note = join(outside.root, 'balcony-gardens.md');
    writeFileSync(note, '# Balcony gardens\n\nSeed swaps between neighbours.\n');
    const byPath = await call(app, 'ideas:captureFile', { path: note, type: 'research' });
    expect(byPath).toMatchObject({ slug: 'balcony-gardens', idea: { title: 'Balcony gardens', type: 'research' } });

    const text = '---\ntitle: Night market\nstage: RESEARCH\n---\nStalls on Fridays.\n';
    const uploaded = await call(app, 'ideas:captureUpload', {
      name: 'night.md',
      contentBase64: Buffer.from(text).toString('base64'),
    });
    expect(uploaded).toMatchObject({ slug: 'night-market', idea: { title: 'Night market', stage: 'RESEARCH' } });

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const picture = await call(app, 'ideas:captureUpload', {
      name: 'street_mural.png',
      contentBase64: png.toString('base64'),
    });
    expect(picture.idea?.title).toBe('street mural');
    expect(readFileSync(join(root, 'ideas', picture.slug, 'assets', 'street_mural.png'))).toEqual(png);

    const photo = join(outside.root, 'roof.jpg');
    writeFileSync(photo, Buffer.from([1, 2, 3]));
    expect(await call(app, 'ideas:attach', { slug: IDEA, path: photo })).toEqual({
      path: `ideas/${IDEA}/assets/roof.jpg`,
    });
    expect(await call(app, 'ideas:attachUpload', { slug: IDEA, name: 'roof.jpg', contentBase64: 'BAUG' })).toEqual({
      path: `ideas/${IDEA}/assets/roof-2.jpg`,
    });
    expect(readFileSync(join(root, `ideas/${IDEA}/assets/roof-2.jpg`))).toEqual(Buffer.from([4, 5, 6]));

    expect(await refused(app.invoke('ideas:captureFile', { path: 'notes/x.md' }))).toMatchObject({
      code: 'bad_input',
      field: 'path',
    });
    expect(
      await refused(app.invoke('ideas:attachUpload', { slug: IDEA, name: '../../escape.sh', contentBase64: '' })),
    ).toMatchObject({
      code: 'bad_input',
      field: 'name',
    });
    expect(await refused(call(app, 'ideas:attach', { slug: 'nope', path: photo }))).toMatchObject({
      code: 'user_error',
    });
  });
});

describe('workspace, taxonomy and personas', () => {
  it('reconciles on demand and lists every file it could not take in', async () => {
    const app = await boot();
    writeFile(root, 'ideas/written-elsewhere/README.md', readme('Written elsewhere'));
    writeFile(root, 'ideas/broken/README.md', '---\ntitle: [unclosed\n---\nbody\n');
    writeFile(root, 'personas/half-done.md', '---\nid: half-done\n---\nPrompt.\n');
    const report = await call(app, 'workspace:sync', {});
    expect(report).toMatchObject({
      ideas: 3,
      added: 1,
      slugs: { added: ['written-elsewhere'], changed: [], removed: [] },
    });
    const { errors } = await call(app, 'workspace:errors', {});
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'ideas/broken/README.md', source: 'idea' }),
        expect.objectContaining({ source: 'persona', reason: expect.stringMatching(/name: is missing/) }),
      ]),
    );
  });

  it('gives the taxonomy for the UI', async () => {
    const app = await boot();
    const taxonomy = await call(app, 'taxonomy:get', {});
    expect(taxonomy.stages[0]).toMatchObject({ id: 'SPARK' });
    expect(taxonomy.categories.flatMap((c) => c.criteria)).toHaveLength(30);
    expect(taxonomy.categories.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(1);
    expect(taxonomy.types.map((t) => t.id)).toContain('research');
  });

  it('lists personas with where each came from, a workspace file replacing the built-in one', async () => {
    const own = readFileSync(join(appRoot(), 'resources/personas/investor.md'), 'utf8').replace(
      /^name: .*$/m,
      'name: My investor',
    );
    writeFile(root, 'personas/investor.md', own);
    const app = await boot();
    const { personas, errors } = await call(app, 'personas:list', {});
    expect(errors).toEqual([]);
    expect(personas.find((p) => p.id === 'investor')).toMatchObject({
      name: 'My investor',
      source: 'workspace',
      role: 'debater',
    });
    expect(personas.find((p) => p.id === 'regulator')).toMatchObject({ source: 'built-in', category: null });
    const debaters = await call(app, 'personas:list', { role: 'debater' });
    expect(debaters.personas.length).toBeGreaterThanOrEqual(5);
    expect(debaters.personas.every((p) => p.role === 'debater' && p.defaultHorizon !== null)).toBe(true);
  });
});

describe('the handler table', () => {
  it('refuses an unknown channel, prototype names included', async () => {
    const app = await boot();
    for (const name of ['ideas:delete', 'constructor', '__proto__', '']) {
      expect(await refused(app.invoke(name, {}))).toMatchObject({ code: 'unknown_channel' });
    }
  });

  it('treats an output the contract does not allow as a bug', async () => {
    const row = {
      slug: 's',
      id: 'i',
      title: 't',
      type: null,
      stage: 'SPARK',
      tags: [],
      summary: '',
      created: null,
      updated: null,
    };
    const scores = { stale: false, overallScore: null, confidence: null, evaluatedAt: null };
    const leaky = wrapHandler('ideas:list', () => ({ ideas: [{ ...row, ...scores, contentHash: 'abc' }] }) as never);
    await expect(leaky({})).rejects.toThrow(OutputContractError);
    await expect(leaky({})).rejects.toThrow(/ideas\[0\]: Unrecognized key: "contentHash"/);
    const missing = wrapHandler('ideas:list', () => ({ ideas: [row] }) as never);
    await expect(missing({})).rejects.toThrow(/ideas\[0\]\.stale/);
    const fine = wrapHandler('ideas:list', () => ({ ideas: [{ ...row, ...scores }] }));
    expect((await fine({})).ideas).toHaveLength(1);
  });

  it('serves the same table as an in-process client', async () => {
    const app = await boot();
    const listed = await app.client.invoke('ideas:list', { stage: 'RESEARCH' });
    expect(listed.ideas.map((i) => i.slug)).toEqual([OTHER]);
  });

  it('refuses calls once closed', async () => {
    const app = await boot();
    await app.close();
    expect(await refused(app.invoke('ideas:list', {}))).toMatchObject({
      code: 'user_error',
      message: 'the workspace is closed',
    });
  });
});

describe('debates', () => {
  it('estimates a debate without starting one', async () => {
    const app = await boot();
    const estimate = await call(app, 'debates:estimate', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated' });
    expect(estimate.calls).toBeGreaterThan(10);
    expect(estimate.usd).toBe(0);
    expect((await call(app, 'debates:list', {})).debates).toEqual([]);
    expect(existsSync(join(root, 'ideas', IDEA, 'debates'))).toBe(false);
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
        const status = lastStatus(seen, started.id);
        return status && status.status !== 'running' ? status : null;
      },
      'the debate to end',
      20_000,
    );
    expect(end).toEqual({ debateId: started.id, status: 'completed', reason: null });
    expect(statuses(seen, started.id)).toEqual(['running', 'completed']);

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
    const app = await boot({ statusPollMs: 10 });
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
    await eventually(() => lastStatus(seen, id)?.status === 'paused', 'the pause to be logged');
    const pausedAt = debateEvents(seen, id).length;
    expect((await call(app, 'debates:list', {})).debates[0]).toMatchObject({ id, status: 'paused', live: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(debateEvents(seen, id).length).toBe(pausedAt);

    expect(await call(app, 'debates:resume', { id })).toEqual({ id });
    await eventually(() => lastStatus(seen, id)?.status === 'running', 'the debate to run again');
    await eventually(() => debateEvents(seen, id).length > pausedAt, 'new events after resuming');
    expect(await call(app, 'debates:cancel', { id })).toEqual({ id });
    const end = await eventually(
      () => (lastStatus(seen, id)?.status === 'cancelled' ? lastStatus(seen, id) : null),
      'the cancel',
    );
    expect(end?.reason).toBe('cancelled by the researcher');
    expect(statuses(seen, id)).toEqual(['running', 'paused', 'running', 'cancelled']);
    expect(await refused(call(app, 'debates:resume', { id }))).toMatchObject({
      code: 'user_error',
      message: `cannot resume debate ${id}: it has already ended (cancelled)`,
    });
  });

  it('pauses running debates at shutdown so the next start resumes them to the end', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '15';
    const first = await boot();
    const seen = record(first);
    const { id } = await call(first, 'debates:start', {
      ideaSlug: IDEA,
      agents: AGENTS,
      provider: 'simulated',
      seed: 3,
    });
    await eventually(() => debateEvents(seen, id).length > 3, 'a few events');
    await first.close();
    const log = parseDebateLog(readFileSync(join(root, 'ideas', IDEA, 'debates', `${id}.jsonl`), 'utf8'));
    expect(log.records.at(-1)).toMatchObject({ type: 'status', status: 'paused' });

    delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    const second = await boot();
    const again = record(second);
    expect((await call(second, 'debates:list', {})).debates[0]).toMatchObject({ id, status: 'paused', live: false });
    await call(second, 'debates:resume', { id });
    const end = await eventually(
      () => {
        const status = lastStatus(again, id);
        return status && status.status !== 'running' ? status : null;
      },
      'the resumed debate to end',
      20_000,
    );
    expect(end.status).toBe('completed');
    // The events pushed after the resume continue the sequence where the log stood.
    const firstBatch = debateEvents(again, id)[0];
    const before = log.records.filter((r) => r.type === 'event').length;
    expect(firstBatch?.from).toBe(before);
    const all = (await call(second, 'debates:events', { id })).events as CruxEvent[];
    expect(all.filter((e) => e.type === 'thread_opened')).toHaveLength(1);
  });

  it('cancels a debate interrupted in an earlier session through its own log', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '15';
    const first = await boot();
    const seen = record(first);
    const { id } = await call(first, 'debates:start', {
      topic: 'Four-day week for the studio?',
      agents: AGENTS,
      provider: 'simulated',
    });
    await eventually(() => debateEvents(seen, id).length > 3, 'a few events');
    await first.close();
    const second = await boot();
    const again = record(second);
    await call(second, 'debates:cancel', { id });
    await eventually(() => lastStatus(again, id)?.status === 'cancelled', 'the cancel to be logged');
    expect((await call(second, 'debates:get', { id })).status).toBe('cancelled');
  });
});

describe('the watcher', () => {
  it('pushes sync:changed when another program writes into the folder', async () => {
    const app = await createApp({ workspaceRoot: root, onContractBug: (e) => bugs.push(e) });
    apps.push(app);
    const changes: PushPayload<'sync:changed'>[] = [];
    app.events.on('sync:changed', (report) => changes.push(report));
    mkdirSync(join(root, 'ideas', 'from-an-editor'));
    writeFileSync(join(root, 'ideas', 'from-an-editor', 'README.md'), readme('From an editor'));
    const report = await eventually(
      () => changes.find((c) => c.slugs.added.includes('from-an-editor')),
      'the pass',
      10_000,
    );
    expect(report.ideas).toBe(3);
    expect((await call(app, 'ideas:list', {})).ideas.map((i) => i.slug)).toContain('from-an-editor');
  });

  it('refuses a folder that is not a workspace, leaving nothing open', async () => {
    await expect(createApp({ workspaceRoot: join(root, 'missing') })).rejects.toThrow(/no workspace at/);
  });
});

describe('coverage', () => {
  it('answered every channel of the contract in this file', () => {
    // The debate views', the evaluations' and the settings' channels have their own files and
    // coverage checks (debate-view-handlers.test.ts, evaluation-handlers.test.ts, settings-handlers.test.ts).
    const testedElsewhere = new Set<string>([
      ...Object.keys(debateViewChannels),
      ...Object.keys(evaluationChannels),
      ...Object.keys(settingsChannels),
    ]);
    expect(CHANNEL_NAMES.filter((c) => !answered.has(c) && !testedElsewhere.has(c))).toEqual([]);
  });
});
