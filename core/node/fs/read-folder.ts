import * as fs from 'node:fs';
import matter from 'gray-matter';
import {
  classifyPath,
  IDEAS_DIR,
  type IdeaFilePath,
  isTransientName,
  MARKDOWN_KINDS,
  MAX_MARKDOWN_BYTES,
} from '../../idea/layout';
import type { FolderListing, FolderSnapshot, ReadFile, ScannedFile } from '../../sync/types';
import { sha256 } from '../hasher';
import { type MarkdownResult, parseMarkdownWith } from '../markdown';
import { describeReadError, entryRule } from './entry-rule';

/** Everything `readFolderWith` uses, handed in so that the function itself needs no imports. */
export interface ReaderDeps {
  fs: Pick<typeof fs, 'readdirSync' | 'lstatSync' | 'openSync' | 'fstatSync' | 'readSync' | 'closeSync' | 'constants'>;
  sha256(bytes: Uint8Array): string;
  parse(raw: string): MarkdownResult;
  classifyPath(path: string): IdeaFilePath | null;
  isTransientName(name: string): boolean;
  entryRule: typeof entryRule;
  describeReadError: typeof describeReadError;
  ideasDir: string;
  markdownKinds: ReadonlySet<string>;
  maxMarkdownBytes: number;
}

export const nodeReaderDeps: ReaderDeps = {
  fs,
  sha256,
  parse: (raw) => parseMarkdownWith(matter, raw),
  classifyPath,
  isTransientName,
  entryRule,
  describeReadError,
  ideasDir: IDEAS_DIR,
  markdownKinds: MARKDOWN_KINDS,
  maxMarkdownBytes: MAX_MARKDOWN_BYTES,
};

/** One idea folder to read: with the files of an earlier walk, or `null` to walk it while reading. */
export interface ReadTask {
  slug: string;
  files: readonly ScannedFile[] | null;
}

/**
 * Reads idea folders: their files with hashes, parsed markdown and per-file errors, one snapshot per
 * task, in order. Walking a folder (`files` null) with `trustBefore` also describes its folders for
 * `walkWithListings`.
 */
export type FolderReader = (root: string, tasks: readonly ReadTask[], trustBefore?: number) => FolderSnapshot[];

interface Stat {
  size: number;
  mtimeMs: number;
}

/**
 * A reader of idea folders: it reads, hashes and parses the files of each folder it is given and
 * never throws (a file's problem becomes its `error`). With a task's `files` (a walk taken earlier)
 * exactly those are read; with `null` the folder is walked here, as a first sync does.
 *
 * It works in two rounds over all the folders it is given: first every system call (listing,
 * opening, reading), then hashing, decoding and parsing what was read. Alternating the two file by
 * file was measurably slower on the machine the benchmarks run on, most likely because each call
 * into the kernel leaves the processor's caches and predictors cold for the parser that runs next:
 * reading 10,000 folders 200 at a time this way took 0.79 × the time of reading them one file after
 * another (see docs/performance.md). A batch's bytes are held between the rounds, a few hundred KB.
 *
 * Self-contained on purpose: it uses nothing but its arguments and JavaScript's globals, because
 * the first sync of a large library runs its source text on a worker thread (`read-pool.ts`). Do not
 * reach for an import or a module-level name in here; put it in `ReaderDeps`. The helpers are made
 * once per reader, not once per folder.
 *
 * Markdown is read through one descriptor (open, fstat, read, close): the size and mtime recorded
 * are those of the bytes that were hashed, and a walked file needs no separate stat.
 *
 * Nothing outside the workspace is read: entries are taken as `entryRule` says (a symbolic link is
 * reported by path, never followed, and so is an idea folder that is one), files are opened with
 * O_NOFOLLOW, so one swapped for a link after it was listed is refused by the kernel, and with
 * O_NONBLOCK, so one swapped for a pipe cannot hang the pass. A folder that cannot be listed is
 * reported by path as well: nothing drops out of the index unsaid.
 */
