import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IDEAS_DIR, isTransientName } from '../../idea/layout';
import type { ScannedFile } from '../../sync/types';

/**
 * Walks `<root>/<rel>` and returns every regular file under it with size and mtime, paths relative
 * to `root` with forward slashes. Transient names (swap files, our temp files) and symbolic links to
 * folders are skipped; a folder that vanishes mid-walk is simply not there.
 *
 * A full reconcile stats every file of the library, so this loop is kept lean: one `readdir` per
 * folder, one `stat` per file that does not throw for a file gone in between, and no path joining
 * per file (Node accepts `/` on every platform).
 */
export function walkFiles(root: string, rel: string, out: ScannedFile[] = []): ScannedFile[] {
  const dir = `${root}/${rel}`;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const name = entry.name;
    if (isTransientName(name)) continue;
    if (entry.isDirectory()) {
      walkFiles(root, `${rel}/${name}`, out);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      // Gone between readdir and stat: the next event will tell us.
      const stat = statSync(`${dir}/${name}`, { throwIfNoEntry: false });
      if (stat?.isFile()) out.push({ path: `${rel}/${name}`, size: stat.size, mtimeMs: stat.mtimeMs });
    }
  }
  return out;
}

/** The idea folders of a workspace (`ideas/<slug>/`): not `_`-prefixed, not transient, not loose files. */
export function ideaFolderNames(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, IDEAS_DIR), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && !entry.name.startsWith('_') && !isTransientName(entry.name)) out.push(entry.name);
  }
  return out;
}

/** Every file of every idea folder (`ideas/<slug>/…`); loose files directly in `ideas/` are not ideas. */
export function scanIdeas(root: string): ScannedFile[] {
  const out: ScannedFile[] = [];
  for (const slug of ideaFolderNames(root)) walkFiles(root, `${IDEAS_DIR}/${slug}`, out);
  return out;
}

export function scanIdea(root: string, slug: string): ScannedFile[] {
  return walkFiles(root, `${IDEAS_DIR}/${slug}`);
}
