import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { type App, createApp } from '../core/node/app/create-app';
import type { KeyStore } from '../core/node/app/key-store';
import type { PdfPrinter } from '../core/node/export/pdf-printer';
import { StaticFiles } from '../core/node/web/static-files';
import type { Log } from '../core/ports/log';
import { APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, APP_START_URL, appResponse } from './app-protocol';
import { fileLog } from './file-log';
import { importNotesFolder } from './import-dialog';
import { forwardPushes, originOf, ownPageCheck, registerIpc } from './ipc';
import { createSafeKeyStore } from './key-store';
import { buildMenu } from './menu';
import { findElectronBinding } from './native-binding';
import { createElectronPdfPrinter, PRINT_PARTITION } from './pdf-printer';
import { hardenSession } from './session-policy';
import { createMainWindow } from './window';
import { askAfterOpenFailure, pickWorkspaceFolder } from './workspace-dialogs';
import { chooseWorkspace, saveWorkspaceChoice } from './workspace-choice';

/**
 * The desktop app's composition root: the only file that knows Electron, the app (createApp) and the
 * window all at once. The boot and the shutdown run in the order written below; each step says why
 * it comes where it does.
 */

const here = dirname(fileURLToPath(import.meta.url));
const packaged = app.isPackaged;
/** In development electron-vite serves the renderer with hot reload; never in a packaged build. */
const devServer = !packaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : null;
const devOrigin = devServer ? originOf(devServer) : null;
/** The pages that may call the app and receive its events. */
const ownOrigins: string[] = [APP_ORIGIN, ...(devOrigin ? [devOrigin] : [])];

const log: Log = fileLog(() => join(app.getPath('logs'), 'crucible.log'), { echo: !packaged });
const settingsFile = () => join(app.getPath('userData'), 'desktop-settings.json');

let core: App | null = null;
let window: BrowserWindow | null = null;
let stopIpc: (() => void) | null = null;
let stopPushes: (() => void) | null = null;
let booting: Promise<void> | null = null;

// ---- before the app is ready -------------------------------------------------------------------
// 1. One instance per user: a second one would open the same index and watch the same folder.
//    A second start just brings the first window forward.
const firstInstance = app.requestSingleInstanceLock();
if (!firstInstance) app.quit();
app.on('second-instance', () => {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
});
// 2. Every renderer sandboxed, whatever a window's own settings say.
app.enableSandbox();
// 3. The app:// scheme must be declared privileged before `ready`; it is served in step 6.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
// 4. Any web contents created later (DevTools included) gets no <webview> and no new windows.
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});

class QuitQuietly extends Error {}

let printer: PdfPrinter | null = null;
/**
 * PDF export prints with Electron itself, on a hidden, locked-down window with a session of its own
 * (electron/pdf-printer.ts): the Chromium the CLI prints with is not part of a packaged app. Set up
 * on the first PDF, so a run that exports none creates no such session.
 */
const printPdf: PdfPrinter = (html, signal) => {
  printer ??= createElectronPdfPrinter({ BrowserWindow, session: session.fromPartition(PRINT_PARTITION), log });
  return printer(html, signal);
};

/** Opens the chosen workspace; when that fails, offers to choose another folder until one opens. */
async function openWorkspace(keyStore: KeyStore): Promise<App> {
  let root = chooseWorkspace({ settingsFile: settingsFile(), env: process.env, home: homedir(), log }).root;
  for (;;) {
    try {
      // Simulated runs unfold at a visible pace unless the workspace's Settings say instant.
      const opened = await createApp({
        workspaceRoot: root,
        log,
        keyStore,
        printPdf,
        paceSimulated: true,
        warmLists: true,
      });
      log.info('workspace open', { workspace: root });
      return opened;
    } catch (error) {
      const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
      log.error('could not open the workspace', { workspace: root, error: reason });
      if ((await askAfterOpenFailure(root, reason)) === 'quit') throw new QuitQuietly();
      const picked = await pickWorkspaceFolder(null, log);
      if (!picked) throw new QuitQuietly();
      saveWorkspaceChoice(settingsFile(), picked, log);
      root = picked;
    }
  }
}

function openWindow(): BrowserWindow {
  const created = createMainWindow({
    preload: join(here, '../preload/preload.cjs'),
    startUrl: devServer ?? APP_START_URL,
    ownOrigins,
    devTools: !packaged,
    log,
  });
  created.on('closed', () => {
    if (window === created) window = null;
  });
  return created;
}

