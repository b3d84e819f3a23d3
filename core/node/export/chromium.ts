import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PdfPrinter } from './pdf-printer';

/** A Chromium or Chrome on this machine: $CRUCIBLE_CHROMIUM, else the usual install paths. */
export function findChromium(): string | null {
  const candidates = [
    process.env.CRUCIBLE_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ];
  return candidates.find((p): p is string => !!p && existsSync(p)) ?? null;
}

/** Flags for a quiet, offline headless browser with a throwaway profile. */
export const HEADLESS_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Prints a self-contained HTML page to PDF with headless Chromium (A4, backgrounds on). */
export const chromiumPrinter: PdfPrinter = async (html, signal) => {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error(
      'PDF export needs Chromium or Chrome: install it (e.g. apt-get install chromium) or set CRUCIBLE_CHROMIUM to its path',
    );
  }
  signal?.throwIfAborted();
  // Loaded only when a PDF is asked for: a development dependency, which the desktop app does not
  // ship (it prints with Electron instead, and its build leaves this file out: electron.vite.config.ts).
  const { chromium } = await import('playwright-core');
  signal?.throwIfAborted();
  const profile = mkdtempSync(join(tmpdir(), 'crucible-print-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      args: HEADLESS_ARGS,
      headless: true,
      offline: true,
    });
    // A cancel closes the browser, which ends whatever step the print is in.
    const stop = () => void context.close().catch(() => {});
    signal?.addEventListener('abort', stop, { once: true });
    try {
      signal?.throwIfAborted();
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
      signal?.throwIfAborted();
      return pdf;
    } finally {
      signal?.removeEventListener('abort', stop);
      await context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
};
