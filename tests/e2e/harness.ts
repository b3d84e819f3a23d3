import { afterAll, beforeAll } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type App, type AppOptions, createApp } from '../../core/node/app/create-app';
import { HEADLESS_ARGS, findChromium } from '../../core/node/export/chromium';
import { ensureRendererBuilt } from '../../core/node/web/build-renderer';
import { type WebServer, startWebServer } from '../../core/node/web/server';

/** The repository root (the app's own data and the renderer's sources). */
export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Where the end-to-end tests save their screenshots (the README shows them). */
export const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');

/** The browser the end-to-end tests drive, or null (then they are skipped, loudly). */
export const chromiumPath = findChromium();

if (!chromiumPath) {
  if (process.env.CRUCIBLE_REQUIRE_BROWSER) {
    // CI installs Debian's Chromium and sets this: there, a missing browser is a failure.
    throw new Error('CRUCIBLE_REQUIRE_BROWSER is set but no Chromium or Chrome was found (set CRUCIBLE_CHROMIUM)');
  }
  console.warn(
    '\n*** No Chromium or Chrome found: the end-to-end browser tests are SKIPPED. Install one (apt-get install chromium) or set CRUCIBLE_CHROMIUM. ***\n',
  );
}

/** A new workspace copied from the sample ideas (`init` gives the same), in a temp folder. */
export function sampleWorkspace(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'crucible-e2e-'));
  cpSync(join(ROOT, 'ideas'), join(root, 'ideas'), { recursive: true });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Session {
  app: App;
  server: WebServer;
  browser: Browser | BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far (a test ends by expecting none). */
  problems: string[];
  /** Saves a PNG of the page as docs/screenshots/<name>.png. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app for `workspace` served in browser mode in this process, and a fresh headless Chromium
 * (throwaway profile) on its address with the token. Builds the renderer first when stale.
 */
export async function openSession(
  workspace: string,
  options: { appOptions?: Partial<AppOptions>; viewport?: { width: number; height: number } } = {},
): Promise<Session> {
  if (!chromiumPath) throw new Error('no browser: the caller should have skipped');
  await ensureRendererBuilt(ROOT);
  const app = await createApp({
    workspaceRoot: workspace,
    onContractBug: (error) => {
      throw error;
    },
    // Instant simulated runs keep the tests fast; a test that watches the pace opts in.
    paceSimulated: false,
    ...options.appOptions,
  });
  const server = await startWebServer({ app, port: 0, staticDir: join(ROOT, 'out', 'renderer') });
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'crucible-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: HEADLESS_ARGS,
    headless: true,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(server.url);
  return {
    app,
    server,
    browser: context,
    page,
    problems,
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    },
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
      await server.close();
      await app.close();
    },
  };
}

/**
 * A browser session on a fresh copy of the sample workspace for the tests of one describe block:
 * opened before them (before the block's own `beforeAll`, which may use it), closed and removed
 * after. `s` reads through to the session once it is open; `go` moves the page to a route (the tests'
 * tsconfig has no DOM types, so the page's globals are typed here).
 */
export function sessionPerFile(options: Parameters<typeof openSession>[1] = {}): {
  s: Session;
  ws: { root: string; cleanup: () => void };
  go: (hash: string) => Promise<void>;
} {
  const ws = sampleWorkspace();
  let session: Session | null = null;
  beforeAll(async () => {
    session = await openSession(ws.root, options);
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    ws.cleanup();
  });
  const s = new Proxy({} as Session, {
    get: (_target, key) => {
      if (!session) throw new Error('the browser session is not open yet');
      return session[key as keyof Session];
    },
  });
  const go = (hash: string) =>
    s.page.evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, hash);
  return { s, ws, go };
}

/** Polls `done` every 200 ms until it holds, for at most 90 s (a simulated run ends in seconds). */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Runs a simulated crux debate about `ideaSlug` to its end through the app's channels and answers its
 * id: `agents` is a number of the first debater personas, or their ids.
 */
export async function finishedDebate(
  app: App,
  ideaSlug: string,
  agents: number | string[],
  seed?: number,
): Promise<string> {
  const { personas } = await app.client.invoke('personas:list', { role: 'debater' });
  const { id } = await app.client.invoke('debates:start', {
    ideaSlug,
    agents: typeof agents === 'number' ? personas.slice(0, agents).map((p) => p.id) : agents,
    provider: 'simulated',
    ...(seed === undefined ? {} : { seed }),
  });
  await until(
    async () =>
      ['completed', 'partial', 'cancelled', 'failed'].includes((await app.client.invoke('debates:get', { id })).status),
    'the simulated debate to end',
  );
  return id;
}

/** Runs a simulated evaluation of `slug` until it locks and answers its id. */
export async function lockedEvaluation(app: App, slug: string, mode: 'quick' | 'standard' | 'deep'): Promise<string> {
  const { id } = await app.client.invoke('evaluations:start', { slug, mode, provider: 'simulated' });
  await until(
    async () => (await app.client.invoke('evaluations:get', { id })).status === 'completed',
    'the evaluation to lock',
  );
  return id;
}
