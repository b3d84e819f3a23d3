import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IDEAS_DIR, isTransientName } from '../../idea/layout';
import type { ScannedFile } from '../../sync/types';

/**
 * Walks `<root>/<rel>` and returns every regular file under it with size and mtime, paths relative
 * to `root` with forward slashes. Transient names (swap files, our temp files) and symbolic links to
 * folders are skipped; a folder that vanishes mid-walk is simply not there.
 */
export function walkFiles(root: string, rel: string, out: ScannedFile[] = []): ScannedFile[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (isTransientName(entry.name)) continue;
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      walkFiles(root, path, out);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      try {
        const stat = statSync(join(root, path));
        if (stat.isFile()) out.push({ path, size: stat.size, mtimeMs: stat.mtimeMs });
      } catch {
        // Gone between readdir and stat: the next event will tell us.
      }
    }
  }
  return out;
}

/** Every file of every idea folder (`ideas/<slug>/…`); loose files directly in `ideas/` are not ideas. */
export function scanIdeas(root: string): ScannedFile[] {
  const out: ScannedFile[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, IDEAS_DIR), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('_') || isTransientName(entry.name)) continue;
    walkFiles(root, `${IDEAS_DIR}/${entry.name}`, out);
  }
  return out;
}

export function scanIdea(root: string, slug: string): ScannedFile[] {
  return walkFiles(root, `${IDEAS_DIR}/${slug}`);
}
