import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { type Channel, type ChannelInput, type ChannelOutput, ContractError, settingsChannels } from '../../contract';
import { appRoot } from '../app-root';
import { EvaluationService } from '../evaluations/evaluation-service';
import { findChromium } from '../export/chromium';
import { loadModelsConfig } from '../llm/prices-loader';
import { Workspace } from '../workspace/workspace';
import { type App, createApp } from './create-app';
import type { KeyStore } from './key-store';

const IDEA = 'community-solar-coop';
const OTHER = 'ebike-repair-workshop';
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator'];

let root: string;
let cleanup: () => void;
const apps: App[] = [];
const bugs: Error[] = [];
const savedEnv = { ...process.env };

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-settings-'));
  for (const slug of [IDEA, OTHER])
    cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
  // The environment key store reads these: a developer's own key must not leak into the assertions.
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.CRUCIBLE_OPENAI_API_KEY;
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  process.env = { ...savedEnv };
  cleanup();
  expect(bugs.splice(0)).toEqual([]);
});

async function boot(options: Partial<Parameters<typeof createApp>[0]> = {}): Promise<App> {
  const app = await createApp({ workspaceRoot: root, watch: false, onContractBug: (e) => bugs.push(e), ...options });
  apps.push(app);
  return app;
}

/** Channels that answered successfully somewhere in this file (checked by the last test). */
const answered = new Set<Channel>();

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

/** A key store that keeps keys in memory, as the desktop shell's keychain store would. */
function memoryKeyStore(): KeyStore & { keys: Map<string, string> } {
  const keys = new Map<string, string>();
  return {
    keys,
    describe: async () => ({ backend: 'test keychain', secure: true, warning: null }),
    has: async (p) => keys.has(p),
    get: async (p) => keys.get(p) ?? null,
    set: async (p, k) => {
      keys.set(p, k);
    },
    clear: async (p) => {
      keys.delete(p);
    },
  };
}

