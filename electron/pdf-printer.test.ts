import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_POLICY, htmlDocument } from '../core/export/markdown-html';
import type { Log } from '../core/ports/log';
import {
  createElectronPdfPrinter,
  type PRINT_OPTIONS,
  PRINT_SCHEME,
  type PrintSession,
  type PrintWindow,
} from './pdf-printer';

/**
 * The desktop PDF printer without Electron: a fake session that keeps the handlers the printer
 * installs, and a fake BrowserWindow whose `loadURL` does what Chromium does with them — asks the
 * request filter, fetches the document through the print scheme, then lets the page ask for what
 * a hostile document would (a tracking image, a local file, another document of the scheme).
 */

type Filter = (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void;

class FakeSession implements PrintSession {
  filter: Filter | null = null;
  scheme: { name: string; handler: (request: Request) => Response | Promise<Response> } | null = null;
  requestHandler: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
  checkHandler: (() => boolean) | null = null;
  readonly protocol = {
    handle: (name: string, handler: (request: Request) => Response | Promise<Response>) => {
      this.scheme = { name, handler };
    },
  };
  readonly webRequest = {
    onBeforeRequest: (listener: Filter) => {
      this.filter = listener;
    },
  };
  setPermissionRequestHandler(handler: NonNullable<FakeSession['requestHandler']>): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: () => boolean): void {
    this.checkHandler = handler;
  }

  /** What Chromium asks the filter before a request: true when it may go. */
  allows(url: string): boolean {
    let cancelled: boolean | null = null;
    this.filter?.({ url }, (response) => {
      cancelled = response.cancel;
    });
    if (cancelled === null) throw new Error('the filter did not answer');
    return !cancelled;
  }
}

/** How the fake page behaves: prints, fails to load, fails to print, or never finishes loading. */
type Behaviour = 'print' | 'load fails' | 'print fails' | 'hangs';

interface Seen {
  url: string;
  status: number;
  policy: string | null;
  body: string;
  /** The requests the page then tried, and whether the filter let each go. */
  tried: Record<string, boolean>;
  printedWith: unknown;
}

const ATTEMPTS = ['https://tracker.example/pixel.png', 'file:///etc/passwd', `${PRINT_SCHEME}://document/another`];

function fakeWindows(session: FakeSession, behaviour: () => Behaviour) {
  const windows: FakeWindow[] = [];
  const events: string[] = [];
  class FakeWindow implements PrintWindow {
    destroyed = false;
    seen: Seen | null = null;
    readonly listeners = new Map<string, (event: { preventDefault(): void }) => void>();
    openHandler: (() => { action: 'deny' }) | null = null;
    readonly webContents = {
      printToPDF: async (options: typeof PRINT_OPTIONS): Promise<Uint8Array> => {
        if (this.destroyed) throw new Error('Object has been destroyed');
        if (behaviour() === 'print fails') throw new Error('Printing failed');
        if (this.seen) this.seen.printedWith = options;
        return new TextEncoder().encode('%PDF-1.7 fake');
      },
      setWindowOpenHandler: (handler: () => { action: 'deny' }) => {
        this.openHandler = handler;
      },
      on: (event: string, listener: (event: { preventDefault(): void }) => void) => {
        this.listeners.set(event, listener);
        return this.webContents;
      },
    };

    constructor(readonly options: BrowserWindowConstructorOptions) {
      windows.push(this);
      events.push(`open ${windows.length}`);
    }

    async loadURL(url: string): Promise<void> {
      const mode = behaviour();
      if (mode === 'hangs') return new Promise<void>(() => {});
      if (!session.allows(url)) throw new Error(`ERR_BLOCKED_BY_CLIENT (-20) loading '${url}'`);
      if (!session.scheme || !url.startsWith(`${session.scheme.name}:`)) throw new Error('no handler for the scheme');
      const response = await session.scheme.handler(new Request(url));
      const tried = Object.fromEntries(ATTEMPTS.map((a) => [a, session.allows(a)]));
      this.seen = {
        url,
        status: response.status,
        policy: response.headers.get('content-security-policy'),
        body: await response.text(),
        tried,
        printedWith: null,
      };
      if (mode === 'load fails') throw new Error("ERR_FAILED (-2) loading 'crucible-print://document/…'");
    }

    isDestroyed(): boolean {
      return this.destroyed;
    }

    destroy(): void {
      this.destroyed = true;
      events.push(`destroy ${windows.indexOf(this) + 1}`);
    }
  }
  return { BrowserWindow: FakeWindow, windows, events };
}

function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

const HTML = htmlDocument('Community solar', '# Community solar\n\nA **locked** synthesis.', 'Evaluation e1');

function setUp(behaviour: Behaviour | (() => Behaviour), timeoutMs = 5_000) {
  const session = new FakeSession();
  const fake = fakeWindows(session, typeof behaviour === 'function' ? behaviour : () => behaviour);
  const log = memoryLog();
  const print = createElectronPdfPrinter({ BrowserWindow: fake.BrowserWindow, session, log, timeoutMs });
  return { session, ...fake, log, print };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the print to fail');
}

