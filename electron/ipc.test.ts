import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../tests/helpers/temp-workspace';
import { CHANNEL_NAMES, type PushPayload } from '../core/contract';
import { appRoot } from '../core/node/app-root';
import { type App, createApp } from '../core/node/app/create-app';
import type { Log } from '../core/ports/log';
import { type Bridge, createBridge, type Envelope, PUSH_CHANNEL, type RendererIpc } from './bridge';
import { forwardPushes, type InvokeRegistry, ownPageCheck, registerIpc, type WindowContents } from './ipc';

/**
 * The desktop app's IPC, minus Electron: a fake ipcMain that behaves like the real one where it
 * matters (one handler per channel; a channel without one is an error), a fake window, the real
 * bridge the preload exposes, and a real app on a temporary workspace.
 */

type Listener = (event: IpcMainInvokeEvent, input: unknown) => Promise<Envelope>;

class FakeIpcMain implements InvokeRegistry {
  readonly handlers = new Map<string, Listener>();
  calls = 0;

  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /** What Electron does with `ipcRenderer.invoke(channel, input)` from `event`'s frame. */
  async invoke(channel: string, event: unknown, input: unknown): Promise<unknown> {
    this.calls++;
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event as IpcMainInvokeEvent, input);
  }
}

interface FakeFrame {
  url: string;
  processId: number;
  routingId: number;
  parent: FakeFrame | null;
}

class FakeContents implements WindowContents {
  readonly sent: { channel: string; message: unknown }[] = [];
  readonly mainFrame: FakeFrame = { url: 'app://crucible/index.html', processId: 7, routingId: 1, parent: null };
  destroyed = false;
  private readonly pushListeners = new Set<(event: unknown, ...args: unknown[]) => void>();

  isDestroyed(): boolean {
    return this.destroyed;
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, message: args[0] });
    // Electron structured-clones the message into the page.
    if (channel === PUSH_CHANNEL) for (const l of this.pushListeners) l({ sender: 'ipc' }, structuredClone(args[0]));
  }

  /** The page's side: an ipcRenderer whose calls come from `frame` (the main frame by default). */
  renderer(ipc: FakeIpcMain, frame: () => FakeFrame = () => this.mainFrame): RendererIpc & { listening: () => number } {
    return {
      invoke: (channel, ...args) => ipc.invoke(channel, { sender: this, senderFrame: frame() }, args[0]),
      on: (channel, listener) => {
        if (channel === PUSH_CHANNEL) this.pushListeners.add(listener);
      },
      removeListener: (channel, listener) => {
        if (channel === PUSH_CHANNEL) this.pushListeners.delete(listener);
      },
      listening: () => this.pushListeners.size,
    };
  }
}

const IDEA = 'community-solar-coop';

