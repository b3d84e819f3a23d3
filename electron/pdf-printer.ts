import { randomUUID } from 'node:crypto';
import type { BrowserWindowConstructorOptions, PrintToPDFOptions } from 'electron';
import { DOCUMENT_POLICY } from '../core/export/markdown-html';
import type { PdfPrinter } from '../core/node/export/pdf-printer';
import type { Log } from '../core/ports/log';

/**
 * The desktop app's PDF printer: Electron's own `webContents.printToPDF` on a hidden window, since a
 * packaged app ships no other browser (the CLI and browser mode print with headless Chromium,
 * core/node/export/chromium.ts). The page printed is the export's self-contained HTML — text the app
 * did not write (idea files, model answers) — so the window is locked down beyond the main one
 * (docs/security.md): its own in-memory session, sandboxed, no preload, no JavaScript, no permission,
 * no request but the document itself, no navigation. It is destroyed after every print, whether the
 * print worked, failed, took too long or was cancelled. Electron comes in as parameters (only its types are
 * imported here), so all of this runs under plain Node in pdf-printer.test.ts.
 */

/** The document is served on this scheme, on the printer's own session only. */
export const PRINT_SCHEME = 'crucible-print';
/** The printer's session: no `persist:` prefix, so it lives in memory and keeps nothing on disk. */
export const PRINT_PARTITION = 'crucible-print';
/** Past this, a print is abandoned and its window destroyed. */
export const PRINT_TIMEOUT_MS = 30_000;
/** A4, backgrounds on, and the page's own `@page` rules (size, margins) win — as headless Chromium prints. */
export const PRINT_OPTIONS = {
  pageSize: 'A4',
  printBackground: true,
  preferCSSPageSize: true,
} as const satisfies PrintToPDFOptions;

/** The slice of an Electron Session the printer sets up. */
export interface PrintSession {
  readonly protocol: {
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
  };
  readonly webRequest: {
    onBeforeRequest(
      listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void,
    ): void;
  };
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
}

/** The slice of a hidden BrowserWindow the printer uses. */
export interface PrintWindow {
  readonly webContents: {
    printToPDF(options: typeof PRINT_OPTIONS): Promise<Uint8Array>;
    setWindowOpenHandler(handler: () => { action: 'deny' }): void;
    on(event: 'will-navigate', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'will-redirect', listener: (event: { preventDefault(): void }) => void): unknown;
  };
  loadURL(url: string): Promise<void>;
  isDestroyed(): boolean;
  destroy(): void;
}

/** Electron's BrowserWindow class, or a fake of it. */
export type PrintWindowClass = new (options: BrowserWindowConstructorOptions) => PrintWindow;

/** The hidden window's settings: every item of the main window's hardening, and no JavaScript at all. */
export function printWindowOptions(session: PrintSession): BrowserWindowConstructorOptions {
  return {
    show: false,
    // A4 at 96 dpi: the layout width the page is printed from.
    width: 794,
    height: 1123,
    webPreferences: {
      // Electron's Session type is wider than the slice used here; this is the session passed in.
      session: session as unknown as NonNullable<BrowserWindowConstructorOptions['webPreferences']>['session'],
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      javascript: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: false,
      // A hidden window must still lay out and paint for printToPDF.
      backgroundThrottling: false,
    },
  };
}

/** The answer of the print scheme: the document being printed at its own address, nothing else. */
export function documentResponse(url: string, current: { url: string; html: string } | null): Response {
  if (!current || !sameAddress(url, current.url)) return new Response('not found', { status: 404 });
  return new Response(current.html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // The document's own policy (the one in its meta tag), sent as a header too.
      'content-security-policy': DOCUMENT_POLICY,
      'x-content-type-options': 'nosniff',
    },
  });
}

/** Chromium may add a trailing slash or change the case of our own (lowercase) address; nothing else. */
function sameAddress(url: string, documentUrl: string): boolean {
  return url.replace(/\/$/, '').toLowerCase() === documentUrl;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sets up the printer's session once (permissions refused, requests filtered, the print scheme
 * served) and returns the printer. Prints run one at a time, in the order asked.
 */
export function createElectronPdfPrinter(options: {
  BrowserWindow: PrintWindowClass;
  /** The printer's own session (`session.fromPartition(PRINT_PARTITION)`), used for nothing else. */
  session: PrintSession;
  log: Log;
  timeoutMs?: number;
}): PdfPrinter {
  const { session, log } = options;
  const timeoutMs = options.timeoutMs ?? PRINT_TIMEOUT_MS;
  /** The document being printed; null between prints, when the scheme serves nothing. */
  let current: { url: string; html: string } | null = null;

  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn('refused a permission request from a page being printed', { permission });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  // Offline: the document itself is the one request allowed (its CSP already forbids the rest; this
  // holds even if a page got past it — a meta refresh, a link to a local file).
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = current !== null && sameAddress(details.url, current.url);
    if (!allowed) log.warn('blocked a request from a page being printed', { url: details.url.slice(0, 200) });
    callback({ cancel: !allowed });
  });
  session.protocol.handle(PRINT_SCHEME, (request) => documentResponse(request.url, current));

  const printOne = async (html: string, signal: AbortSignal | undefined): Promise<Uint8Array> => {
    signal?.throwIfAborted();
    // A fresh address per print: a late request from an earlier window cannot fetch this document.
    const url = `${PRINT_SCHEME}://document/${randomUUID()}`;
    current = { url, html };
    let window: PrintWindow | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      const opened = new options.BrowserWindow(printWindowOptions(session));
      window = opened;
      const contents = opened.webContents;
      contents.setWindowOpenHandler(() => ({ action: 'deny' }));
      // The page stays the document: loadURL below is ours; anything the page starts is stopped.
      contents.on('will-navigate', (event) => event.preventDefault());
      contents.on('will-redirect', (event) => event.preventDefault());
      const work = opened.loadURL(url).then(() => contents.printToPDF(PRINT_OPTIONS));
      // After a timeout nobody waits for it; its late failure (the window is gone) is expected.
      work.catch(() => {});
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`it took longer than ${timeoutMs / 1000} s`)), timeoutMs);
        // A cancel ends the wait at once; the window goes below, like a print that took too long.
        signal?.addEventListener('abort', () => reject(new Error('it was cancelled')), { once: true });
      });
      return await Promise.race([work, late]);
    } catch (error) {
      if (!signal?.aborted) log.error('printing a PDF failed', { error: messageOf(error) });
      throw new Error(`the PDF could not be printed: ${messageOf(error)}`);
    } finally {
      clearTimeout(timer);
      current = null;
      if (window && !window.isDestroyed()) window.destroy();
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  return (html, signal) => {
    const printed = queue.then(() => printOne(html, signal));
    queue = printed.catch(() => {});
    return printed;
  };
}
