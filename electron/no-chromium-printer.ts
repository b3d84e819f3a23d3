import type * as Chromium from '../core/node/export/chromium';

/**
 * Stands in for core/node/export/chromium.ts in the desktop build (electron.vite.config.ts): that
 * file loads playwright-core, a development dependency a packaged app does not contain. The desktop
 * app prints with Electron (pdf-printer.ts, passed to createApp as `printPdf`), so nothing calls
 * this printer; were something to, it says so rather than failing on a missing module.
 */

export const chromiumPrinter: typeof Chromium.chromiumPrinter = async () => {
  throw new Error('the desktop app prints PDFs with Electron; the headless Chromium printer is not part of it');
};

export const findChromium: typeof Chromium.findChromium = () => null;

export const HEADLESS_ARGS: typeof Chromium.HEADLESS_ARGS = [];
