import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { appRoot } from '../app-root';
import type { SyncReport } from './sync-pass';
import { UserError, Workspace } from './workspace';

/**
 * Creates a workspace at `dir` holding the sample ideas (the CLI's `init`, and the desktop app's
 * first run). Never overwrites: a folder whose `ideas/` already holds anything is refused.
 * Returns the first sync's report (how many sample ideas were indexed).
 */
export function initWorkspace(target: string): { dir: string; report: SyncReport } {
  const dir = resolve(target);
  if (existsSync(join(dir, 'ideas')) && readdirSync(join(dir, 'ideas')).length > 0) {
    throw new UserError(`${dir} already holds ideas; init never overwrites a workspace`);
  }
  mkdirSync(join(dir, 'ideas'), { recursive: true });
  mkdirSync(join(dir, 'personas'), { recursive: true });
  const samples = join(appRoot(), 'ideas');
  for (const entry of readdirSync(samples, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    cpSync(join(samples, entry.name), join(dir, 'ideas', entry.name), {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
  }
  const ws = Workspace.open(dir);
  try {
    return { dir, report: ws.sync() };
  } finally {
    ws.close();
  }
}
