/**
 * The Content Security Policy of the app's page, the same whichever host serves it (the desktop
 * app's `app://` scheme, electron/app-protocol.ts; browser mode's server, server.ts): only the app's
 * own scripts, styles, images and fonts (no remote content of any kind), no plugins, no forms
 * posting anywhere, no frames either way. `connect-src 'self'` is all the page needs: in browser
 * mode its calls go to the server that served it; in the desktop app they go over IPC.
 */
export const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
].join('; ');
