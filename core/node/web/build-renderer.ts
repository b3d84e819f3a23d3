import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under `dir` (files only), 0 when there is nothing. */
function newestMtime(dir: string): number {
  let newest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * True when `out/renderer` is missing or older than what it is built from (the renderer and the
 * contract it imports).
 */
export function rendererIsStale(root: string, outDir = join(root, 'out', 'renderer')): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const sources = Math.max(
    newestMtime(join(root, 'renderer')),
    newestMtime(join(root, 'core', 'contract')),
    statSync(join(root, 'core', 'contract.ts')).mtimeMs,
    statSync(join(root, 'vite.renderer.config.ts')).mtimeMs,
  );
  return sources > built;
}

/**
 * Builds the renderer into `out/renderer` when it is missing or stale (browser mode and the
 * end-to-end tests call this first). Needs the development dependencies (vite), as running from
 * source does; returns whether it built.
 */
export async function ensureRendererBuilt(root: string, log: (line: string) => void = () => {}): Promise<boolean> {
  if (!rendererIsStale(root)) return false;
  log('Building the user interface (once, until its sources change)…');
  // In a process of its own with NODE_ENV=production: vite and the React plugin read NODE_ENV when
  // they load, and a caller's (vitest sets "test") would give a development build, or a mix of the
  // development JSX runtime with production React.
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [vite, 'build', '--config', join(root, 'vite.renderer.config.ts'), '--logLevel', 'warn'],
      { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`building the user interface failed:\n${stderr || error.message}`));
        else resolve();
      },
    );
  });
  return true;
}
