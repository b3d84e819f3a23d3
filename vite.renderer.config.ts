import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';

/**
 * The renderer's build, shared by the desktop build (electron.vite.config.ts) and browser mode,
 * which builds it on demand when `out/renderer` is missing or older than the sources.
 */
export function rendererConfig(root = import.meta.dirname): UserConfig {
  return {
    root: resolve(root, 'renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      // electron-vite leaves minifying off by default; the page loads faster minified either way.
      minify: true,
      chunkSizeWarningLimit: 2000,
      rolldownOptions: { input: resolve(root, 'renderer/index.html') },
    },
  };
}

export default rendererConfig();