describe('settings:get and settings:set', () => {
  it('starts from the defaults and the built-in model table, with no file written', async () => {
    const app = await boot();
    const s = await call(app, 'settings:get', {});
    expect(s).toMatchObject({
      workspace: root,
      file: 'settings.md',
      fileExists: false,
      modelsFileExists: false,
      provider: 'simulated',
      limits: { debateBudgetUsd: 2, evaluationBudgetUsd: 3, debateConcurrency: 4, evaluationConcurrency: 6 },
      keys: [
        { provider: 'anthropic', set: false, variable: 'ANTHROPIC_API_KEY' },
        { provider: 'openai', set: false, variable: 'CRUCIBLE_OPENAI_API_KEY' },
      ],
      keyStore: { backend: 'environment', secure: false },
      problems: [],
    });
    expect(s.models.find((m) => m.provider === 'anthropic')).toMatchObject({
      source: 'built-in',
      tiers: { fast: 'claude-haiku-4-5' },
    });
    expect(s.prices.find((p) => p.model === 'claude-haiku-4-5')).toMatchObject({ inputPerMTok: 1, source: 'built-in' });
    expect(existsSync(join(root, 'settings.md'))).toBe(false);
  });

  it('writes provider, budgets and concurrency into settings.md, keeping what the researcher wrote there', async () => {
    const app = await boot();
    await call(app, 'settings:set', { provider: 'anthropic', debateBudgetUsd: 0.5 });
    const file = join(root, 'settings.md');
    // The researcher adds a comment and a note of their own.
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('provider: anthropic', 'provider: anthropic  # the real thing')
        .concat('\nMy note.\n'),
    );
    const { settings, written } = await call(app, 'settings:set', { evaluationConcurrency: 3, debateBudgetUsd: null });
    expect(written).toEqual([{ path: 'settings.md', conflict: false }]);
    expect(settings).toMatchObject({
      fileExists: true,
      provider: 'anthropic',
      limits: { debateBudgetUsd: 2, evaluationBudgetUsd: 3, debateConcurrency: 4, evaluationConcurrency: 3 },
      problems: [],
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('provider: anthropic  # the real thing');
    expect(text).toContain('evaluationConcurrency: 3');
    expect(text.endsWith('My note.\n')).toBe(true);
  });

  it('refuses a bad value naming the field, and reports a hand-made mistake in the file with the default in force', async () => {
    const app = await boot();
    const bad = await refused(call(app, 'settings:set', { debateConcurrency: 0 }));
    expect(bad.code).toBe('bad_input');
    expect(bad.field).toBe('debateConcurrency');
    expect((await refused(call(app, 'settings:set', { openaiBaseUrl: 'ftp://x' }))).field).toBe('openaiBaseUrl');

    writeFileSync(
      join(root, 'settings.md'),
      '---\nkind: settings\nprovider: gpt\ndebateBudgetUsd: lots\nevaluationBudgetUsd: 1.5\n---\n',
    );
    const s = await call(app, 'settings:get', {});
    expect(s.problems).toEqual([
      'settings.md: provider: must be one of simulated, anthropic, openai',
      'settings.md: debateBudgetUsd: must be a number',
    ]);
    expect(s.provider).toBe('simulated');
    expect(s.limits.debateBudgetUsd).toBe(2);
    expect(s.limits.evaluationBudgetUsd).toBe(1.5);
  });

  it('writes tiers, the local server and prices into the workspace models.md that model calls read, and refuses an unpriced tier', async () => {
    const app = await boot();
    const builtIn = readFileSync(join(appRoot(), 'resources', 'models.md'), 'utf8');
    const { settings, written } = await call(app, 'settings:set', {
      tiers: [{ provider: 'anthropic', deep: 'claude-opus-4-5' }],
      openaiBaseUrl: 'http://127.0.0.1:8080/v1',
      prices: [
        {
          model: 'claude-haiku-4-5',
          inputPerMTok: 0.8,
          outputPerMTok: 4,
          cacheWritePerMTok: 1,
          cacheReadPerMTok: 0.08,
        },
      ],
    });
    expect(written).toEqual([{ path: 'models.md', conflict: false }]);
    expect(settings.models.find((m) => m.provider === 'anthropic')).toMatchObject({
      source: 'workspace',
      tiers: { fast: 'claude-haiku-4-5', standard: 'claude-sonnet-4-6', deep: 'claude-opus-4-5' },
    });
    expect(settings.prices.find((p) => p.model === 'claude-haiku-4-5')).toMatchObject({
      inputPerMTok: 0.8,
      source: 'workspace',
    });
    // What every model call reads: the same loader as the debate and evaluation providers.
    const config = loadModelsConfig(root);
    expect(config.providers.anthropic?.tiers.deep).toBe('claude-opus-4-5');
    expect(config.providers['openai-compatible']?.baseURL).toBe('http://127.0.0.1:8080/v1');
    expect(config.providers['openai-compatible']?.tiers.fast).toBe('qwen2.5:7b');
    expect(config.prices['claude-haiku-4-5']?.outputPerMTok).toBe(4);
    expect(readFileSync(join(appRoot(), 'resources', 'models.md'), 'utf8')).toBe(builtIn);

    const before = readFileSync(join(root, 'models.md'), 'utf8');
    const refusedTier = await refused(
      call(app, 'settings:set', { tiers: [{ provider: 'anthropic', fast: 'claude-nope' }] }),
    );
    expect(refusedTier.code).toBe('user_error');
    expect(refusedTier.message).toContain('providers.anthropic.tiers.fast: the model "claude-nope" has no price');
    expect(readFileSync(join(root, 'models.md'), 'utf8')).toBe(before);

    // Removing the workspace's price puts the built-in one back.
    const back = await call(app, 'settings:set', { removePrices: ['claude-haiku-4-5'] });
    expect(back.settings.prices.find((p) => p.model === 'claude-haiku-4-5')).toMatchObject({
      inputPerMTok: 1,
      source: 'built-in',
    });
  });

  it('starts debates with the budget and concurrency of the settings unless the request names its own', async () => {
    const app = await boot();
    await call(app, 'settings:set', { debateBudgetUsd: 0.75, debateConcurrency: 2 });
    const { id } = await call(app, 'debates:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated' });
    const own = await call(app, 'debates:start', {
      ideaSlug: IDEA,
      agents: AGENTS,
      provider: 'simulated',
      limits: { concurrency: 3 },
    });
    const first = await call(app, 'debates:get', { id });
    const second = await call(app, 'debates:get', { id: own.id });
    expect(first.header.limits).toMatchObject({ budgetUsd: 0.75, concurrency: 2 });
    expect(second.header.limits).toMatchObject({ budgetUsd: 0.75, concurrency: 3 });
  });
});

