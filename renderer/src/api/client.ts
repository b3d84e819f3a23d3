import { createContext, useContext } from 'react';
import type { ApiClient } from '../../../core/contract';
import { electronClient } from './electron-client';
import { httpClient, takeToken } from './http-client';

/** Which host the page runs in: the desktop app (a preload bridge) or browser mode (HTTP). */
export type HostKind = 'desktop' | 'browser';

export interface Host {
  kind: HostKind;
  client: ApiClient;
  /** The path of a dropped file in the desktop app; null in browser mode (which uploads bytes). */
  pathForFile(file: File): string | null;
}

/** The renderer picks its client from where it runs; nothing else in it knows the difference. */
export function detectHost(): Host {
  const bridge = window.crucible;
  if (bridge) {
    return { kind: 'desktop', client: electronClient(bridge), pathForFile: (file) => bridge.pathForFile(file) || null };
  }
  return { kind: 'browser', client: httpClient(takeToken()), pathForFile: () => null };
}

export const HostContext = createContext<Host | null>(null);

export function useHost(): Host {
  const host = useContext(HostContext);
  if (!host) throw new Error('useHost outside <HostContext.Provider>');
  return host;
}

export function useClient(): ApiClient {
  return useHost().client;
}
