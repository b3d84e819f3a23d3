import type { CustomScheme } from 'electron';
import { PAGE_POLICY } from '../core/node/web/page-policy';
import type { StaticFiles } from '../core/node/web/static-files';

/**
 * The UI is served from `app://crucible/`, a privileged custom scheme handled in the main process,
 * never from `file://` (a file:// page may read other local files; its origin is shared by every
 * file). Only the built renderer folder is readable through it (StaticFiles refuses anything
 * outside, links included), and every answer carries the page's Content Security Policy.
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'crucible';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/**
 * Registered before the app is ready. `standard` gives it real origins and relative URLs, `secure`
 * makes it a secure context (as https), `supportFetchAPI` lets the page load its module scripts;
 * it bypasses no CSP and gets no service workers.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

/** Every answer's headers; the page's policy is browser mode's too (core/node/web/page-policy.ts). */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/** The answer to one `app://` request (protocol.handle's handler, minus Electron). */
export function appResponse(request: { url: string; method: string }, files: StaticFiles): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'only GET and HEAD are served');
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return plain(400, 'not an address');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return plain(404, 'not found');
  if (!files.available) {
    return plain(503, 'the interface is not built: run `npm run build` (or `npm run dev` while developing)');
  }
  const file = files.lookup(url.pathname);
  if (!file) return plain(404, 'not found');
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'Content-Type': file.type, 'Cache-Control': file.cache },
  });
}
