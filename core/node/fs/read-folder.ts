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

/** Everything `readFolderWith` uses, handed in so that the function itself needs no imports. */
export interface ReaderDeps {
  fs: Pick<typeof fs, 'readdirSync' | 'statSync' | 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;
  sha256(bytes: Uint8Array): string;
  parse(raw: string): MarkdownResult;
  classifyPath(path: string): IdeaFilePath | null;
  isTransientName(name: string): boolean;
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
 */
export function createFolderReader(deps: ReaderDeps): FolderReader {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const describeReadError = (error: unknown): string => {
    const code = (error as { code?: string }).code;
    if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
    if (code === 'ENOENT') return 'vanished while being read';
    if (code === 'EISDIR') return 'is a folder, expected a file';
    return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
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
        const found = deps.fs.statSync(abs, { throwIfNoEntry: false });
        if (!found?.isFile()) return null;
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
      fd = deps.fs.openSync(abs, 'r');
    } catch (error) {
      // A file listed a moment ago and gone now is simply not there (the next event will tell).
      if (!walked && (error as { code?: string }).code === 'ENOENT') return null;
      out.push({ ...base, error: describeReadError(error) });
      if (walked) return walked;
      const found = deps.fs.statSync(abs, { throwIfNoEntry: false });
      return found?.isFile() ? { size: found.size, mtimeMs: found.mtimeMs } : null;
    }
    let bytes: Buffer;
    let listed: Stat;
    try {
      const stat = deps.fs.fstatSync(fd);
      if (!stat.isFile()) {
        if (walked) out.push({ ...base, error: describeReadError({ code: 'EISDIR' }) });
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
  ): void => {
    const dir = `${root}/${rel}`;
    const folder = listings ? deps.fs.statSync(dir, { throwIfNoEntry: false }) : undefined;
    let entries: fs.Dirent[];
    try {
      entries = deps.fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const lines: string[] = [];
    const subfolders: string[] = [];
    // A name holding a tab or a line break cannot be told apart in a listing: none is recorded.
    let odd = false;
    for (const entry of entries) {
      const name = entry.name;
      if (deps.isTransientName(name)) continue;
      if (name.includes('\t') || name.includes('\n')) odd = true;
      const path = `${rel}/${name}`;
      if (entry.isDirectory()) {
        subfolders.push(name);
        walk(out, listings, trustBefore, root, path);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const stat = readOne(out, root, path, null);
        if (stat) lines.push(`${name}\t${stat.size}\t${stat.mtimeMs}`);
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
      for (const scanned of files) readOne(out, root, scanned.path, scanned);
      return { slug, files: out };
    }
    const listings: FolderListing[] | null = trustBefore === undefined ? null : [];
    walk(out, listings, trustBefore ?? 0, root, `${deps.ideasDir}/${slug}`);
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
