import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { type App, createApp } from '../../core/node/app/create-app';
import type { Channel } from '../../core/contract';
import { tempWorkspace } from '../helpers/temp-workspace';

// Issue 16, item 2, for the files the app writes itself under the workspace: debate logs, their
// transcripts and crux layouts, evaluation records. A link planted where one is expected points
// outside the workspace; what it points at must never reach a handler's answer, and the link is
// reported by its path.

const IDEA = 'community-solar-coop';
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
const CANARY = 'quetzalcanary';

let root: string;
let cleanup: () => void;
let outside: string;
const apps: App[] = [];
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-generated-links-'));
  outside = mkdtempSync(join(tmpdir(), 'crucible-outside-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  cleanup();
  rmSync(outside, { recursive: true, force: true });
});

async function boot(): Promise<App> {
  const app = await createApp({ workspaceRoot: root, watch: false });
  apps.push(app);
  return app;
}

async function closeAll(): Promise<void> {
  for (const app of apps.splice(0)) await app.close();
}

/** A handler's answer as text, or its refusal's message. */
async function answer(app: App, channel: Channel, input: unknown): Promise<string> {
  try {
    return JSON.stringify(await app.handlers[channel](input));
  } catch (error) {
    return `refused: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Replaces a workspace file by a link to a file outside holding `text`. */
function plant(rel: string, name: string, text: string): void {
  writeFileSync(join(outside, name), text);
  rmSync(join(root, rel), { force: true });
  symlinkSync(join(outside, name), join(root, rel));
}

function dropIndex(): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(root, '.crucible', `index.db${suffix}`), { force: true });
}

describe('links where the app keeps its own files are refused and reported', { timeout: 120_000 }, () => {
  it('debate logs, transcripts and crux layouts: handlers never answer with what a link points at', async () => {
    let app = await boot();
    const { id } = (await app.handlers['debates:start']({
      ideaSlug: IDEA,
      agents: AGENTS,
      provider: 'simulated',
      seed: 3,
    })) as { id: string };
    await until(
      async () => !(await answer(app, 'debates:get', { id })).includes('"status":"running"'),
      'the debate to end',
    );
    await closeAll();

    const log = `ideas/${IDEA}/debates/${id}.jsonl`;
    const transcript = `ideas/${IDEA}/debates/${id}.md`;
    const layout = `ideas/${IDEA}/debates/${id}.layout.json`;
    const realLog = readFileSync(join(root, log), 'utf8');
    // A copy of the real log (so it parses as one) whose topic carries the canary.
    const leakyLog = realLog.replace('"topic":"', `"topic":"${CANARY} `);
    expect(leakyLog).not.toBe(realLog);

    const seen: Record<string, string> = {};
    const ask = async (phase: string, channel: Channel, input: unknown) => {
      seen[`${phase} ${channel}`] = await answer(app, channel, input);
    };

    // 1. The log is real; its transcript and layout are links.
    plant(transcript, 'transcript.md', `# ${CANARY} transcript\n`);
    plant(layout, 'layout.json', JSON.stringify({ version: 1, savedAt: CANARY, positions: {} }));
    app = await boot();
    for (const channel of ['debates:get', 'debates:cruxMap'] as const) await ask('transcript+layout', channel, { id });
    await closeAll();

    // 2. The log itself is a link, the index still knows the debate.
    plant(log, 'log.jsonl', leakyLog);
    app = await boot();
    await ask('log', 'debates:list', {});
    for (const channel of [
      'debates:get',
      'debates:events',
      'debates:progress',
      'debates:cruxMap',
      'debates:course',
    ] as const)
      await ask('log', channel, { id });
    await ask('log', 'transcripts:list', {});
    await closeAll();

    // 3. The index is rebuilt from the folder: the linked log is not indexed, and is reported.
    dropIndex();
    app = await boot();
    await ask('rebuilt', 'debates:list', {});
    await ask('rebuilt', 'debates:get', { id });
    await ask('rebuilt', 'transcripts:list', {});
    const errors = (
      (await app.handlers['workspace:errors']({})) as { errors: { file: string; reason: string; source: string }[] }
    ).errors;

    const leaked = Object.entries(seen)
      .filter(([, text]) => text.includes(CANARY))
      .map(([call]) => call);
    const refusedLink = (rel: string) =>
      `refused: ${rel} is a symbolic link or lies under one; Crucible does not follow links`;
    expect({
      leaked,
      transcript: seen['transcript+layout debates:get'],
      log: ['debates:get', 'debates:events', 'debates:progress', 'debates:cruxMap', 'debates:course'].map(
        (channel) => seen[`log ${channel}`],
      ),
      rebuiltList: JSON.parse(seen['rebuilt debates:list'] ?? '{}'),
      errors: errors.filter((e) => e.source === 'debate'),
    }).toEqual({
      leaked: [],
      transcript: refusedLink(transcript),
      log: Array(5).fill(refusedLink(log)),
      rebuiltList: { debates: [] },
      errors: [
        {
          file: log,
          reason: 'is a symbolic link; Crucible does not follow links (put the file or folder itself here)',
          source: 'debate',
        },
      ],
    });
  });
  it('evaluation records: a linked record is not read, listed or served', async () => {
    let app = await boot();
    const { id } = (await app.handlers['evaluations:start']({ slug: IDEA, provider: 'simulated', seed: 5 })) as {
      id: string;
    };
    await until(async () => (await answer(app, 'evaluations:get', { id })).includes('"status":"completed"'), 'the lock');
    await closeAll();
    const rel = `ideas/${IDEA}/evaluations/${id}.json`;
    const real = readFileSync(join(root, rel), 'utf8');
    const leaky = real.replace(/"ideaTitle": ?"/, `"ideaTitle": "${CANARY} `);
    expect(leaky).not.toBe(real);
    plant(rel, 'record.json', leaky);

    app = await boot();
    const seen: Record<string, string> = {};
    for (const [channel, input] of [
      ['evaluations:list', {}],
      ['evaluations:get', { id }],
      ['evaluations:leaderboard', {}],
      ['evaluations:personaRatings', {}],
      ['transcripts:list', {}],
    ] as const)
      seen[channel] = await answer(app, channel, input);
    const errors = ((await app.handlers['workspace:sync']({})) as { errors: { file: string; reason: string }[] })
      .errors;
    expect({
      leaked: Object.entries(seen)
        .filter(([, text]) => text.includes(CANARY))
        .map(([call]) => call),
      reported: errors.filter((e) => e.file === rel),
    }).toEqual({
      leaked: [],
      reported: [
        {
          file: rel,
          reason: 'is a symbolic link; Crucible does not follow links (put the file or folder itself here)',
        },
      ],
    });
  });
});
