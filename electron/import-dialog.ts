import { type BrowserWindow, dialog } from 'electron';
import type { App } from '../core/node/app/create-app';
import type { Log } from '../core/ports/log';

/** The most notes a result box names one by one; the rest are counted. */
const LISTED = 15;

/**
 * File → Import a Folder of Notes…: asks for a folder (an Obsidian vault, a Zettelkasten), imports
 * it through `ideas:import` (the folder is only read) and says what became of its notes, naming each
 * one that was not imported. The page never names a folder: the shell picks it and calls the
 * handler itself, as the CLI's `import DIR` does.
 */
export async function importNotesFolder(parent: BrowserWindow | null, app: App | null, log: Log): Promise<void> {
  if (!app) return;
  const options: Electron.OpenDialogOptions = {
    title: 'Import a folder of notes',
    buttonLabel: 'Import Notes',
    properties: ['openDirectory'],
  };
  const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  const folder = picked.canceled ? undefined : picked.filePaths[0];
  if (!folder) return;
  let box: Electron.MessageBoxOptions;
  try {
    const report = await app.handlers['ideas:import']({ path: folder });
    log.info('imported a folder of notes', {
      folder,
      created: report.created.length,
      skipped: report.skipped.length,
      errors: report.errors.length,
    });
    const failed = report.errors.slice(0, LISTED).map((e) => `${e.file}: ${e.reason}`);
    if (report.errors.length > LISTED) failed.push(`… and ${report.errors.length - LISTED} more`);
    box = {
      type: report.errors.length > 0 ? 'warning' : 'info',
      message: `Imported ${report.created.length} note(s) as ideas.`,
      detail: [
        `${report.skipped.length} already imported (left as they are), ${report.errors.length} not imported, ${report.ignored} other file(s) left out. The folder was not changed.`,
        ...(failed.length > 0 ? ['', ...failed] : []),
      ].join('\n'),
    };
  } catch (error) {
    box = { type: 'error', message: 'The folder could not be imported.', detail: (error as Error).message };
  }
  if (parent) await dialog.showMessageBox(parent, box);
  else await dialog.showMessageBox(box);
}
