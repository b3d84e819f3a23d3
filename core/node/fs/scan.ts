import * as fs from 'node:fs';
import { join } from 'node:path';
import { IDEAS_DIR, isTransientName } from '../../idea/layout';
import type { FolderListing, ListingRow, ScannedFile } from '../../sync/types';
import { describeReadError, entryRule } from './entry-rule';
import { createStatJob, type StatJob, type StatTable, statShared } from './shared-stats';

/** Everything a walker uses, handed in so that `createWalker` itself needs no imports. */
export interface WalkerDeps {
  fs: Pick<typeof fs, 'readdirSync' | 'lstatSync'>;
  isTransientName(name: string): boolean;
  entryRule: typeof entryRule;
  describeReadError: typeof describeReadError;
}

/** Appends every regular file under the idea folder `<root>/<rel>` to `out` and returns it. */
export type Walker = (root: string, rel: string, out: ScannedFile[]) => ScannedFile[];

/**
 * A walker: every regular file under an idea folder `<root>/<rel>` with size and mtime, paths
 * relative to `root` with forward slashes. Transient names (swap files, our temp files) are
 * skipped; a folder that vanishes mid-walk is simply not there. Whatever `entryRule` refuses (a
 * symbolic link, the idea folder itself being one, a folder where a file belongs) and a folder that
 * cannot be listed are in `out` too, with their `problem`: they are reported by path, never
 * followed, and never silently missing.
 *
 * A full reconcile stats every file of the library, so the loop is kept lean: one `readdir` per
 * folder, one `lstat` per file that does not throw for a file gone in between, and no path joining
 * per file (Node accepts `/` on every platform). Self-contained (nothing but its arguments and
 * globals) so that its source text could run on a worker thread as the reader's does.
 */
export function createWalker(deps: WalkerDeps): Walker {
  const report = (out: ScannedFile[], root: string, rel: string, reason: string): void => {
    const stat = deps.fs.lstatSync(`${root}/${rel}`, { throwIfNoEntry: false });
    if (stat) out.push({ path: rel, size: stat.size, mtimeMs: stat.mtimeMs, problem: reason });
  };
  const walk = (root: string, rel: string, top: boolean, out: ScannedFile[]): void => {
    const dir = `${root}/${rel}`;
    let entries: fs.Dirent[];
    try {
      entries = deps.fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // Gone is simply not there; anything else (no permission) is said.
      const code = (error as { code?: string }).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') report(out, root, rel, deps.describeReadError(error, true));
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (deps.isTransientName(name)) continue;
      const verdict = deps.entryRule(name, top, entry);
      if (verdict === 'folder') walk(root, `${rel}/${name}`, false, out);
      else if (verdict === 'file') {
        // Gone between readdir and lstat: the next event will tell us.
        const stat = deps.fs.lstatSync(`${dir}/${name}`, { throwIfNoEntry: false });
        if (!stat) continue;
        if (stat.isFile()) out.push({ path: `${rel}/${name}`, size: stat.size, mtimeMs: stat.mtimeMs });
        else {
          // Swapped since the listing (for a link, say): the rule applies to what is there now.
          const now = deps.entryRule(name, top, stat);
          if (now !== 'folder' && now !== 'file')
            out.push({ path: `${rel}/${name}`, size: stat.size, mtimeMs: stat.mtimeMs, problem: now });
        }
      } else report(out, root, `${rel}/${name}`, verdict);
    }
  };
  return (root, rel, out) => {
    // The idea folder itself may be a link: reported, never walked.
    const stat = deps.fs.lstatSync(`${root}/${rel}`, { throwIfNoEntry: false });
    if (stat?.isDirectory()) walk(root, rel, true, out);
    else if (stat?.isSymbolicLink()) {
      out.push({ path: rel, size: stat.size, mtimeMs: stat.mtimeMs, problem: deps.entryRule('', false, stat) });
    }
    return out;
  };
}

const walkHere = createWalker({ fs, isTransientName, entryRule, describeReadError });

/** Walks `<root>/<rel>` in this thread (see `createWalker`). */
export function walkFiles(root: string, rel: string, out: ScannedFile[] = []): ScannedFile[] {
  return walkHere(root, rel, out);
}

/**
 * The idea folders of a workspace (`ideas/<slug>/`): not `_`-prefixed, not transient, not loose
 * files. A symbolic link in `ideas/` is among them, so that every walk reports it (never follows it).
 */
