import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import type { App } from '../../core/node/app/create-app';
import { FakeAnthropic, type FakeAnthropicOptions } from '../fakes/fake-anthropic';
import { tempWorkspace } from './temp-workspace';

/** What each test of a file gets: a fresh workspace, the fake server, and a slot for its app. */
export interface FakeAnthropicWorkspace {
  root: string;
  fake: FakeAnthropic;
  /** The test's app, closed after it. */
  app: App | null;
}

/**
 * Registers, for every test of the calling file, a temp workspace holding one sample idea and a
 * fake Anthropic server the SDK is pointed at (`ANTHROPIC_BASE_URL`), with `ANTHROPIC_API_KEY` set
 * to `apiKey` or removed. Afterwards the app, the server and the workspace are closed and the
 * environment is put back.
 */
export function fakeAnthropicWorkspace(options: {
  prefix: string;
  idea: string;
  fake: FakeAnthropicOptions;
  apiKey: string | null;
}): FakeAnthropicWorkspace {
  // Filled in before each test; the fake here is replaced by a fresh one, started, every time.
  const setup: FakeAnthropicWorkspace = { root: '', fake: new FakeAnthropic(options.fake), app: null };
  const saved = { ...process.env };
  let cleanup = () => {};
  beforeEach(async () => {
    const ws = tempWorkspace(options.prefix);
    setup.root = ws.root;
    cleanup = ws.cleanup;
    cpSync(join(appRoot(), 'ideas', options.idea), join(ws.root, 'ideas', options.idea), { recursive: true });
    setup.fake = new FakeAnthropic(options.fake);
    await setup.fake.start();
    if (options.apiKey === null) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = options.apiKey;
    process.env.ANTHROPIC_BASE_URL = setup.fake.baseURL;
  });
  afterEach(async () => {
    await setup.app?.close();
    setup.app = null;
    await setup.fake.close();
    cleanup();
    process.env = { ...saved };
  });
  return setup;
}
