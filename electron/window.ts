import { BrowserWindow, Menu, type MenuItemConstructorOptions, nativeTheme, shell } from 'electron';
import type { Log } from '../core/ports/log';
import { decideNavigation, UserActivity } from './navigation';

/**
 * The one window. Its page runs with context isolation, in Chromium's sandbox, without Node, with
 * web security on; it may not navigate away from our own pages nor open windows; an http(s) link
 * the researcher clicks opens in their browser (docs/security.md).
 */
export function createMainWindow(options: {
  preload: string;
  startUrl: string;
  /** Our page origins: `app://crucible`, and the dev server's in development. */
  ownOrigins: readonly string[];
  devTools: boolean;
  log: Log;
}): BrowserWindow {
  const { log, ownOrigins } = options;
  const window = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Crucible',
    // The page's own background (--bg in renderer/src/styles.css), so opening does not flash.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#17181b' : '#fbfbfa',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      // A file dropped outside the page's drop zones must not replace the app with that file.
      navigateOnDragDrop: false,
      // A page that loops on alert() can be stopped.
      safeDialogs: true,
      devTools: options.devTools,
      spellcheck: true,
    },
  });
  const contents = window.webContents;
  const activity = new UserActivity();
  contents.on('input-event', (_event, input) => activity.note(input.type));

  const openOutside = (url: string) => {
    shell.openExternal(url).catch((error: unknown) => {
      log.warn('could not open a link in the browser', {
        url,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  };

  // Links and `location = …` in the main frame: our own pages stay, the rest is stopped here.
  const onNavigate = (event: { url: string; preventDefault(): void }, kind: string) => {
    const decision = decideNavigation(event.url, { ownOrigins, userActed: () => activity.consume(), newWindow: false });
    if (decision === 'stay') return;
    event.preventDefault();
    if (decision === 'external') openOutside(event.url);
    else log.warn(`blocked a ${kind}`, { url: event.url });
  };
  contents.on('will-navigate', (event) => onNavigate(event, 'navigation'));
  contents.on('will-redirect', (event) => {
    if (event.isMainFrame) onNavigate(event, 'redirect');
  });
  // Frames inside the page (its CSP allows none) may not navigate anywhere.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) {
      event.preventDefault();
      log.warn('blocked a navigation inside a frame', { url: event.url });
    }
  });
  // window.open and target=_blank: never a new Electron window.
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideNavigation(url, { ownOrigins, userActed: () => activity.consume(), newWindow: true });
    if (decision === 'external') openOutside(url);
    else log.warn('blocked a new window', { url });
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());

  // Cut, copy and paste where the page has text, as in any other program.
  contents.on('context-menu', (_event, params) => {
    const items: MenuItemConstructorOptions[] = [];
    if (params.isEditable) items.push({ role: 'cut', enabled: params.editFlags.canCut });
    if (params.isEditable || params.selectionText.trim() !== '')
      items.push({ role: 'copy', enabled: params.editFlags.canCopy });
    if (params.isEditable) {
      items.push({ role: 'paste', enabled: params.editFlags.canPaste }, { type: 'separator' }, { role: 'selectAll' });
    }
    if (items.length > 0) Menu.buildFromTemplate(items).popup({ window });
  });

  contents.on('render-process-gone', (_event, details) => log.error('the window’s page stopped', { ...details }));
  contents.on('preload-error', (_event, path, error) =>
    log.error('the preload failed', { path, error: error.message }),
  );
  contents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    if (isMainFrame) log.error('the page could not be loaded', { code, description, url });
  });

  window.once('ready-to-show', () => window.show());
  window.loadURL(options.startUrl).catch((error: unknown) => {
    log.error('the page could not be loaded', {
      url: options.startUrl,
      error: error instanceof Error ? error.message : String(error),
    });
  });
  return window;
}
