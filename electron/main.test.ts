import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeElectron, fakeElectron } from '../tests/helpers/fake-electron';
import { eventually } from '../tests/helpers/temp-workspace';
import { appRoot } from '../core/node/app-root';
import { EvaluationService } from '../core/node/evaluations/evaluation-service';
import { Workspace } from '../core/node/workspace/workspace';
import { BINDING_FILE, NATIVE_DIR, STAMP_FILE } from './native-binding';
import { PRINT_PARTITION } from './pdf-printer';

/**
 * electron/main.ts booted and quit under a fake Electron (tests/helpers/fake-electron.ts): the real
 * composition root, the real app on a real workspace, the real IPC and app:// handlers. What it
 * proves is the order of the boot and of the shutdown, and that they are wired to each other.
 */

const current = vi.hoisted(() => ({ fake: null as FakeElectron | null }));
// The mock is made once per file; its members follow whichever fake the running test set up.
vi.mock('electron', () => {
  const names = [
    'app',
    'protocol',
    'ipcMain',
    'session',
    'safeStorage',
    'BrowserWindow',
    'Menu',
    'dialog',
    'shell',
    'nativeTheme',
  ];
  const members: Record<string, unknown> = {};
  for (const name of names) {
    Object.defineProperty(members, name, {
      enumerable: true,
      get: () => {
        if (!current.fake) throw new Error('no fake Electron set up');
        return current.fake.module[name];
      },
    });
  }
  return members;
});

const IDEA = 'community-solar-coop';
let dir: string;
let saved: Record<string, string | undefined>;
/** main.ts listens to the process (signals, uncaught errors); those listeners go with each test. */
const PROCESS_EVENTS = ['SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'] as const;
type Listener = (...args: unknown[]) => void;
let listenersBefore: Map<string, Listener[]>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-main-'));
  saved = {
    CRUCIBLE_APP_ROOT: process.env.CRUCIBLE_APP_ROOT,
    CRUCIBLE_WORKSPACE: process.env.CRUCIBLE_WORKSPACE,
    CRUCIBLE_SQLITE_BINDING: process.env.CRUCIBLE_SQLITE_BINDING,
  };
  process.env.CRUCIBLE_APP_ROOT = appRoot();
  Object.defineProperty(process.versions, 'electron', { value: '45.5.0', configurable: true });
  // The "Electron build" of better-sqlite3 is the Node one here, stamped as Electron's.
  const native = join(dir, 'app', NATIVE_DIR);
  mkdirSync(native, { recursive: true });
  copyFileSync(join(appRoot(), 'node_modules/better-sqlite3/build/Release', BINDING_FILE), join(native, BINDING_FILE));
  const betterSqlite3 = (
    JSON.parse(readFileSync(join(appRoot(), 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string }
  ).version;
  writeFileSync(
    join(native, STAMP_FILE),
    JSON.stringify({ electron: '45.5.0', betterSqlite3, platform: process.platform, arch: process.arch }),
  );
  listenersBefore = new Map(PROCESS_EVENTS.map((e) => [e, process.listeners(e as 'SIGINT') as Listener[]]));
  vi.resetModules();
});

afterEach(() => {
  for (const event of PROCESS_EVENTS) {
    for (const listener of process.listeners(event as 'SIGINT') as Listener[]) {
      if (!listenersBefore.get(event)?.includes(listener)) process.removeListener(event, listener as never);
    }
  }
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  Reflect.deleteProperty(process.versions, 'electron');
  current.fake = null;
  rmSync(dir, { recursive: true, force: true });
});

async function start(workspace: string): Promise<FakeElectron> {
  process.env.CRUCIBLE_WORKSPACE = workspace;
  const fake = fakeElectron({ appPath: join(dir, 'app'), dataDir: join(dir, 'data') });
  current.fake = fake;
  await import('./main');
  return fake;
}