describe('API keys', () => {
  it('in browser mode and the CLI, refuses to store a key and says where keys come from', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-the-environment';
    const app = await boot();
    const error = await refused(call(app, 'settings:setKey', { provider: 'openai', key: 'sk-local-123456' }));
    expect(error.code).toBe('user_error');
    expect(error.message).toContain('CRUCIBLE_OPENAI_API_KEY');
    const s = await call(app, 'settings:get', {});
    expect(s.keys.find((k) => k.provider === 'anthropic')?.set).toBe(true);
    expect(JSON.stringify(s)).not.toContain('sk-ant-from-the-environment');
  });

  it('stores and forgets a key through the given key store, and never hands it back', async () => {
    const store = memoryKeyStore();
    const app = await boot({ keyStore: store });
    expect(await call(app, 'settings:setKey', { provider: 'anthropic', key: '  sk-ant-secret-0001  ' })).toEqual({
      provider: 'anthropic',
      set: true,
    });
    expect(store.keys.get('anthropic')).toBe('sk-ant-secret-0001');
    const s = await call(app, 'settings:get', {});
    expect(s.keyStore).toEqual({ backend: 'test keychain', secure: true, warning: null });
    expect(s.keys.find((k) => k.provider === 'anthropic')?.set).toBe(true);
    expect(JSON.stringify(s)).not.toContain('sk-ant-secret');
    expect((await refused(call(app, 'settings:setKey', { provider: 'anthropic', key: 'short' }))).field).toBe('key');
    expect(await call(app, 'settings:clearKey', { provider: 'anthropic' })).toEqual({
      provider: 'anthropic',
      set: false,
    });
  });
});

/** Runs a quick simulated evaluation of IDEA beside the app, so that it has a locked synthesis. */
async function lockSynthesis(app: App): Promise<void> {
  const ws = Workspace.open(root);
  try {
    await new EvaluationService(ws).evaluate(IDEA, { mode: 'quick', provider: 'simulated', seed: 1 });
  } finally {
    ws.close();
  }
  await call(app, 'workspace:sync', {});
}

describe('export:document', () => {
  it('hands back a transcript as Markdown and HTML, and a synthesis once an evaluation locked one', async () => {
    const app = await boot();
    const { id } = await call(app, 'debates:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 });
    // Wait for the debate to end (the transcript is written when it stops).
    for (let i = 0; i < 400; i++) {
      const d = await call(app, 'debates:get', { id });
      if (!d.live && d.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const md = await call(app, 'export:document', { source: 'transcript', id, format: 'md' });
    expect(md).toMatchObject({
      fileName: `${id}-transcript.md`,
      encoding: 'utf8',
      mimeType: 'text/markdown;charset=utf-8',
    });
    expect(md.bytes).toBe(Buffer.byteLength(md.content));
    expect(md.content).toMatch(/^---\n[\s\S]*\n---\n/);
    const html = await call(app, 'export:document', { source: 'transcript', id, format: 'html' });
    expect(html.content).toMatch(/^<!doctype html>/);

    const none = await refused(call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'md' }));
    expect(none.code).toBe('user_error');
    expect(none.message).toContain('has no synthesis yet');

    await lockSynthesis(app);
    const synthesis = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'html' });
    expect(synthesis.fileName).toBe(`${IDEA}-synthesis.html`);
    expect(synthesis.content).toContain('locked by');
    if (findChromium()) {
      const pdf = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'pdf' });
      expect(pdf.encoding).toBe('base64');
      expect(Buffer.from(pdf.content, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  }, 60_000);

  it('prints PDFs with the printer the host gives (the desktop app passes Electron’s), and names its failure', async () => {
    const printed: string[] = [];
    let fail = false;
    const app = await boot({
      printPdf: async (html) => {
        if (fail) throw new Error('the PDF could not be printed: it took longer than 30 s');
        printed.push(html);
        return new TextEncoder().encode('%PDF-1.7 fake');
      },
    });
    await lockSynthesis(app);
    const html = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'html' });
    const pdf = await call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'pdf' });
    expect({ ...pdf, content: Buffer.from(pdf.content, 'base64').toString('latin1') }).toEqual({
      fileName: `${IDEA}-synthesis.pdf`,
      mimeType: 'application/pdf',
      encoding: 'base64',
      content: '%PDF-1.7 fake',
      bytes: 13,
    });
    // What was printed is the same self-contained page the HTML export hands back.
    expect(printed).toEqual([html.content]);
    fail = true;
    const refusal = await refused(call(app, 'export:document', { source: 'synthesis', id: IDEA, format: 'pdf' }));
    expect([refusal.code, refusal.message]).toEqual([
      'user_error',
      'the PDF could not be printed: it took longer than 30 s',
    ]);
  }, 60_000);

  it('cancels a PDF while it prints: the printer is told at once, and nothing comes back', async () => {
    // A printer that would take a minute, unless its signal stops it.
    const prints: { aborted: boolean }[] = [];
    let printing: () => void = () => {};
    const startedPrinting = new Promise<void>((resolve) => {
      printing = resolve;
    });
    const app = await boot({
      printPdf: (_html, signal) =>
        new Promise((resolve, reject) => {
          const seen = { aborted: false };
          prints.push(seen);
          const timer = setTimeout(() => resolve(new TextEncoder().encode('%PDF-1.7 late')), 60_000);
          signal?.addEventListener('abort', () => {
            seen.aborted = true;
            clearTimeout(timer);
            reject(new Error('closed'));
          });
          printing();
        }),
    });
    await lockSynthesis(app);
    const request = { source: 'synthesis', id: IDEA, format: 'pdf' } as const;
    const started = performance.now();
    const exporting = refused(call(app, 'export:document', request));
    await startedPrinting;
    const again = await refused(call(app, 'export:document', request));
    expect([again.code, again.message]).toEqual(['user_error', `${IDEA}-synthesis.pdf is already being exported`]);
    // Another format of the same document is another export, and not cancelled by this one's cancel.
    expect(await call(app, 'export:cancel', { ...request, format: 'html' })).toEqual({ cancelled: false });

    expect(await call(app, 'export:cancel', request)).toEqual({ cancelled: true });
    expect((await exporting).toWire()).toEqual({
      code: 'user_error',
      message: 'the export was cancelled: nothing was written',
    });
    expect(prints).toEqual([{ aborted: true }]);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(await call(app, 'export:cancel', request)).toEqual({ cancelled: false });
  }, 60_000);
});

