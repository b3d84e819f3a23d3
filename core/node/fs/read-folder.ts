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
import type { FolderSnapshot, ReadFile, ScannedFile } from '../../sync/types';
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

/** Reads one idea folder: its files with hashes, parsed markdown and per-file errors. */
export type FolderReader = (root: string, slug: string, files: readonly ScannedFile[] | null) => FolderSnapshot;

/**
 * A reader of idea folders: it reads, hashes and parses the files of one folder and never throws (a
 * file's problem becomes its `error`). With `files` (a walk taken earlier) exactly those are read;
 * with `null` the folder is walked here, as a first sync does.
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

  /** One file into `out`; `walked` is its size and mtime from an earlier walk, null when just listed. */
  const readOne = (
    out: ReadFile[],
    root: string,
    path: string,
    walked: { size: number; mtimeMs: number } | null,
  ): void => {
    const where = deps.classifyPath(path);
    if (!where) return;
    const abs = `${root}/${path}`;
    if (!deps.markdownKinds.has(where.kind)) {
      let stat = walked;
      if (!stat) {
        const found = deps.fs.statSync(abs, { throwIfNoEntry: false });
        // Gone since it was listed, or not a file (a link to a folder): not part of the folder.
        if (!found?.isFile()) return;
        stat = found;
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
      return;
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
      return;
    }
    let fd: number;
    try {
      fd = deps.fs.openSync(abs, 'r');
    } catch (error) {
      // A file listed a moment ago and gone now is simply not there (the next event will tell).
      if (!walked && (error as { code?: string }).code === 'ENOENT') return;
      out.push({ ...base, error: describeReadError(error) });
      return;
    }
    let bytes: Buffer;
    try {
      const stat = deps.fs.fstatSync(fd);
      if (!stat.isFile()) {
        if (walked) out.push({ ...base, error: describeReadError({ code: 'EISDIR' }) });
        return;
      }
      base.size = stat.size;
      base.mtimeMs = stat.mtimeMs;
      if (stat.size > deps.maxMarkdownBytes) {
        out.push(tooLarge(base, stat.size));
        return;
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
      return;
    } finally {
      deps.fs.closeSync(fd);
    }
    base.size = bytes.length;
    base.hash = deps.sha256(bytes);
    if (bytes.includes(0)) {
      base.error = 'looks like a binary file, not markdown text';
      out.push(base);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      base.error = 'is not valid UTF-8 text';
      out.push(base);
      return;
    }
    const parsed = deps.parse(text);
    if (parsed.ok) base.doc = { data: parsed.data, body: parsed.body };
    else base.error = parsed.message;
    out.push(base);
  };

  const walk = (out: ReadFile[], root: string, rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = deps.fs.readdirSync(`${root}/${rel}`, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (deps.isTransientName(entry.name)) continue;
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(out, root, path);
      else if (entry.isFile() || entry.isSymbolicLink()) readOne(out, root, path, null);
    }
  };

  return (root, slug, files) => {
    const out: ReadFile[] = [];
    if (files) for (const scanned of files) readOne(out, root, scanned.path, scanned);
    else walk(out, root, `${deps.ideasDir}/${slug}`);
    return { slug, files: out };
  };
}

let inThread: FolderReader | null = null;

/** Reads one folder in this thread (what every pass does unless a pool reads for it). */
export function readFolder(root: string, slug: string, files: readonly ScannedFile[] | null): FolderSnapshot {
  inThread ??= createFolderReader(nodeReaderDeps);
  return inThread(root, slug, files);
}
