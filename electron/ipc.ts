import type { IpcMainInvokeEvent } from 'electron';
import { CHANNEL_NAMES, type PushEvent, toWireError } from '../core/contract';
import type { Log } from '../core/ports/log';
import { type Envelope, PUSH_CHANNEL } from './bridge';

/**
 * The main side of the desktop app's IPC: one `ipcMain.handle` per contract channel, each call
 * checked for who sent it before the app sees it, and the app's pushed events forwarded to the
 * window. Electron itself comes in as parameters (only its types are imported here), so all of
 * this runs under plain Node in electron/ipc.test.ts.
 */

/** The slice of ipcMain used here. */
export interface InvokeRegistry {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, input: unknown) => Promise<Envelope>): void;
  removeHandler(channel: string): void;
}

/** The app as IPC needs it (createApp's App fits). */
export interface IpcApp {
  invoke(channel: string, input: unknown): Promise<unknown>;
  events: { onAny(listener: (event: PushEvent) => void): () => void };
}

/** What a sender check looks at: the calling WebContents and frame. */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/** Returns why a call is refused, or null when its sender is our own page. */
export type SenderCheck = (event: SenderEvent) => string | null;

/**
 * `scheme://host[:port]` of a page address, the way we compare origins: the custom `app:` scheme
 * is not one WHATWG URL gives an origin to (`URL.origin` is "null" for it), so it is built by hand.
 */
export function originOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.host === '') return null;
  return `${parsed.protocol}//${parsed.host}`.toLowerCase();
}

/** The slice of a WebContents the sender check and the push forwarder use. */
export interface WindowContents {
  readonly mainFrame: { readonly url: string; readonly processId: number; readonly routingId: number };
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * Calls are served only to the main frame of our own window, showing a page of ours: the app's
 * origin (`app://crucible`) or, in development, the dev server's. A subframe, another window, or
 * our window after it somehow reached another site is refused.
 */
export function ownPageCheck(options: {
  origins: readonly string[];
  /** The window's WebContents while it exists. */
  contents: () => WindowContents | null;
}): SenderCheck {
  const allowed = new Set(options.origins.map((o) => o.toLowerCase()));
  return (event) => {
    const contents = options.contents();
    if (!contents || contents.isDestroyed() || (event.sender as unknown) !== contents) {
      return 'the call did not come from the Crucible window';
    }
    const frame = event.senderFrame;
    if (!frame) return 'the calling page has gone away';
    if (frame.parent !== null) return 'calls from frames inside the page are refused';
    const main = contents.mainFrame;
    if (frame.processId !== main.processId || frame.routingId !== main.routingId) {
      return 'the call did not come from the main frame of the Crucible window';
    }
    const origin = originOf(frame.url);
    if (origin === null || !allowed.has(origin)) return `calls from ${origin ?? 'this page'} are refused`;
    return null;
  };
}

const detail = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/**
 * Registers one handler per contract channel. Each answers with an envelope (never a thrown error:
 * Electron would wrap it into text the renderer cannot take apart): a refused sender is
 * `forbidden`; bad input is `bad_input` naming the field (the handler parses it); anything that is
 * not a ContractError is a bug, logged here and answered as `internal` without details. Channels
 * outside the contract have no handler at all (and the preload does not let them out).
 * Returns the function that removes the handlers.
 */
export function registerIpc(options: { ipc: InvokeRegistry; app: IpcApp; check: SenderCheck; log: Log }): () => void {
  const { ipc, app, check, log } = options;
  for (const channel of CHANNEL_NAMES) {
    ipc.handle(channel, async (event, input): Promise<Envelope> => {
      const refusal = check(event);
      if (refusal !== null) {
        log.warn(`refused a call to ${channel}`, { reason: refusal });
        return { ok: false, error: { code: 'forbidden', message: refusal } };
      }
      try {
        return { ok: true, value: await app.invoke(channel, input) };
      } catch (error) {
        const wire = toWireError(error);
        if (wire.code === 'internal') log.error(`${channel} failed`, { error: detail(error) });
        return { ok: false, error: wire };
      }
    });
  }
  return () => {
    for (const channel of CHANNEL_NAMES) ipc.removeHandler(channel);
  };
}

/**
 * Forwards every pushed event to the window as `{event, payload}` on PUSH_CHANNEL, but only while
 * it shows one of our pages (the same origins the sender check allows). Returns the unsubscriber.
 */
export function forwardPushes(options: {
  app: IpcApp;
  origins: readonly string[];
  contents: () => WindowContents | null;
}): () => void {
  const allowed = new Set(options.origins.map((o) => o.toLowerCase()));
  return options.app.events.onAny((pushed) => {
    const contents = options.contents();
    if (!contents || contents.isDestroyed()) return;
    const origin = originOf(contents.mainFrame.url);
    if (origin === null || !allowed.has(origin)) return;
    contents.send(PUSH_CHANNEL, { event: pushed.event, payload: pushed.payload });
  });
}