describe('idea channels of the library views', () => {
  it('reads one text file of an idea, and only a file the idea has', async () => {
    const app = await boot();
    const path = `ideas/${OTHER}/research/local-repair-market.md`;
    const file = await call(app, 'ideas:file', { slug: OTHER, path });
    expect(file).toMatchObject({ path, kind: 'research', truncated: false });
    expect(file.text).toBe(readFileSync(join(root, path), 'utf8'));
    const traversal = await refused(
      call(app, 'ideas:file', { slug: OTHER, path: `ideas/${OTHER}/../../../etc/passwd` }),
    );
    expect(traversal.message).toContain('is not a file of the idea');
    const other = await refused(call(app, 'ideas:file', { slug: IDEA, path }));
    expect(other.code).toBe('user_error');
  });

  it('lists every relationship for the graph', async () => {
    const app = await boot();
    const { relationships } = await call(app, 'ideas:relationships', {});
    expect(relationships.map((r) => `${r.source}→${r.target}:${r.type}`).sort()).toEqual([
      `${IDEA}→${OTHER}:conflicts`,
      `${OTHER}→${IDEA}:conflicts`,
    ]);
  });

  it('asks development questions on the settings provider and records an answer in development.md', async () => {
    const app = await boot();
    const asked = await call(app, 'ideas:develop', { slug: IDEA });
    expect(asked.added.length).toBeGreaterThan(0);
    expect(asked.path).toBe(`ideas/${IDEA}/development.md`);
    const n = asked.added[0] as number;
    const answered = await call(app, 'ideas:answer', { slug: IDEA, number: n, text: 'Twelve households said yes.' });
    expect(answered.questions.find((q) => q.number === n)?.answer).toBe('Twelve households said yes.');
    const listed = await call(app, 'ideas:questions', { slug: IDEA });
    expect(listed.questions).toEqual(answered.questions);
    expect(readFileSync(join(root, 'ideas', IDEA, 'development.md'), 'utf8')).toContain('Twelve households said yes.');
    expect((await refused(call(app, 'ideas:answer', { slug: IDEA, number: 99, text: 'x' }))).code).toBe('user_error');
  });
});

describe('cancelling a development call', () => {
  it('stops the call at once, fails it as cancelled and writes nothing; a second call meanwhile is refused', async () => {
    // The simulator answers after this long, unless the call is cancelled first.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '20000';
    const app = await boot();
    const folder = join(root, 'ideas', IDEA);
    const before = readdirSync(folder, { recursive: true });
    const started = performance.now();
    const asking = refused(call(app, 'ideas:develop', { slug: IDEA }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await refused(call(app, 'ideas:develop', { slug: IDEA }));
    expect(again).toMatchObject({
      code: 'user_error',
      message: `the development agent is already asking about "${IDEA}"`,
    });

    expect(await call(app, 'ideas:developCancel', { slug: IDEA })).toEqual({ cancelled: true });
    expect((await asking).toWire()).toEqual({
      code: 'user_error',
      message: 'the development call was cancelled: nothing was written',
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(readdirSync(folder, { recursive: true })).toEqual(before);
    // Nothing is running now; the idea can be asked about again.
    expect(await call(app, 'ideas:developCancel', { slug: IDEA })).toEqual({ cancelled: false });
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '0';
    expect((await call(app, 'ideas:develop', { slug: IDEA })).added.length).toBeGreaterThan(0);
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/settings-channels.ts in this file', () => {
    expect(Object.keys(settingsChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