export function ideaFolderNames(root: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(join(root, IDEAS_DIR), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (!(entry.isDirectory() || entry.isSymbolicLink())) continue;
    if (!entry.name.startsWith('_') && !isTransientName(entry.name)) out.push(entry.name);
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

/** Below this many recorded paths a walk stats them itself: sharing them out costs more than it saves. */
const MIN_PATHS_TO_SHARE = 4000;

/** A helper thread's offer to take part of a walk's stats (see `shared-stats.ts`). */
export interface StatShare {
  /** Hands the job over; the walk stats whatever the helper does not take. */
  to(job: StatJob): void;
  /** Fewer recorded paths than this are statted here alone (default `MIN_PATHS_TO_SHARE`). */
  minPaths?: number;
}

/**
 * The absolute path of every folder and file that confirming `folders` against their recorded
 * listings will stat, in walk order (a folder, its files, then its subfolders the same way), and
 * where each recorded folder's own path is in that list.
 */
function recordedPaths(
  root: string,
  folders: readonly string[],
  listings: ReadonlyMap<string, ListingRow>,
): { paths: string[]; startOf: Map<string, number> } {
  const paths: string[] = [];
  const startOf = new Map<string, number>();
  const add = (rel: string): void => {
    const recorded = listings.get(rel);
    if (!recorded) return;
    const dir = `${root}/${rel}`;
    startOf.set(rel, paths.length);
    paths.push(dir);
    const files = recorded[4];
    for (let at = 0; at < files.length; ) {
      const tab = files.indexOf('\t', at);
      const end = files.indexOf('\n', tab);
      paths.push(`${dir}/${files.slice(at, tab)}`);
      at = end < 0 ? files.length : end + 1;
    }
    if (recorded[3] !== '') for (const sub of recorded[3].split('\n')) add(`${rel}/${sub}`);
  };
  for (const slug of folders) add(`${IDEAS_DIR}/${slug}`);
  return { paths, startOf };
}

/** The names a recorded listing holds: its subfolders' and its files'. */
function recordedNames(subfolders: string, files: string): string[] {
  const names = subfolders === '' ? [] : subfolders.split('\n');
  for (let at = 0; at < files.length; ) {
    const tab = files.indexOf('\t', at);
    const end = files.indexOf('\n', tab);
    names.push(files.slice(at, tab));
    at = end < 0 ? files.length : end + 1;
  }
  return names;
}

/**
 * True when a folder holds exactly the recorded names, transient names aside. Anything the record
 * leaves out (a link to a folder, a socket) makes the folder differ, so it is listed afresh: more
 * work for a rare folder, never a missed change.
 */
function holdsRecordedNames(dir: string, subfolders: string, files: string): boolean {
  let listed: string[];
  try {
    listed = fs.readdirSync(dir);
  } catch {
    return false;
  }
  const recorded = recordedNames(subfolders, files);
  let count = 0;
  for (const name of listed) if (!isTransientName(name)) count++;
  if (count !== recorded.length) return false;
  // Names in a folder are unique, so as many names, each of them recorded, is the same set.
  const known = new Set(recorded);
  for (const name of listed) if (!isTransientName(name) && !known.has(name)) return false;
  return true;
}

export interface WalkOptions {
  /** Shares a large library's stats out with a helper thread (see `shared-stats.ts`). */
  share?: StatShare;
  /**
   * Lists every recorded folder as well and compares its names with the record, instead of
   * trusting the folder's times to show an added or removed name. Some network and cloud drives
   * keep no folder times; the watcher's first pass uses this so such a drive is caught up too.
   */
  listEvery?: boolean;
}

/**
 * A full walk of `ideas/` that confirms each idea folder against its recorded listing where it can
 * (see `confirm` below) and lists the others afresh.
 */
export function walkWithListings(
  root: string,
  listings: ReadonlyMap<string, ListingRow>,
  trustBefore: number,
  options: WalkOptions = {},
): ListedWalk {
  const { share, listEvery = false } = options;
  const folders = ideaFolderNames(root);
  const result: ListedWalk = { folders, unconfirmed: [], files: [], record: [], stale: [] };
  const visited = new Set<string>();
  // Every recorded path is statted first, in one go (shared out with a helper thread for a large
  // library), then the listings are compared with the results by position: no path is built or
  // looked up twice, and nothing is allocated per path.
  let stats: StatTable | null = null;
  let startOf = new Map<string, number>();
  if (listings.size > 0) {
    const recorded = recordedPaths(root, folders, listings);
    startOf = recorded.startOf;
    const job = createStatJob(recorded.paths);
    if (share && recorded.paths.length >= (share.minPaths ?? MIN_PATHS_TO_SHARE)) share.to(job);
    // lstat: a recorded folder or file that is now a link is not what was recorded.
    stats = statShared(fs.lstatSync, job);
  }

  /**
   * True when a folder and everything under it is exactly as recorded: its times match its
   * listing, every recorded file has the recorded size and mtime, and the same holds below. It
   * stops at the first difference (the idea folder is then walked afresh) and builds no path and no
   * object for a folder that matches, since that is nearly every folder of a restart.
   */
  const confirm = (rel: string): boolean => {
    const recorded = listings.get(rel);
    if (!recorded) return false;
    visited.add(rel);
    let i = startOf.get(rel);
    if (i === undefined || stats === null) return false;
    const [, mtimeMs, ctimeMs, subfolders, files] = recorded;
    if (!stats.isDirectory(i) || stats.mtimeMs(i) !== mtimeMs || stats.ctimeMs(i) !== ctimeMs) return false;
    if (listEvery && !holdsRecordedNames(`${root}/${rel}`, subfolders, files)) return false;
    // Each line is `name<TAB>size<TAB>mtime`; the name's path was statted at the next position.
    for (let at = 0; at < files.length; ) {
      i++;
      if (!stats.isFile(i)) return false;
      const tab = files.indexOf('\t', at);
      const rest = `\t${stats.size(i)}\t${stats.mtimeMs(i)}`;
      const end = tab + rest.length;
      if (!files.startsWith(rest, tab) || (end < files.length && files.charCodeAt(end) !== 10)) return false;
      at = end + 1;
    }
    if (subfolders !== '') for (const sub of subfolders.split('\n')) if (!confirm(`${rel}/${sub}`)) return false;
    return true;
  };

  /**
   * Lists a folder and everything under it into `out`, recording the listings of settled folders.
   * Entries are taken as `entryRule` says (what it refuses goes into `out` with its `problem`); a
   * folder holding any such entry is never recorded, so it is listed afresh every time.
   */
  const walkFresh = (rel: string, top: boolean, out: ScannedFile[]): void => {
    const dir = `${root}/${rel}`;
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isSymbolicLink()) {
      out.push({ path: rel, size: stat.size, mtimeMs: stat.mtimeMs, problem: entryRule('', false, stat) });
      return;
    }
    if (!stat.isDirectory()) return;
    if (listings.has(rel)) visited.add(rel);
    const subfolders: string[] = [];
    const names: string[] = [];
    let entries: fs.Dirent[] = [];
    let clean = true;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        out.push({ path: rel, size: stat.size, mtimeMs: stat.mtimeMs, problem: describeReadError(error, true) });
      }
      return;
    }
    const refuse = (name: string, reason: string): void => {
      clean = false;
      const found = fs.lstatSync(`${dir}/${name}`, { throwIfNoEntry: false });
      if (found) out.push({ path: `${rel}/${name}`, size: found.size, mtimeMs: found.mtimeMs, problem: reason });
    };
    for (const entry of entries) {
      if (isTransientName(entry.name)) continue;
      const verdict = entryRule(entry.name, top, entry);
      if (verdict === 'folder') subfolders.push(entry.name);
      else if (verdict === 'file') names.push(entry.name);
      else refuse(entry.name, verdict);
    }
    names.sort();
    subfolders.sort();
    let lines = '';
    for (const name of names) {
      const file = fs.lstatSync(`${dir}/${name}`, { throwIfNoEntry: false });
      if (!file) continue;
      if (!file.isFile()) {
        // Swapped since the listing (for a link, say): the rule applies to what is there now.
        const now = entryRule(name, top, file);
        if (now !== 'folder' && now !== 'file') refuse(name, now);
        else clean = false;
        continue;
      }
      out.push({ path: `${rel}/${name}`, size: file.size, mtimeMs: file.mtimeMs });
      lines += `${lines === '' ? '' : '\n'}${name}\t${file.size}\t${file.mtimeMs}`;
    }
    // A name holding a tab or a line break cannot be told apart in the record: list such a folder every time.
    const plainNames = !names.some((n) => /[\t\n]/.test(n)) && !subfolders.some((n) => /[\t\n]/.test(n));
    if (clean && plainNames && stat.ctimeMs > 0 && stat.ctimeMs < trustBefore && stat.mtimeMs < trustBefore) {
      result.record.push({ path: rel, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, subfolders, files: lines });
    }
    for (const sub of subfolders) walkFresh(`${rel}/${sub}`, false, out);
  };

  for (const slug of folders) {
    const rel = `${IDEAS_DIR}/${slug}`;
    if (confirm(rel)) continue;
    result.unconfirmed.push(slug);
    walkFresh(rel, true, result.files);
  }
  if (visited.size < listings.size) for (const path of listings.keys()) if (!visited.has(path)) result.stale.push(path);
  return result;
}
