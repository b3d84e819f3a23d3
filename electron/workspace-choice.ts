import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initWorkspace } from '../core/node/workspace/init-workspace';
import type { Log } from '../core/ports/log';
import { writePrivateFile } from './private-file';

/**
 * Which workspace folder the desktop app opens (docs/desktop.md):
 *   1. the one the researcher chose last (File → Open Workspace…), kept in `<userData>/desktop-settings.json`;
 *   2. else $CRUCIBLE_WORKSPACE, the folder the CLI uses too;
 *   3. else `~/Crucible`: on the first run it is created with the sample ideas (as `npm run cli -- init`
 *      does) and remembered; an existing workspace there is simply opened.
 */

export interface DesktopSettings {
  workspace?: string;
}

export type WorkspaceSource = 'settings' | 'environment' | 'default';

export interface WorkspaceChoice {
  root: string;
  source: WorkspaceSource;
  /** True when this run created the folder with the sample ideas. */
  created: boolean;
}

export function readDesktopSettings(file: string, log: Log): DesktopSettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      const workspace = (parsed as { workspace?: unknown }).workspace;
      return typeof workspace === 'string' && workspace.trim() !== '' ? { workspace } : {};
    }
  } catch {}
  log.warn('the desktop settings file is damaged and was ignored', { file });
  return {};
}

/** Remembers the workspace folder for the next start (other settings in the file are kept). */
export function saveWorkspaceChoice(file: string, workspace: string, log: Log): void {
  let existing: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      existing = parsed as Record<string, unknown>;
  } catch {}
  writePrivateFile(file, `${JSON.stringify({ ...existing, workspace: resolve(workspace) }, null, 2)}\n`);
  log.info('workspace folder remembered', { workspace: resolve(workspace) });
}

export function chooseWorkspace(options: {
  settingsFile: string;
  env: NodeJS.ProcessEnv;
  home: string;
  log: Log;
}): WorkspaceChoice {
  const { settingsFile, env, home, log } = options;
  const saved = readDesktopSettings(settingsFile, log).workspace;
  if (saved) return { root: resolve(saved), source: 'settings', created: false };
  const fromEnv = env.CRUCIBLE_WORKSPACE?.trim();
  if (fromEnv) return { root: resolve(fromEnv), source: 'environment', created: false };

  const root = join(home, 'Crucible');
  let created = false;
  // An `ideas/` folder that is there but empty is a workspace too (the researcher emptied it):
  // only a folder without one gets the samples.
  if (!existsSync(join(root, 'ideas'))) {
    const { report } = initWorkspace(root);
    created = true;
    log.info('created the default workspace with the sample ideas', { workspace: root, ideas: report.ideas });
  }
  saveWorkspaceChoice(settingsFile, root, log);
  return { root, source: 'default', created };
}