describe('the desktop PDF printer', () => {
  it('prints the document alone, offline, in a sandboxed window without JavaScript, then destroys it', async () => {
    const { session, windows, print } = setUp('print');
    const pdf = await print(HTML);

    expect(new TextDecoder().decode(pdf)).toBe('%PDF-1.7 fake');
    const [window] = windows;
    expect(windows.length).toBe(1);
    expect(window?.destroyed).toBe(true);
    const prefs = window?.options.webPreferences ?? {};
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      javascript: false,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
    expect([prefs.session === (session as unknown), 'preload' in prefs, window?.options.show]).toEqual([
      true,
      false,
      false,
    ]);
    // The page was the export's own HTML, with its policy as a header too; everything else it
    // tried was refused, even another address of the print scheme.
    expect(window?.seen).toEqual({
      url: expect.stringMatching(new RegExp(`^${PRINT_SCHEME}://document/[0-9a-f-]{36}$`)),
      status: 200,
      policy: DOCUMENT_POLICY,
      body: HTML,
      tried: Object.fromEntries(ATTEMPTS.map((a) => [a, false])),
      printedWith: { pageSize: 'A4', printBackground: true, preferCSSPageSize: true },
    });
    // Once printed, its address serves nothing and is refused.
    const url = window?.seen?.url as string;
    expect([session.allows(url), (await session.scheme?.handler(new Request(url)))?.status]).toEqual([false, 404]);
    // No new windows, no navigation away from the document.
    let prevented = 0;
    for (const event of ['will-navigate', 'will-redirect'])
      window?.listeners.get(event)?.({ preventDefault: () => prevented++ });
    expect([window?.openHandler?.(), prevented]).toEqual([{ action: 'deny' }, 2]);
  });

  it('refuses every permission to a page being printed', () => {
    const { session, log } = setUp('print');
    const granted: boolean[] = [];
    session.requestHandler?.({}, 'notifications', (g) => granted.push(g));
    session.requestHandler?.({}, 'clipboard-sanitized-write', (g) => granted.push(g));
    expect([granted, session.checkHandler?.()]).toEqual([[false, false], false]);
    expect(log.lines.filter((l) => l.startsWith('warn refused a permission'))).toHaveLength(2);
  });

  it.each([
    ['load fails', 'the PDF could not be printed: ERR_FAILED (-2)'],
    ['print fails', 'the PDF could not be printed: Printing failed'],
  ] as const)('destroys its window when the %s, and says so', async (behaviour, message) => {
    const { windows, print, log } = setUp(behaviour);
    expect(await failure(print(HTML))).toMatch(new RegExp(`^${message.replace(/[()]/g, '\\$&')}`));
    expect(windows.map((w) => w.destroyed)).toEqual([true]);
    expect(log.lines.some((l) => l.startsWith('error printing a PDF failed'))).toBe(true);
  });

  it('gives up on a print that takes too long, destroys its window, and prints the next one', async () => {
    let mode: Behaviour = 'hangs';
    const { windows, print } = setUp(() => mode, 50);
    const started = Date.now();
    expect(await failure(print(HTML))).toBe('the PDF could not be printed: it took longer than 0.05 s');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(windows.map((w) => w.destroyed)).toEqual([true]);
    mode = 'print';
    expect(new TextDecoder().decode(await print(HTML))).toBe('%PDF-1.7 fake');
    expect(windows.map((w) => w.destroyed)).toEqual([true, true]);
  });

  it('stops a print when cancelled, destroys its window without calling it a failure, and prints the next one', async () => {
    let mode: Behaviour = 'hangs';
    const { windows, print, log } = setUp(() => mode, 60_000);
    const controller = new AbortController();
    const printing = failure(print(HTML, controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(windows.map((w) => w.destroyed)).toEqual([false]);
    controller.abort();
    expect(await printing).toBe('the PDF could not be printed: it was cancelled');
    expect(windows.map((w) => w.destroyed)).toEqual([true]);
    expect(log.lines.filter((l) => l.startsWith('error'))).toEqual([]);
    // A print cancelled before its turn opens no window at all.
    expect(await failure(print(HTML, AbortSignal.abort()))).toContain('aborted');
    expect(windows).toHaveLength(1);
    mode = 'print';
    expect(new TextDecoder().decode(await print(HTML))).toBe('%PDF-1.7 fake');
  });

  it('prints one document at a time, in the order asked, even when one fails', async () => {
    const order: Behaviour[] = ['print', 'print fails', 'print'];
    let calls = 0;
    // loadURL and printToPDF both ask; each window keeps the behaviour of its own turn.
    const { events, print } = setUp(() => order[Math.floor(calls++ / 2)] ?? 'print');
    const results = await Promise.allSettled([print(HTML), print(HTML), print(HTML)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(events).toEqual(['open 1', 'destroy 1', 'open 2', 'destroy 2', 'open 3', 'destroy 3']);
  });
});
