import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, lastRunStatus, record, refused } from '../../../tests/helpers/app-harness';
import { eventually } from '../../../tests/helpers/temp-workspace';
import { type Channel, settingsChannels } from '../../contract';
import { appRoot } from '../app-root';
import { loadModelsConfig } from '../llm/prices-loader';
import type { KeyStore } from './key-store';

// The settings:* channels against a real app on a temp workspace: settings.md and models.md, and
// API keys in the key store (never handed back).

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator'];

const answered = new Set<Channel>();
const t = appPerTest('crucible-settings-', answered);
const { boot, call } = t;

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
      workspace: t.root,
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
    expect(existsSync(join(t.root, 'settings.md'))).toBe(false);
  });

  it('writes provider, budgets and concurrency into settings.md, keeping what the researcher wrote there', async () => {
    const app = await boot();
    await call(app, 'settings:set', { provider: 'anthropic', debateBudgetUsd: 0.5 });
    const file = join(t.root, 'settings.md');
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
      join(t.root, 'settings.md'),
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
    const config = loadModelsConfig(t.root);
    expect(config.providers.anthropic?.tiers.deep).toBe('claude-opus-4-5');
    expect(config.providers['openai-compatible']?.baseURL).toBe('http://127.0.0.1:8080/v1');
    expect(config.providers['openai-compatible']?.tiers.fast).toBe('qwen2.5:7b');
    expect(config.prices['claude-haiku-4-5']?.outputPerMTok).toBe(4);
    expect(readFileSync(join(appRoot(), 'resources', 'models.md'), 'utf8')).toBe(builtIn);

    const before = readFileSync(join(t.root, 'models.md'), 'utf8');
    const refusedTier = await refused(
      call(app, 'settings:set', { tiers: [{ provider: 'anthropic', fast: 'claude-nope' }] }),
    );
    expect(refusedTier.code).toBe('user_error');
    expect(refusedTier.message).toContain('providers.anthropic.tiers.fast: the model "claude-nope" has no price');
    expect(readFileSync(join(t.root, 'models.md'), 'utf8')).toBe(before);

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

describe('the pace of the offline simulator', () => {
  it('spreads a simulated debate over a few seconds where the host paces it, and makes it instant when settings.md says so', async () => {
    delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    const app = await boot({ paceSimulated: true });
    const seen = record(app);
    const duration = async () => {
      const started = Date.now();
      const { id } = await call(app, 'debates:start', {
        ideaSlug: IDEA,
        agents: AGENTS,
        provider: 'simulated',
        seed: 3,
      });
      await eventually(() => lastRunStatus(seen, id)?.status === 'completed', 'the debate to end', 30_000);
      return Date.now() - started;
    };
    expect((await call(app, 'settings:get', {})).simulatedPace).toBe('paced');
    const paced = await duration();
    const { settings } = await call(app, 'settings:set', { simulatedPace: 'instant' });
    expect(settings.simulatedPace).toBe('instant');
    expect(readFileSync(join(t.root, 'settings.md'), 'utf8')).toContain('simulatedPace: instant');
    const instant = await duration();
    // Paced: long enough to watch turns arrive, short enough not to bore; instant: at once.
    expect({
      pacedOverTwoSeconds: paced > 2000,
      pacedUnderTwelve: paced < 12_000,
      instantIsQuick: instant < paced / 3,
    }).toEqual({ pacedOverTwoSeconds: true, pacedUnderTwelve: true, instantIsQuick: true });
  });

  it('leaves the simulator instant in a host that does not pace (the CLI, tests), whatever the settings say', async () => {
    delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    const app = await boot();
    await call(app, 'settings:set', { simulatedPace: 'paced' });
    const seen = record(app);
    const started = Date.now();
    const { id } = await call(app, 'debates:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 });
    await eventually(() => lastRunStatus(seen, id)?.status === 'completed', 'the debate to end', 30_000);
    // A paced debate takes about five seconds (above); this one, a fraction of that.
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('reports a pace it does not know as a problem and keeps the default', async () => {
    const app = await boot();
    writeFileSync(join(t.root, 'settings.md'), '---\nkind: settings\nsimulatedPace: slow\n---\n');
    const s = await call(app, 'settings:get', {});
    expect({ pace: s.simulatedPace, problems: s.problems }).toEqual({
      pace: 'paced',
      problems: ['settings.md: simulatedPace: must be one of paced, instant'],
    });
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

describe('coverage', () => {
  it('answered every channel of core/contract/settings-channels.ts in this file', () => {
    expect(Object.keys(settingsChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
