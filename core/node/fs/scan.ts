import * as fs from 'node:fs';
import { join } from 'node:path';
import { IDEAS_DIR, isTransientName } from '../../idea/layout';
import type { FolderListing, ScannedFile } from '../../sync/types';

/** Everything a walker uses, handed in so that `createWalker` itself needs no imports. */
export interface WalkerDeps {
  fs: Pick<typeof fs, 'readdirSync' | 'statSync'>;
  isTransientName(name: string): boolean;
}

/** Appends every regular file under `<root>/<rel>` to `out` and returns it. */
export type Walker = (root: string, rel: string, out: ScannedFile[]) => ScannedFile[];

/**
 * A walker: every regular file under `<root>/<rel>` with size and mtime, paths relative to `root`
 * with forward slashes. Transient names (swap files, our temp files) and symbolic links to folders
 * are skipped; a folder that vanishes mid-walk is simply not there.
 *
 * A full reconcile stats every file of the library, so the loop is kept lean: one `readdir` per
 * folder, one `stat` per file that does not throw for a file gone in between, and no path joining
 * per file (Node accepts `/` on every platform). Self-contained (nothing but its arguments and
 * globals) because a restart of a large library runs its source text on a worker thread as well
 * (`read-pool.ts`).
 */
export function createWalker(deps: WalkerDeps): Walker {
  const walk = (root: string, rel: string, out: ScannedFile[]): ScannedFile[] => {
    const dir = `${root}/${rel}`;
    let entries: fs.Dirent[];
    try {
      entries = deps.fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return out;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (deps.isTransientName(name)) continue;
      if (entry.isDirectory()) {
        walk(root, `${rel}/${name}`, out);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        // Gone between readdir and stat: the next event will tell us.
        const stat = deps.fs.statSync(`${dir}/${name}`, { throwIfNoEntry: false });
        if (stat?.isFile()) out.push({ path: `${rel}/${name}`, size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
    return out;
  };
  return walk;
}

const walkHere = createWalker({ fs, isTransientName });

/** Walks `<root>/<rel>` in this thread (see `createWalker`). */
export function walkFiles(root: string, rel: string, out: ScannedFile[] = []): ScannedFile[] {
  return walkHere(root, rel, out);
}

/** The idea folders of a workspace (`ideas/<slug>/`): not `_`-prefixed, not transient, not loose files. */
export function ideaFolderNames(root: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(join(root, IDEAS_DIR), { withFileTypes: true });
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

/** How long a folder must have been unchanged before its listing is recorded (see `walkWithListings`). */
export const LISTING_SETTLE_MS = 2000;

/** A full walk that used recorded folder listings where it could. */
export interface ListedWalk {
  /** The idea folders on disk. */
  folders: string[];
  /** Idea folders not confirmed unchanged: their files are in `files`, to compare with the index. */
  unconfirmed: string[];
  files: ScannedFile[];
  /** Listings to record: folders listed afresh, or whose files changed, and unchanged for a while. */
  record: FolderListing[];
  /** Recorded folders this walk did not find. */
  stale: string[];
}

/** The file names of a recorded listing, in its (sorted) order. */
function namesOf(listing: FolderListing): string[] {
  if (listing.files === '') return [];
  return listing.files.split('\n').map((line) => line.slice(0, line.indexOf('\t')));
}

/**
 * The whole library's walk for a restart, with recorded listings standing in for `readdir`.
 *
 * A folder whose mtime and ctime equal its recorded listing still holds the same entries: adding,
 * removing or renaming an entry updates both, and a ctime cannot be set back. Its files are then
 * stat-ed from the listing instead of listing the folder again (a stat costs a third of a
 * `readdir` here). An idea folder whose folders all match their listings and whose files all have
 * the recorded size and mtime is confirmed unchanged; the index holds exactly what those listings
 * describe (full syncs write them with the rows, any other pass over a folder drops them), so it
 * needs no comparison at all. Everything else is compared with the index as before.
 *
 * A folder is only recorded when its ctime is older than `trustBefore` (the walk's start minus a
 * margin): an entry added within the same timestamp tick as a change just before the walk would
 * otherwise leave the times equal.
 */
export function walkWithListings(
  root: string,
  listings: ReadonlyMap<string, FolderListing>,
  trustBefore: number,
): ListedWalk {
  const folders = ideaFolderNames(root);
  const result: ListedWalk = { folders, unconfirmed: [], files: [], record: [], stale: [] };
  const visited = new Set<string>();

  /** Walks one folder into `out`; true when it and everything under it is as recorded. */
  const walkFolder = (rel: string, out: ScannedFile[]): boolean => {
    const dir = `${root}/${rel}`;
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return false;
    const recorded = listings.get(rel);
    if (recorded) visited.add(rel);
    let subfolders: string[] | null = null;
    let lines = '';
    if (recorded && recorded.mtimeMs === stat.mtimeMs && recorded.ctimeMs === stat.ctimeMs) {
      // Same entries as recorded: stat the recorded files and keep them if all are as they were.
      const mine: ScannedFile[] = [];
      for (const name of namesOf(recorded)) {
        const file = fs.statSync(`${dir}/${name}`, { throwIfNoEntry: false });
        if (!file?.isFile()) continue;
        mine.push({ path: `${rel}/${name}`, size: file.size, mtimeMs: file.mtimeMs });
        lines += `${lines === '' ? '' : '\n'}${name}\t${file.size}\t${file.mtimeMs}`;
      }
      if (lines === recorded.files) {
        for (const file of mine) out.push(file);
        subfolders = recorded.subfolders;
      }
    }
    const same = subfolders !== null;
    if (subfolders === null) {
      // Listed afresh: the folder changed, was never recorded, or a file in it did.
      subfolders = [];
      const names: string[] = [];
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        // Unreadable: nothing under it is seen, as in any walk.
      }
      for (const entry of entries) {
        if (isTransientName(entry.name)) continue;
        if (entry.isDirectory()) subfolders.push(entry.name);
        else if (entry.isFile() || entry.isSymbolicLink()) names.push(entry.name);
      }
      names.sort();
      subfolders.sort();
      lines = '';
      for (const name of names) {
        const file = fs.statSync(`${dir}/${name}`, { throwIfNoEntry: false });
        if (!file?.isFile()) continue;
        out.push({ path: `${rel}/${name}`, size: file.size, mtimeMs: file.mtimeMs });
        lines += `${lines === '' ? '' : '\n'}${name}\t${file.size}\t${file.mtimeMs}`;
      }
      // A name holding a tab or a line break cannot be told apart in the record: list such a folder every time.
      const plainNames = !names.some((n) => /[\t\n]/.test(n)) && !subfolders.some((n) => /[\t\n]/.test(n));
      if (plainNames && stat.ctimeMs > 0 && stat.ctimeMs < trustBefore && stat.mtimeMs < trustBefore) {
        result.record.push({ path: rel, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, subfolders, files: lines });
      }
    }
    let all = same;
    for (const sub of subfolders) if (!walkFolder(`${rel}/${sub}`, out)) all = false;
    return all;
  };

  for (const slug of folders) {
    const out: ScannedFile[] = [];
    if (walkFolder(`${IDEAS_DIR}/${slug}`, out)) continue;
    result.unconfirmed.push(slug);
    for (const file of out) result.files.push(file);
  }
  if (visited.size < listings.size) for (const path of listings.keys()) if (!visited.has(path)) result.stale.push(path);
  return result;
}
