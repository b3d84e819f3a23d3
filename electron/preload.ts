import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridge } from './bridge';

/**
 * The preload of the desktop window. It runs sandboxed (no Node), isolated from the page, and
 * exposes exactly `window.crucible = { invoke, on, pathForFile }` (renderer/src/api/electron-client.ts):
 * never ipcRenderer itself, so the page cannot send on any other channel or see Electron's event
 * objects. Bundled into one CommonJS file by electron-vite, as sandboxed preloads must be.
 */
contextBridge.exposeInMainWorld(
  'crucible',
  createBridge(ipcRenderer as Parameters<typeof createBridge>[0], (file) => webUtils.getPathForFile(file)),
);
