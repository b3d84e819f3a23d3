/**
 * What the PDF export prints through: a self-contained HTML page in (inline CSS, no scripts, nothing
 * fetched), the PDF's bytes out — A4 unless the page's own `@page` says otherwise, backgrounds
 * printed. The host chooses the printer: headless Chromium for the CLI and browser mode
 * (chromium.ts), Electron's own `printToPDF` in the desktop app (electron/pdf-printer.ts), which
 * ships no separate browser. A `signal` that aborts stops the print at once (the browser or window is
 * closed) and the promise rejects.
 */
export type PdfPrinter = (html: string, signal?: AbortSignal) => Promise<Uint8Array>;