function recordingLog(): Log & { lines: { level: string; message: string; data?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) => {
    lines.push({ level, message, ...(data ? { data } : {}) });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

let root: string;
let cleanup: () => void;
let app: App;
let ipc: FakeIpcMain;
let contents: FakeContents;
let log: ReturnType<typeof recordingLog>;
let stop: (() => void)[];

const ORIGINS = ['app://crucible'];

beforeEach(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-ipc-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  const bugs: Error[] = [];
  app = await createApp({ workspaceRoot: root, watch: false, onContractBug: (e) => bugs.push(e) });
  ipc = new FakeIpcMain();
  contents = new FakeContents();
  log = recordingLog();
  let window: FakeContents | null = contents;
  stop = [
    registerIpc({ ipc, app, check: ownPageCheck({ origins: ORIGINS, contents: () => window }), log }),
    forwardPushes({ app, origins: ORIGINS, contents: () => window }),
    () => {
      window = null;
    },
  ];
});

afterEach(async () => {
  for (const s of stop) s();
  await app.close();
  cleanup();
});

const bridgeFor = (renderer: RendererIpc): Bridge => createBridge(renderer, () => '');
const ideaFolders = () => readdirSync(join(root, 'ideas')).filter((name) => !name.startsWith('_'));

describe('desktop IPC', () => {
  it('registers exactly the contract’s channels; a channel outside it never leaves the page and has no handler', async () => {
    expect([...ipc.handlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());

    const bridge = bridgeFor(contents.renderer(ipc));
    const answer = await bridge.invoke('fs:readFile', { path: '/etc/passwd' });
    expect([answer, ipc.calls]).toEqual([
      { ok: false, error: { code: 'unknown_channel', message: 'there is no channel "fs:readFile"' } },
      0,
    ]);
    // A page that went around the bridge would meet Electron's own refusal: no handler.
    await expect(ipc.invoke('fs:readFile', { sender: contents, senderFrame: contents.mainFrame }, {})).rejects.toThrow(
      "No handler registered for 'fs:readFile'",
    );
    // Names that exist on every object are not channels either.
    expect(await bridge.invoke('constructor', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  it('answers a good call from our window with the app’s answer', async () => {
    const bridge = bridgeFor(contents.renderer(ipc));
    const answer = await bridge.invoke('ideas:list', {});
    expect(answer.ok && (answer.value as { ideas: { slug: string }[] }).ideas.map((i) => i.slug)).toEqual([IDEA]);
  });

  it('refuses malformed input with bad_input naming the field, and changes nothing', async () => {
    const bridge = bridgeFor(contents.renderer(ipc));
    const answers = [
      await bridge.invoke('ideas:capture', { title: 42 }),
      await bridge.invoke('ideas:capture', { title: 'Fine', tags: ['ok', ''] }),
      await bridge.invoke('ideas:get', { slug: IDEA, extra: true }),
    ];
    expect(answers.map((a) => (a.ok ? 'ok' : `${a.error.code} ${a.error.field}`))).toEqual([
      'bad_input title',
      'bad_input tags[1]',
      'bad_input extra',
    ]);
    expect(ideaFolders()).toEqual([IDEA]);
  });

  it('refuses calls from another origin, a frame inside the page, another window or a gone frame, before the app sees them', async () => {
    const evil: FakeFrame = { url: 'https://evil.example/', processId: 7, routingId: 1, parent: null };
    const sub: FakeFrame = { url: 'app://crucible/index.html', processId: 7, routingId: 2, parent: contents.mainFrame };
    const other = new FakeContents();
    const callers: Record<string, RendererIpc> = {
      'other origin': contents.renderer(ipc, () => ({ ...contents.mainFrame, url: evil.url })),
      'file page': contents.renderer(ipc, () => ({ ...contents.mainFrame, url: 'file:///tmp/index.html' })),
      subframe: contents.renderer(ipc, () => sub),
      'other window': other.renderer(ipc),
      'gone frame': contents.renderer(ipc, () => null as unknown as FakeFrame),
      'another frame id': contents.renderer(ipc, () => ({ ...contents.mainFrame, routingId: 9 })),
    };
    const outcomes: Record<string, string> = {};
    for (const [who, renderer] of Object.entries(callers)) {
      const answer = await bridgeFor(renderer).invoke('ideas:capture', { title: `Sent by ${who}` });
      outcomes[who] = answer.ok ? 'ok' : answer.error.code;
    }
    expect(outcomes).toEqual({
      'other origin': 'forbidden',
      'file page': 'forbidden',
      subframe: 'forbidden',
      'other window': 'forbidden',
      'gone frame': 'forbidden',
      'another frame id': 'forbidden',
    });
    // None of them reached the app: no idea was written.
    expect(ideaFolders()).toEqual([IDEA]);
    expect(log.lines.filter((l) => l.level === 'warn').length).toBe(6);
  });

  it('accepts the dev server’s origin only when it is one of ours', async () => {
    const dev = { ...contents.mainFrame, url: 'http://localhost:5173/' };
    const withDev = ownPageCheck({ origins: [...ORIGINS, 'http://localhost:5173'], contents: () => contents });
    const withoutDev = ownPageCheck({ origins: ORIGINS, contents: () => contents });
    const event = { sender: contents, senderFrame: dev } as unknown as IpcMainInvokeEvent;
    expect([withDev(event), withoutDev(event)]).toEqual([null, 'calls from http://localhost:5173 are refused']);
  });

  it('pushes the app’s events to the window while it shows our page, and stops when unsubscribed', async () => {
    const renderer = contents.renderer(ipc);
    const bridge = bridgeFor(renderer);
    const seen: PushPayload<'sync:changed'>[] = [];
    const off = bridge.on('sync:changed', (payload) => seen.push(payload as PushPayload<'sync:changed'>));

    const captured = await bridge.invoke('ideas:capture', { title: 'Pushed through IPC' });
    expect(captured.ok).toBe(true);
    const slug = captured.ok ? (captured.value as { slug: string }).slug : '';
    expect(seen.at(-1)?.slugs.added).toContain(slug);
    expect(contents.sent.every((s) => s.channel === PUSH_CHANNEL)).toBe(true);

    // The window somehow shows another site: nothing is sent to it.
    const before = contents.sent.length;
    contents.mainFrame.url = 'https://evil.example/';
    await app.invoke('ideas:capture', { title: 'Not for that page' });
    expect(contents.sent.length).toBe(before);
    contents.mainFrame.url = 'app://crucible/index.html';

    off();
    expect(renderer.listening()).toBe(0);
    await app.invoke('ideas:capture', { title: 'After unsubscribing' });
    expect(seen.length).toBe(1);
    expect(() => bridge.on('no:such-event', () => {})).toThrow('there is no pushed event "no:such-event"');
  });

  it('answers a bug as internal without details, and logs it', async () => {
    const broken = {
      invoke: async () => {
        throw new TypeError('secret detail from deep inside');
      },
      events: { onAny: () => () => {} },
    };
    const ipc2 = new FakeIpcMain();
    const log2 = recordingLog();
    registerIpc({ ipc: ipc2, app: broken, check: () => null, log: log2 });
    const answer = (await ipc2.invoke('ideas:list', {}, {})) as Envelope;
    expect(answer).toEqual({
      ok: false,
      error: { code: 'internal', message: 'internal error: Crucible hit a bug; the details are in its log' },
    });
    expect(log2.lines).toMatchObject([{ level: 'error', message: 'ideas:list failed' }]);
    expect(String(log2.lines[0]?.data?.error)).toContain('secret detail from deep inside');
  });
});
