import { isChannel, isPushEvent, type WireError } from '../core/contract';

/**
 * What the preload puts on `window.crucible`: the shape renderer/src/api/electron-client.ts
 * (PreloadBridge) expects, and nothing more. Kept free of Electron so it can be tested in Node;
 * electron/preload.ts hands it the real ipcRenderer and webUtils.
 */

/** The one channel the main side pushes every contract event on, as `{event, payload}`. */
export const PUSH_CHANNEL = 'crucible:push';

export type Envelope = { ok: true; value: unknown } | { ok: false; error: WireError };

export interface Bridge {
  invoke(channel: string, input: unknown): Promise<Envelope>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  pathForFile(file: File): string;
}

/** The slice of Electron's ipcRenderer the bridge uses. */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function createBridge(ipc: RendererIpc, getPathForFile: (file: File) => string): Bridge {
  // One IPC listener for all pushes, fanned out here: the page never sees Electron's event object
  // (it carries `sender`), only the payload.
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let attached = false;
  const onPush = (_event: unknown, message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    const { event, payload } = message as { event?: unknown; payload?: unknown };
    if (typeof event !== 'string') return;
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        // One failing view must not stop the others from hearing the event.
        console.error(`a listener of ${event} failed`, error);
      }
    }
  };

  return {
    async invoke(channel, input) {
      // Only the contract's channels leave the page; anything else is refused here already, with
      // the same error the main side and browser mode give.
      if (typeof channel !== 'string' || !isChannel(channel)) {
        return { ok: false, error: { code: 'unknown_channel', message: `there is no channel "${String(channel)}"` } };
      }
      return (await ipc.invoke(channel, input)) as Envelope;
    },
    on(event, listener) {
      if (typeof event !== 'string' || !isPushEvent(event))
        throw new Error(`there is no pushed event "${String(event)}"`);
      if (typeof listener !== 'function') throw new Error('on(event, listener) needs a function');
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      if (!attached) {
        ipc.on(PUSH_CHANNEL, onPush);
        attached = true;
      }
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(event);
        if (listeners.size === 0 && attached) {
          ipc.removeListener(PUSH_CHANNEL, onPush);
          attached = false;
        }
      };
    },
    pathForFile(file) {
      try {
        return getPathForFile(file);
      } catch {
        // Not a file from the user's disk (made by the page, or pasted bytes): there is no path.
        return '';
      }
    },
  };
}