describe('the desktop main process', () => {
  it('boots in order, serves the window over IPC and app://, and on quit closes the workspace before exiting, once', async () => {
    const workspace = join(dir, 'workspace');
    cpSync(join(appRoot(), 'ideas', IDEA), join(workspace, 'ideas', IDEA), { recursive: true });
    const fake = await start(workspace);
    // Loading the whole app graph the first time is most of this wait.
    const window = await eventually(() => fake.windows[0], 'the window', 20_000);

    expect(fake.trace).toEqual([
      'enableSandbox',
      'registerSchemesAsPrivileged',
      'permissions denied',
      'requests filtered',
      'protocol app',
      'ipc handlers',
      'menu',
      'window',
    ]);
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(window.webContents.mainFrame.url).toBe('app://crucible/index.html');
    expect(process.env.CRUCIBLE_SQLITE_BINDING).toBe(join(dir, 'app', NATIVE_DIR, BINDING_FILE));

    const fromWindow = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const listed = (await fake.handlers.get('ideas:list')?.(fromWindow, {})) as {
      ok: boolean;
      value: { ideas: { slug: string }[] };
    };
    expect(listed.value.ideas.map((i) => i.slug)).toEqual([IDEA]);
    const page = await fake.protocolHandler?.(new Request('app://crucible/index.html'));
    expect([page?.status, page?.headers.get('content-security-policy')?.startsWith("default-src 'self'")]).toEqual([
      200,
      true,
    ]);

    // Quit twice, as an impatient researcher would: the second waits for the first.
    fake.quit();
    fake.quit();
    await fake.exited;
    expect(fake.trace.slice(8)).toEqual(['quit: waits', 'quit: waits', 'ipc handlers removed', 'quit: exits']);
    // The index was closed (its write-ahead log folded in and removed) before the exit.
    expect([
      existsSync(join(workspace, '.crucible', 'index.db')),
      existsSync(join(workspace, '.crucible', 'index.db-wal')),
    ]).toEqual([true, false]);
    const log = readFileSync(join(dir, 'data', 'logs', 'crucible.log'), 'utf8');
    expect(log).toMatch(/info workspace open[\s\S]*info closed/);
  });

  it('exports a PDF printed by Electron on a hidden window of its own session, gone once printed', async () => {
    const workspace = join(dir, 'workspace');
    cpSync(join(appRoot(), 'ideas', IDEA), join(workspace, 'ideas', IDEA), { recursive: true });
    const ws = Workspace.open(workspace);
    try {
      ws.sync();
      await new EvaluationService(ws).evaluate(IDEA, { mode: 'quick', provider: 'simulated', seed: 1 });
    } finally {
      ws.close();
    }
    const fake = await start(workspace);
    const window = await eventually(() => fake.windows[0], 'the window', 20_000);
    // No printing session until a PDF is asked for.
    expect(fake.partitions.size).toBe(0);

    const fromWindow = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const answer = (await fake.handlers.get('export:document')?.(fromWindow, {
      source: 'synthesis',
      id: IDEA,
      format: 'pdf',
    })) as { ok: boolean; value: { content: string; fileName: string } };
    expect([answer.ok, answer.value.fileName, Buffer.from(answer.value.content, 'base64').toString()]).toEqual([
      true,
      `${IDEA}-synthesis.pdf`,
      '%PDF-1.7 fake',
    ]);
    const printer = fake.windows[1];
    const session = fake.partitions.get(PRINT_PARTITION);
    expect(printer?.options.webPreferences).toMatchObject({ session, javascript: false, sandbox: true });
    // The hidden window was served the export's own page through the printer's session, then destroyed.
    expect([
      printer?.page?.startsWith('<!doctype html>'),
      printer?.page?.includes('locked by'),
      printer?.destroyed,
    ]).toEqual([true, true, true]);
    expect(printer?.printedWith).toEqual({ pageSize: 'A4', printBackground: true, preferCSSPageSize: true });

    fake.quit();
    await fake.exited;
  });

  it('when the workspace cannot be opened, says which and why, and quits without a window when told to', async () => {
    const notAWorkspace = join(dir, 'empty');
    mkdirSync(notAWorkspace);
    const fake = await start(notAWorkspace);
    await fake.exited;
    expect(fake.windows).toEqual([]);
    expect(fake.handlers.size).toBe(0);
    expect(fake.trace.filter((t) => t.startsWith('message box'))).toEqual([
      expect.stringMatching(
        new RegExp(`^message box: Crucible could not open the workspace ${notAWorkspace}\\. .* is not a workspace`),
      ),
    ]);
    expect(existsSync(join(notAWorkspace, 'ideas'))).toBe(false);
  });
});
