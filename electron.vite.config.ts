import { resolve } from 'node:path';
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

export default defineConfig(() => {
  const renderer = rendererConfig(root);
  return {
    main: {
      build: {
        outDir: resolve(root, 'out/main'),
        // better-sqlite3 (native), chokidar, the model SDKs … stay in node_modules and are loaded at
        // run time (electron-vite leaves every dependency of package.json external). So does
        // playwright-core, which the PDF export loads only when asked (a development dependency: a
        // packaged build has no PDF export through it; docs/desktop.md).
        externalizeDeps: { include: ['playwright-core'] },
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
