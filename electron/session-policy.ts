import type { Session } from 'electron';
import type { Log } from '../core/ports/log';
import { originOf } from './ipc';

/**
 * What the window's session may do beyond showing our page: nothing. No permission is granted
 * (camera, microphone, notifications, geolocation, USB/HID/serial, screen capture …) except
 * writing to the clipboard from our own page; no request leaves for the network. The model calls
 * are made by the main process (Node), not by the page, so the page needs no network at all.
 */

/** Permissions our own page gets; every other permission, and every other page, gets none. */
const GRANTED = new Set(['clipboard-sanitized-write']);

export function permissionAllowed(permission: string, requestingUrl: string, ownOrigins: readonly string[]): boolean {
  const origin = originOf(requestingUrl);
  return GRANTED.has(permission) && origin !== null && ownOrigins.includes(origin);
}

/**
 * Which requests the page may make: our own scheme, the dev server (its websocket included) in
 * development, DevTools, and in-page data/blob URLs. Anything else (http(s) to the world, file:,
 * other schemes) is cancelled, whatever the page's CSP says.
 */
export function requestAllowed(url: string, ownOrigins: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:' || parsed.protocol === 'devtools:') return true;
  const origin = originOf(url);
  if (origin === null) return false;
  if (ownOrigins.includes(origin)) return true;
  // The dev server's hot-reload socket: ws:// on the same host and port as its http:// origin.
  const asHttp = origin.replace(/^ws:/, 'http:').replace(/^wss:/, 'https:');
  return asHttp !== origin && ownOrigins.includes(asHttp);
}

export function hardenSession(session: Session, options: { ownOrigins: readonly string[]; log: Log }): void {
  const { ownOrigins, log } = options;
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const allowed = permissionAllowed(permission, details.requestingUrl, ownOrigins);
    if (!allowed) log.warn('refused a permission request', { permission, url: details.requestingUrl });
    callback(allowed);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionAllowed(permission, requestingOrigin, ownOrigins),
  );
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = requestAllowed(details.url, ownOrigins);
    if (!allowed) log.warn('blocked a request from the page', { url: details.url });
    callback({ cancel: !allowed });
  });
}
