import { basename, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { rendererConfig } from './vite.renderer.config';

/**
 * The desktop build (`npm run build`, `npm run dev`): the main process (electron/main.ts →
 * out/main/main.js, ES module), the preload (electron/preload.ts → out/preload/preload.cjs, one
 * CommonJS file with its imports bundled in, as a sandboxed preload must be) and the renderer (the
 * same build browser mode uses → out/renderer).
 */

const root = import.meta.dirname;

/**
 * In development only: the dev server puts an inline script into the page (React's hot-reload
 * preamble) that the page's strict policy (renderer/index.html) would block. The built page,
 * which is what ships, keeps `script-src 'self'`.
 */
function allowDevPreamble(): Plugin {
  return {
    name: 'crucible:dev-preamble-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
  };
}

/**
 * Files the desktop main process is built with a stand-in for (project-relative). The headless
 * Chromium printer loads playwright-core, a development dependency: the desktop app prints with
 * Electron instead (electron/pdf-printer.ts), so its bundle leaves that printer out rather than
 * requiring a package a packaged app does not have. tests/build/main-dependencies.test.ts checks
 * that, with these, nothing the main process imports is missing from package.json `dependencies`.
 */
export const MAIN_SUBSTITUTES: Readonly<Record<string, string>> = {
  'core/node/export/chromium.ts': 'electron/no-chromium-printer.ts',
};

function substitute(files: Readonly<Record<string, string>>): Plugin {
  const targets = new Map(Object.entries(files).map(([from, to]) => [resolve(root, from), resolve(root, to)]));
  const names = new Set(Object.keys(files).map((from) => basename(from, '.ts')));
  return {
    name: 'crucible:desktop-substitutes',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      // Only relative imports whose last segment names a substituted file are looked at twice.
      if (!importer || !source.startsWith('.') || !names.has(basename(source, '.ts'))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      return targets.get(resolved.id) ?? resolved;
    },
  };
}

export default defineConfig(() => {
  const renderer = rendererConfig(root);
  return {
    main: {
      plugins: [substitute(MAIN_SUBSTITUTES)],
      build: {
        outDir: resolve(root, 'out/main'),
        // better-sqlite3 (native), chokidar, the model SDKs … stay in node_modules and are loaded at
        // run time (electron-vite leaves every dependency of package.json external, and only those:
        // a packaged app has no development dependencies; see MAIN_SUBSTITUTES).
        rolldownOptions: { input: { main: resolve(root, 'electron/main.ts') } },
      },
    },
    preload: {
      build: {
        outDir: resolve(root, 'out/preload'),
        // The sandboxed preload can require nothing but 'electron': bundle its imports (the
        // contract and zod) into the one file.
        externalizeDeps: false,
        rolldownOptions: {
          input: { preload: resolve(root, 'electron/preload.ts') },
          output: { format: 'cjs' as const, entryFileNames: '[name].cjs' },
        },
      },
    },
    renderer: {
      ...renderer,
      plugins: [...(renderer.plugins ?? []), allowDevPreamble()],
    },
  };
});
