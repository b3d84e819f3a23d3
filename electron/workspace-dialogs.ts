import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserWindow, dialog } from 'electron';
import { initWorkspace } from '../core/node/workspace/init-workspace';
import type { Log } from '../core/ports/log';

/**
 * Asks for a workspace folder. A folder without `ideas/` is not a workspace yet: the researcher is
 * asked whether to make it one (with the sample ideas, as on the first run); nothing in it is
 * touched otherwise. Returns the folder, or null when they cancel.
 */
export async function pickWorkspaceFolder(parent: BrowserWindow | null, log: Log): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Open a workspace folder',
    buttonLabel: 'Open Workspace',
    properties: ['openDirectory', 'createDirectory'],
  };
  const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  const folder = picked.canceled ? undefined : picked.filePaths[0];
  if (!folder) return null;
  if (existsSync(join(folder, 'ideas'))) return folder;
  const question: Electron.MessageBoxOptions = {
    type: 'question',
    buttons: ['Create Workspace', 'Cancel'],
    defaultId: 0,
    cancelId: 1,
    message: `${folder} is not a Crucible workspace yet.`,
    detail:
      'Create one there? Crucible adds an ideas/ folder with a few sample ideas and a personas/ folder; nothing already in the folder is changed.',
  };
  const answer = parent ? await dialog.showMessageBox(parent, question) : await dialog.showMessageBox(question);
  if (answer.response !== 0) return null;
  const { report } = initWorkspace(folder);
  log.info('created a workspace', { workspace: folder, ideas: report.ideas });
  return folder;
}

/** When the workspace cannot be opened at start: choose another folder, or quit. */
export async function askAfterOpenFailure(root: string, reason: string): Promise<'choose' | 'quit'> {
  const answer = await dialog.showMessageBox({
    type: 'error',
    buttons: ['Choose Another Folder…', 'Quit'],
    defaultId: 0,
    cancelId: 1,
    message: `Crucible could not open the workspace ${root}.`,
    detail: `${reason}\n\nNothing in the folder was changed.`,
  });
  return answer.response === 0 ? 'choose' : 'quit';
}