export function createFolderReader(deps: ReaderDeps): FolderReader {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const describeReadError = (error: unknown): string => deps.describeReadError(error, false);
  // O_NOFOLLOW and O_NONBLOCK where the platform has them (not on Windows, which has no such links
  // for an unprivileged user to plant, and no pipes in a folder).
  const constants = deps.fs.constants;
  const openFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

  /**
   * An entry the rule refuses, or a folder that cannot be listed, as a file of its folder: kind
   * `other` (no reader of files by kind ever opens it), no hash, and why, so it is reported by path.
   */
  const refused = (out: ReadFile[], path: string, size: number, mtimeMs: number, reason: string): void => {
    const parts = path.split('/');
    out.push({
      path,
      slug: parts[1] as string,
      kind: 'other',
      inner: parts.slice(2).join('/'),
      size,
      mtimeMs,
      hash: null,
      error: reason,
    });
  };
  const refuseAt = (out: ReadFile[], root: string, path: string, reason: string): void => {
    const stat = deps.fs.lstatSync(`${root}/${path}`, { throwIfNoEntry: false });
    if (stat) refused(out, path, stat.size, stat.mtimeMs, reason);
  };
  const tooLarge = (base: ReadFile, size: number): ReadFile => {
    const mb = (size / 1024 / 1024).toFixed(1);
    const limit = deps.maxMarkdownBytes / 1024 / 1024;
    return { ...base, size, error: `too large to index (${mb} MB; markdown files up to ${limit} MB are read)` };
  };

  /** Files read in the first round, with their bytes, waiting for the second (`finish`). */
  let readFiles: ReadFile[] = [];
  let readBytes: Buffer[] = [];

  /**
   * One file into `out`; `walked` is its size and mtime from an earlier walk, null when it was just
   * listed. Returns the size and mtime it has as a file of its folder, or null when it is not one
   * (gone since it was listed, or a link to a folder). A markdown file's bytes wait for `finish`.
   */
  const readOne = (out: ReadFile[], root: string, path: string, walked: Stat | null): Stat | null => {
    const where = deps.classifyPath(path);
    if (!where) return null;
    const abs = `${root}/${path}`;
    if (!deps.markdownKinds.has(where.kind)) {
      let stat = walked;
      if (!stat) {
        const found = deps.fs.lstatSync(abs, { throwIfNoEntry: false });
        if (!found) return null;
        if (!found.isFile()) {
          // Swapped since the listing (for a link, say): the rule applies to what is there now.
          const now = deps.entryRule(path.slice(path.lastIndexOf('/') + 1), false, found);
          if (now !== 'file' && now !== 'folder') refused(out, path, found.size, found.mtimeMs, now);
          return null;
        }
        stat = { size: found.size, mtimeMs: found.mtimeMs };
      }
      out.push({
        path,
        slug: where.slug,
        kind: where.kind,
        inner: where.inner,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        hash: null,
      });
      return stat;
    }
    const base: ReadFile = {
      path,
      slug: where.slug,
      kind: where.kind,
      inner: where.inner,
      size: walked?.size ?? 0,
      mtimeMs: walked?.mtimeMs ?? 0,
      hash: null,
    };
    if (walked && walked.size > deps.maxMarkdownBytes) {
      out.push(tooLarge(base, walked.size));
      return walked;
    }
    let fd: number;
    try {
      fd = deps.fs.openSync(abs, openFlags);
    } catch (error) {
      // A file listed a moment ago and gone now is simply not there (the next event will tell).
      if (!walked && (error as { code?: string }).code === 'ENOENT') return null;
      const found = deps.fs.lstatSync(abs, { throwIfNoEntry: false });
      if (found?.isSymbolicLink()) {
        // Swapped for a link since the walk: refused like any link (kind `other`, never read).
        refused(out, path, found.size, found.mtimeMs, describeReadError({ code: 'ELOOP' }));
        return null;
      }
      out.push({ ...base, error: describeReadError(error) });
      if (walked) return walked;
      return found?.isFile() ? { size: found.size, mtimeMs: found.mtimeMs } : null;
    }
    let bytes: Buffer;
    let listed: Stat;
    try {
      const stat = deps.fs.fstatSync(fd);
      if (!stat.isFile()) {
        if (walked) {
          const now = deps.entryRule('', false, stat);
          out.push({ ...base, error: now === 'folder' ? describeReadError({ code: 'EISDIR' }) : now });
        }
        return walked;
      }
      listed = { size: stat.size, mtimeMs: stat.mtimeMs };
      base.size = stat.size;
      base.mtimeMs = stat.mtimeMs;
      if (stat.size > deps.maxMarkdownBytes) {
        out.push(tooLarge(base, stat.size));
        return listed;
      }
      bytes = Buffer.allocUnsafe(stat.size);
      let filled = 0;
      while (filled < bytes.length) {
        const n = deps.fs.readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (n === 0) break;
        filled += n;
      }
      // A file that shrank while being read: what was read is hashed; its new mtime shows next time.
      if (filled < bytes.length) bytes = bytes.subarray(0, filled);
    } catch (error) {
      out.push({ ...base, error: describeReadError(error) });
      return walked ?? { size: base.size, mtimeMs: base.mtimeMs };
    } finally {
      deps.fs.closeSync(fd);
    }
    base.size = bytes.length;
    out.push(base);
    readFiles.push(base);
    readBytes.push(bytes);
    return listed;
  };

  /** The second round: hashes, decodes and parses every file the first round read. */
  const finish = (): void => {
    const files = readFiles;
    const bytesOf = readBytes;
    readFiles = [];
    readBytes = [];
    for (let i = 0; i < files.length; i++) {
      const file = files[i] as ReadFile;
      const bytes = bytesOf[i] as Buffer;
      file.hash = deps.sha256(bytes);
      if (bytes.includes(0)) {
        file.error = 'looks like a binary file, not markdown text';
        continue;
      }
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        file.error = 'is not valid UTF-8 text';
        continue;
      }
      const parsed = deps.parse(text);
      if (parsed.ok) file.doc = { data: parsed.data, body: parsed.body };
      else file.error = parsed.message;
    }
  };

  /**
   * Walks and reads one folder and what is under it. With `trustBefore`, each folder that has not
   * changed since then is described in `listings` as `scan.ts`'s `walkWithListings` records it.
   */
  const walk = (
    out: ReadFile[],
    listings: FolderListing[] | null,
    trustBefore: number,
    root: string,
    rel: string,
    top: boolean,
  ): void => {
    const dir = `${root}/${rel}`;
    const folder = listings ? deps.fs.lstatSync(dir, { throwIfNoEntry: false }) : undefined;
    let entries: fs.Dirent[];
    try {
      entries = deps.fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // Gone is simply not there; anything else (no permission) is said.
      const code = (error as { code?: string }).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') refuseAt(out, root, rel, deps.describeReadError(error, true));
      return;
    }
    const lines: string[] = [];
    const subfolders: string[] = [];
    // A name holding a tab or a line break cannot be told apart in a listing, and a refused entry
    // is not in one: such a folder is not recorded (it is listed afresh every time).
    let odd = false;
    for (const entry of entries) {
      const name = entry.name;
      if (deps.isTransientName(name)) continue;
      if (name.includes('\t') || name.includes('\n')) odd = true;
      const path = `${rel}/${name}`;
      const verdict = deps.entryRule(name, top, entry);
      if (verdict === 'folder') {
        subfolders.push(name);
        walk(out, listings, trustBefore, root, path, false);
      } else if (verdict === 'file') {
        const before = out.length;
        const stat = readOne(out, root, path, null);
        if (stat) lines.push(`${name}\t${stat.size}\t${stat.mtimeMs}`);
        else if (out.length > before) odd = true;
      } else {
        odd = true;
        refuseAt(out, root, path, verdict);
      }
    }
    if (
      listings &&
      folder &&
      !odd &&
      folder.ctimeMs > 0 &&
      folder.ctimeMs < trustBefore &&
      folder.mtimeMs < trustBefore
    ) {
      // Sorted by name, as the walk that compares with it produces them.
      lines.sort((a, b) => {
        const x = a.slice(0, a.indexOf('\t'));
        const y = b.slice(0, b.indexOf('\t'));
        return x < y ? -1 : x > y ? 1 : 0;
      });
      subfolders.sort();
      listings.push({
        path: rel,
        mtimeMs: folder.mtimeMs,
        ctimeMs: folder.ctimeMs,
        subfolders,
        files: lines.join('\n'),
      });
    }
  };

  const readOneFolder = (root: string, { slug, files }: ReadTask, trustBefore: number | undefined): FolderSnapshot => {
    const out: ReadFile[] = [];
    if (files) {
      for (const scanned of files) {
        if (scanned.problem !== undefined) refused(out, scanned.path, scanned.size, scanned.mtimeMs, scanned.problem);
        else readOne(out, root, scanned.path, scanned);
      }
      return { slug, files: out };
    }
    const listings: FolderListing[] | null = trustBefore === undefined ? null : [];
    const rel = `${deps.ideasDir}/${slug}`;
    // The idea folder itself may be a link: reported, never walked.
    const stat = deps.fs.lstatSync(`${root}/${rel}`, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) refused(out, rel, stat.size, stat.mtimeMs, deps.entryRule('', false, stat));
    else if (stat?.isDirectory()) walk(out, listings, trustBefore ?? 0, root, rel, true);
    return listings ? { slug, files: out, listings } : { slug, files: out };
  };

  return (root, tasks, trustBefore) => {
    try {
      const snapshots = tasks.map((task) => readOneFolder(root, task, trustBefore));
      finish();
      return snapshots;
    } finally {
      // After a throw (never a file's problem, which becomes its error), nothing read may be left
      // for the next call.
      readFiles = [];
      readBytes = [];
    }
  };
}

let inThread: FolderReader | null = null;

/** Reads folders in this thread (what every pass does unless a pool reads for it). */
export function readFolders(root: string, tasks: readonly ReadTask[], trustBefore?: number): FolderSnapshot[] {
  inThread ??= createFolderReader(nodeReaderDeps);
  return inThread(root, tasks, trustBefore);
}

/** Reads one folder in this thread. */
export function readFolder(
  root: string,
  slug: string,
  files: readonly ScannedFile[] | null,
  trustBefore?: number,
): FolderSnapshot {
  return readFolders(root, [{ slug, files }], trustBefore)[0] as FolderSnapshot;
}