async function boot(): Promise<void> {
  // ---- boot, in order --------------------------------------------------------------------------
  // 5. Where the app's own data is (taxonomy, templates, sample ideas, personas): the resources
  //    folder when packaged (electron-builder.yml extraResources), the project folder otherwise.
  process.env.CRUCIBLE_APP_ROOT ??= packaged ? process.resourcesPath : app.getAppPath();
  // 6. The Electron build of better-sqlite3, before anything opens an index (electron/native-binding.ts).
  const require = createRequire(import.meta.url);
  const binding = findElectronBinding({
    appPath: app.getAppPath(),
    packaged,
    resourcesPath: process.resourcesPath,
    electronVersion: process.versions.electron ?? '',
    betterSqlite3Version: (require('better-sqlite3/package.json') as { version: string }).version,
    platform: process.platform,
    arch: process.arch,
  });
  if ('error' in binding) throw new Error(binding.error);
  process.env.CRUCIBLE_SQLITE_BINDING = binding.path;
  // 7. The session before any page exists: no permissions, no requests to the network, and the
  //    UI served from app:// (the built renderer only).
  hardenSession(session.defaultSession, { ownOrigins, log });
  const files = new StaticFiles(join(here, '../renderer'));
  session.defaultSession.protocol.handle(APP_SCHEME, (request) => appResponse(request, files));
  // 8. API keys, kept by the OS keychain through safeStorage (usable only once the app is ready).
  const keyStore = createSafeKeyStore({
    safeStorage,
    file: join(app.getPath('userData'), 'api-keys.json'),
    platform: process.platform,
    log,
  });
  // 9. The app: workspace, index (rebuilt if needed), reconcile, debates, watcher (createApp's own
  //    order). The window comes after, so its first calls find the index current.
  core = await openWorkspace(keyStore);
  // 10. IPC: every contract channel, answered only to our window's main frame on our own origin.
  stopIpc = registerIpc({
    ipc: ipcMain,
    app: core,
    check: ownPageCheck({ origins: ownOrigins, contents: () => window?.webContents ?? null }),
    log,
  });
  stopPushes = forwardPushes({ app: core, origins: ownOrigins, contents: () => window?.webContents ?? null });
  // 11. The menu and the window.
  Menu.setApplicationMenu(
    buildMenu({
      openWorkspace: () => void switchWorkspace(),
      showWorkspace: () => void shell.openPath(core?.root ?? homedir()),
      importNotes: () => void importNotesFolder(window, core, log),
      showLogs: () => void shell.openPath(app.getPath('logs')),
      dev: !packaged,
    }),
  );
  window = openWindow();
}

/** File → Open Workspace Folder…: remember the folder and restart into it (through the shutdown). */
async function switchWorkspace(): Promise<void> {
  const picked = await pickWorkspaceFolder(window, log);
  if (!picked || picked === core?.root) return;
  saveWorkspaceChoice(settingsFile(), picked, log);
  app.relaunch();
  app.quit();
}

// ---- shutdown, in order ----------------------------------------------------------------------------
// Quitting waits for the app to close: 1. new calls are refused, 2. the watcher is closed (what it
// saw is indexed), 3. running debates pause at a checkpoint and log it, 4. the index is closed
// (app.close() does these in this order). Only then does the process exit. The window stays
// connected meanwhile, so the last pushed events still reach it.
type Phase = 'running' | 'closing' | 'closed';
let phase: Phase = 'running';
/** Past this, a shutdown that hangs is abandoned: every record is already on disk. */
const SHUTDOWN_LIMIT_MS = 20_000;

async function shutdown(): Promise<void> {
  // A quit during the boot (Ctrl-C while the index is being rebuilt) lets the boot finish first,
  // so what it opened is closed below rather than dropped.
  await booting?.catch(() => {});
  const opened = core;
  core = null;
  if (opened) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), SHUTDOWN_LIMIT_MS);
    });
    try {
      const outcome = await Promise.race([opened.close().then(() => 'done' as const), limit]);
      if (outcome === 'late')
        log.error(`the workspace did not close within ${SHUTDOWN_LIMIT_MS / 1000} s; quitting anyway`);
    } catch (error) {
      log.error('closing the workspace failed', {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    } finally {
      clearTimeout(timer);
    }
  }
  // 5. Nothing more to send or answer.
  stopPushes?.();
  stopIpc?.();
  stopPushes = null;
  stopIpc = null;
  log.info('closed');
}

app.on('before-quit', (event) => {
  // The second pass, after the shutdown below has run: let Electron quit.
  if (phase === 'closed') return;
  event.preventDefault();
  // A second Quit while closing waits for the first one (re-entrancy guard).
  if (phase === 'closing') return;
  phase = 'closing';
  void shutdown().finally(() => {
    phase = 'closed';
    app.quit();
  });
});

// Closing the last window quits, except on macOS where apps stay until Quit.
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('activate', () => {
  if (phase === 'running' && core && !window) window = openWindow();
});
// Ctrl-C in a terminal (development) and a system shutdown take the same orderly path.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
process.on('uncaughtException', (error) => log.error('uncaught exception', { error: error.stack ?? error.message }));
process.on('unhandledRejection', (reason) =>
  log.error('unhandled rejection', {
    error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
  }),
);

if (firstInstance) {
  booting = app.whenReady().then(boot);
  booting.catch((error: unknown) => {
    if (!(error instanceof QuitQuietly)) {
      const message = error instanceof Error ? error.message : String(error);
      log.error('Crucible could not start', { error: error instanceof Error ? (error.stack ?? message) : message });
      dialog.showErrorBox('Crucible could not start', message);
    }
    app.quit();
  });
}
