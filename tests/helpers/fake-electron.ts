import { EventEmitter } from 'node:events';
import { join } from 'node:path';

/**
 * Just enough of the `electron` module for electron/main.ts to boot and quit under plain Node (the
 * Electron binary cannot be downloaded here): it records what the main process asked of Electron,
 * in order, and lets a test play the page (IPC calls, app:// requests) and the user (quit, dialogs).
 */
export interface FakeElectron {
  module: Record<string, unknown>;
  trace: string[];
  handlers: Map<string, (event: unknown, input: unknown) => Promise<unknown>>;
  protocolHandler: ((request: Request) => Response | Promise<Response>) | null;
  windows: FakeWindow[];
  /** Sessions made with `session.fromPartition`, by name (the PDF printer's). */
  partitions: Map<string, FakeSession>;
  /** Answers the message boxes will give, in order (the button index); then 1. */
  messageBoxAnswers: number[];
  quit(): void;
  /** Resolves when the fake app has finally quit (before-quit no longer prevented). */
  exited: Promise<void>;
}

/** A session of its own: what was set on it, and its scheme handlers (which the fake windows use). */
export interface FakeSession {
  schemes: Map<string, (request: Request) => Response | Promise<Response>>;
  filter: ((details: { url: string }, callback: (response: { cancel: boolean }) => void) => void) | null;
  protocol: { handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void };
  webRequest: { onBeforeRequest(listener: NonNullable<FakeSession['filter']>): void };
  setPermissionRequestHandler(handler: unknown): void;
  setPermissionCheckHandler(handler: unknown): void;
}

function fakeSession(): FakeSession {
  const session: FakeSession = {
    schemes: new Map(),
    filter: null,
    protocol: { handle: (scheme, handler) => void session.schemes.set(scheme, handler) },
    webRequest: {
      onBeforeRequest: (listener) => {
        session.filter = listener;
      },
    },
    setPermissionRequestHandler: () => {},
    setPermissionCheckHandler: () => {},
  };
  return session;
}

export class FakeWindow extends EventEmitter {
  readonly webContents: EventEmitter & {
    mainFrame: { url: string; processId: number; routingId: number; parent: null };
    sent: unknown[];
    isDestroyed(): boolean;
    send(channel: string, message: unknown): void;
    setWindowOpenHandler(handler: unknown): void;
    printToPDF(options: unknown): Promise<Buffer>;
  };
  destroyed = false;
  /** The page a window of its own session was served through that session's scheme handler. */
  page: string | null = null;
  printedWith: unknown = null;

  constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
    super();
    const contents = new EventEmitter() as FakeWindow['webContents'];
    contents.mainFrame = { url: '', processId: 1, routingId: 1, parent: null };
    contents.sent = [];
    contents.isDestroyed = () => false;
    contents.send = (_channel, message) => {
      contents.sent.push(message);
    };
    contents.setWindowOpenHandler = () => {};
    contents.printToPDF = async (printOptions) => {
      this.printedWith = printOptions;
      return Buffer.from('%PDF-1.7 fake');
    };
    this.webContents = contents;
  }

  async loadURL(url: string): Promise<void> {
    this.webContents.mainFrame.url = url;
    const session = this.options.webPreferences?.session as FakeSession | undefined;
    const handler = session?.schemes.get(url.slice(0, url.indexOf(':')));
    if (handler) this.page = await (await handler(new Request(url))).text();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('closed');
  }
  show(): void {}
  focus(): void {}
  isMinimized(): boolean {
    return false;
  }
}

export function fakeElectron(options: { appPath: string; dataDir: string }): FakeElectron {
  const trace: string[] = [];
  const events = new EventEmitter();
  const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>();
  let markExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    markExited = resolve;
  });
  const fake: FakeElectron = {
    module: {},
    trace,
    handlers,
    protocolHandler: null,
    windows: [],
    partitions: new Map(),
    messageBoxAnswers: [],
    exited,
    quit: () => {
      let prevented = false;
      events.emit('before-quit', {
        preventDefault: () => {
          prevented = true;
        },
      });
      trace.push(prevented ? 'quit: waits' : 'quit: exits');
      if (!prevented) markExited();
    },
  };
  const record = (what: string) => () => {
    trace.push(what);
  };
  const windowClass = class extends FakeWindow {
    constructor(windowOptions: { webPreferences?: Record<string, unknown> }) {
      super(windowOptions);
      trace.push('window');
      fake.windows.push(this);
    }
  };
  fake.module = {
    app: {
      isPackaged: false,
      getPath: (name: string) => join(options.dataDir, name),
      getAppPath: () => options.appPath,
      requestSingleInstanceLock: () => true,
      enableSandbox: record('enableSandbox'),
      on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener),
      whenReady: () => Promise.resolve(),
      relaunch: record('relaunch'),
      quit: () => fake.quit(),
    },
    protocol: { registerSchemesAsPrivileged: record('registerSchemesAsPrivileged') },
    ipcMain: {
      handle: (channel: string, listener: (event: unknown, input: unknown) => Promise<unknown>) => {
        if (handlers.size === 0) trace.push('ipc handlers');
        handlers.set(channel, listener);
      },
      removeHandler: (channel: string) => {
        handlers.delete(channel);
        if (handlers.size === 0) trace.push('ipc handlers removed');
      },
    },
    session: {
      defaultSession: {
        protocol: {
          handle: (scheme: string, handler: (request: Request) => Response) => {
            trace.push(`protocol ${scheme}`);
            fake.protocolHandler = handler;
          },
        },
        setPermissionRequestHandler: record('permissions denied'),
        setPermissionCheckHandler: () => {},
        setDevicePermissionHandler: () => {},
        setDisplayMediaRequestHandler: () => {},
        webRequest: { onBeforeRequest: record('requests filtered') },
      },
      fromPartition: (name: string) => {
        let partition = fake.partitions.get(name);
        if (!partition) {
          trace.push(`partition ${name}`);
          partition = fakeSession();
          fake.partitions.set(name, partition);
        }
        return partition;
      },
    },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      encryptStringAsync: async (text: string) => Buffer.from(text),
      decryptStringAsync: async (data: Buffer) => ({ result: data.toString(), shouldReEncrypt: false }),
      getSelectedStorageBackend: () => 'gnome_libsecret',
    },
    BrowserWindow: windowClass,
    Menu: { buildFromTemplate: (template: unknown) => ({ template }), setApplicationMenu: record('menu') },
    dialog: {
      showErrorBox: (title: string, message: string) => trace.push(`error box: ${title}: ${message}`),
      showMessageBox: async (box: { message: string; detail?: string }) => {
        trace.push(`message box: ${box.message} ${box.detail ?? ''}`);
        return { response: fake.messageBoxAnswers.shift() ?? 1 };
      },
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
    },
    shell: { openExternal: async () => {}, openPath: async () => '' },
    nativeTheme: { shouldUseDarkColors: false },
  };
  return fake;
}
