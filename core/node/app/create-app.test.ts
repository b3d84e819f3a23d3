import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appPerTest,
  debateEvents,
  IDEA,
  lastRunStatus,
  OTHER,
  record,
  refused,
} from '../../../tests/helpers/app-harness';
import { eventually, readme } from '../../../tests/helpers/temp-workspace';
import { CHANNEL_NAMES, type Channel, type PushPayload } from '../../contract';
import type { CruxEvent } from '../../crux/events';
import { parseDebateLog } from '../../engine/log-reader';
import { createApp } from './create-app';
import { OutputContractError, wrapHandler } from './handler';

// createApp as composition: one handler table for every channel (each area's handlers are tested
// in the file beside them, <area>-handlers.test.ts), closing in order so running debates pause
// and the next app resumes them, and the watcher pushing what other programs write.

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const answered = new Set<Channel>();
const t = appPerTest('crucible-app-', answered);
const { boot, call } = t;

describe('composition', () => {
  it('serves exactly the channels of the contract, one handler each', async () => {
    const app = await boot();
    expect(Object.keys(app.handlers).sort()).toEqual([...CHANNEL_NAMES].sort());
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

describe('across app sessions', () => {
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
    const log = parseDebateLog(readFileSync(join(t.root, 'ideas', IDEA, 'debates', `${id}.jsonl`), 'utf8'));
    expect(log.records.at(-1)).toMatchObject({ type: 'status', status: 'paused' });

    delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    const second = await boot();
    const again = record(second);
    expect((await call(second, 'debates:list', {})).debates[0]).toMatchObject({ id, status: 'paused', live: false });
    await call(second, 'debates:resume', { id });
    const end = await eventually(
      () => {
        const status = lastRunStatus(again, id);
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
    await eventually(() => lastRunStatus(again, id)?.status === 'cancelled', 'the cancel to be logged');
    expect((await call(second, 'debates:get', { id })).status).toBe('cancelled');
  });
});

describe('the watcher', () => {
  it('pushes sync:changed when another program writes into the folder', async () => {
    // The folder watcher is on unless an app is booted without it.
    const app = await boot({ watch: {} });
    const changes: PushPayload<'sync:changed'>[] = [];
    app.events.on('sync:changed', (report) => changes.push(report));
    mkdirSync(join(t.root, 'ideas', 'from-an-editor'));
    writeFileSync(join(t.root, 'ideas', 'from-an-editor', 'README.md'), readme('From an editor'));
    const report = await eventually(
      () => changes.find((c) => c.slugs.added.includes('from-an-editor')),
      'the pass',
      10_000,
    );
    expect(report.ideas).toBe(3);
    expect((await call(app, 'ideas:list', {})).ideas.map((i) => i.slug)).toContain('from-an-editor');
  });

  it('refuses a folder that is not a workspace, leaving nothing open', async () => {
    await expect(createApp({ workspaceRoot: join(t.root, 'missing') })).rejects.toThrow(/no workspace at/);
  });
});
