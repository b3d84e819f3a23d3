import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyPath, MARKDOWN_KINDS, MAX_MARKDOWN_BYTES } from '../../idea/layout';
import type { FolderSnapshot, ReadFile, ScannedFile } from '../../sync/types';
import { sha256 } from '../hasher';
import { parseMarkdown } from '../markdown';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function describeReadError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  if (code === 'ENOENT') return 'vanished while being read';
  if (code === 'EISDIR') return 'is a folder, expected a file';
  return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** Reads, hashes and parses one file of an idea folder; never throws, problems become `error`. */
export function readIdeaFile(root: string, scanned: ScannedFile): ReadFile | null {
  const where = classifyPath(scanned.path);
  if (!where) return null;
  const base: ReadFile = { ...scanned, slug: where.slug, kind: where.kind, inner: where.inner, hash: null };
  if (!MARKDOWN_KINDS.has(where.kind)) return base;
  if (scanned.size > MAX_MARKDOWN_BYTES) {
    const mb = (scanned.size / 1024 / 1024).toFixed(1);
    return { ...base, error: `too large to index (${mb} MB; markdown files up to ${MAX_MARKDOWN_BYTES / 1024 / 1024} MB are read)` };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, scanned.path));
  } catch (error) {
    return { ...base, error: describeReadError(error) };
  }
  const file: ReadFile = { ...base, size: bytes.length, hash: sha256(bytes) };
  if (bytes.includes(0)) return { ...file, error: 'looks like a binary file, not markdown text' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ...file, error: 'is not valid UTF-8 text' };
  }
  try {
    const doc = parseMarkdown(text);
    return { ...file, doc: { data: doc.data, body: doc.body } };
  } catch (error) {
    return { ...file, error: error instanceof Error ? error.message : String(error) };
  }
}

export function readFolder(root: string, slug: string, files: readonly ScannedFile[]): FolderSnapshot {
  const out: ReadFile[] = [];
  for (const scanned of files) {
    const read = readIdeaFile(root, scanned);
    if (read) out.push(read);
  }
  return { slug, files: out };
}
