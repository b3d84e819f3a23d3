import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { sha256 } from '../hasher';
import { LinkRefusedError } from './read-inside';

export interface WriteOutcome {
  /** Workspace-relative path actually written: the target, or the conflict copy beside it. */
  path: string;
  conflict: boolean;
  /** When `conflict`, the file that was kept untouched. */
  keptPath?: string;
  hash: string;
  size: number;
  mtimeMs: number;
}

/**
 * What the app believed the file held when it read it: its hash, `null` for "the file did not
 * exist", or `'any'` for files the app owns outright and may replace regardless.
 */
export type Expectation = string | null | 'any';

export function currentHash(absPath: string): string | null {
  // A link in a file's place is never read through (docs/security.md): it holds nothing the app
  // wrote or read, so it matches no expectation and a write goes beside it as a conflict copy.
  if (lstatSync(absPath, { throwIfNoEntry: false })?.isSymbolicLink()) return 'symbolic-link';
  try {
    return sha256(readFileSync(absPath));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A file read once for an edit: its text and the hash of exactly the bytes that text came from, or
 * null when there is no file. Hash and text must come from one read: hashed in a second read, an
 * edit saved between the two would be taken for what the app read, and overwritten.
 */
export function readForEdit(absPath: string): { text: string; hash: string } | null {
  let bytes: Buffer;
  let fd: number;
  try {
    // O_NOFOLLOW: a link in the file's place is refused by the kernel, never edited through.
    fd = openSync(absPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP')
      throw new LinkRefusedError(absPath, 'is a symbolic link; Crucible does not edit through links');
    throw error;
  }
  try {
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  return { text: bytes.toString('utf8'), hash: sha256(bytes) };
}

function fsyncDir(dir: string): void {
  // Makes the rename itself durable. Not every platform can open a folder for this; that is fine.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {}
}

/** A hidden name beside `absPath` (the watcher and the scan skip names starting with a dot). */
function besideName(absPath: string, kind: 'tmp' | 'keep'): string {
  return join(dirname(absPath), `.${basename(absPath)}.crucible-${kind}-${randomBytes(6).toString('hex')}`);
}

/** Writes `content` to a new temp file in the target's folder and flushes it; returns its path. */
function writeTemp(absPath: string, content: string | Uint8Array): string {
  mkdirSync(dirname(absPath), { recursive: true });
  const temp = besideName(absPath, 'tmp');
  const fd = openSync(temp, 'wx');
  try {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  return temp;
}

/** Writes `content` to a temp file in the target's folder, flushes it, and renames it into place. */
function writeAtomically(absPath: string, content: string | Uint8Array): void {
  const temp = writeTemp(absPath, content);
  try {
    renameSync(temp, absPath);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDir(dirname(absPath));
}

/** Error codes of a file system that cannot make hard links (FAT, some network shares). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK', 'EACCES']);

const codeOf = (error: unknown) => (error as { code?: string }).code;

/**
 * Puts `temp` at `absPath` only if no file is there: a hard link fails when the name exists, so a
 * file created meanwhile is never replaced. Returns false when one was there (or appeared).
 */
function createIfAbsent(temp: string, absPath: string): boolean {
  try {
    linkSync(temp, absPath);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    if (!NO_LINKS.has(codeOf(error) ?? '')) throw error;
    // No hard links here: check, then rename (a file created between the two would be replaced).
    if (existsSync(absPath)) return false;
    renameSync(temp, absPath);
    return true;
  }
  rmSync(temp, { force: true });
  return true;
}

/** The file's inode number, or null when the name is gone. */
function inode(path: string): bigint | null {
  try {
    return statSync(path, { bigint: true }).ino;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Renames `temp` over `absPath` only if `absPath` still holds the bytes hashed `expected`: the
 * compare-and-swap of a researcher's file. Returns false when the file changed or went; `absPath`
 * then holds the researcher's version, and `temp` is gone if ours had to be taken back out.
 *
 * Before the rename, the file is hard-linked under a hidden name, so the version being replaced
 * stays reachable: its content is checked through the link before the rename, and again after it.
 * An editor that saves in place (truncate, then write: the half-written files of a race) and opened
 * the file before our rename writes into that version, so the check after the rename sees the save
 * and the researcher's file is put back.
 *
 * What remains unseen (POSIX has no rename-if-unchanged): an editor that saves by renaming its own
 * temp file over `absPath` in the instant between the inode check and our rename (one system call);
 * a second in-place save into our new file before the researcher's is put back; an in-place save
 * that truncated the file before the app read it and writes its bytes only after our last check
 * (the app then edited the truncated text, and both checks agreed with it). Without hard links
 * (FAT, some shares) the check runs on the path just before the rename, and an in-place save in
 * that instant is lost.
 */
function replaceIfUnchanged(temp: string, absPath: string, expected: string, ours: string): boolean {
  const keep = besideName(absPath, 'keep');
  try {
    linkSync(absPath, keep);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    if (!NO_LINKS.has(codeOf(error) ?? '')) throw error;
    if (currentHash(absPath) !== expected) return false;
    renameSync(temp, absPath);
    return true;
  }
  try {
    if (currentHash(keep) !== expected || inode(absPath) !== inode(keep)) return false;
    renameSync(temp, absPath);
    if (currentHash(keep) === expected) return true;
    // Saved in place while we swapped: the researcher's file goes back, unless a later save has
    // replaced ours already (that one is theirs, and newer).
    if (currentHash(absPath) === ours) renameSync(keep, absPath);
    return false;
  } finally {
    rmSync(keep, { force: true });
  }
}

/** `README.conflict-20261126T101500Z.md`, numbered if two conflicts land in the same second. */
export function conflictName(absPath: string, now: Date): string {
  const ext = extname(absPath) || '.md';
  const stem = absPath.slice(0, absPath.length - extname(absPath).length);
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let candidate = `${stem}.conflict-${stamp}${ext}`;
  for (let n = 2; existsSync(candidate); n++) candidate = `${stem}.conflict-${stamp}-${n}${ext}`;
  return candidate;
}

/**
 * The only way the app writes into the workspace. Atomic (temp, fsync, rename), and it never
 * overwrites a file that changed since the app read it: the researcher's version stays where it is
 * and the app's goes beside it as `<name>.conflict-<timestamp>.md`, reported in the outcome.
 *
 * `expected` must be the hash of the very bytes the new content was made from (`readForEdit`). The
 * comparison with the disk is made at the rename itself (`replaceIfUnchanged`, `createIfAbsent`),
 * not only before writing the temp file.
 */
export function safeWrite(
  root: string,
  relPath: string,
  content: string | Uint8Array,
  expected: Expectation,
  now: Date = new Date(),
): WriteOutcome {
  const absPath = join(root, relPath);
  const hash = sha256(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  const done = (path: string, conflict: boolean): WriteOutcome => {
    const stat = statSync(join(root, path));
    return {
      path,
      conflict,
      ...(conflict ? { keptPath: relPath } : {}),
      hash,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
    };
  };
  const conflictPath = (conflictAbs: string) =>
    relPath.slice(0, relPath.length - basename(absPath).length) + basename(conflictAbs);

  if (expected === 'any') {
    writeAtomically(absPath, content);
    return done(relPath, false);
  }
  // Claimed like a new file: two writers meeting in the same second never share a copy's name.
  const toConflict = (temp: string): WriteOutcome => {
    for (;;) {
      const conflictAbs = conflictName(absPath, now);
      if (createIfAbsent(temp, conflictAbs)) {
        fsyncDir(dirname(absPath));
        return done(conflictPath(conflictAbs), true);
      }
    }
  };
  const temp = writeTemp(absPath, content);
  try {
    // A file that already differs is left at once; otherwise the comparison is made at the swap.
    if (currentHash(absPath) !== expected) return toConflict(temp);
    const placed =
      expected === null ? createIfAbsent(temp, absPath) : replaceIfUnchanged(temp, absPath, expected, hash);
    if (placed) {
      fsyncDir(dirname(absPath));
      return done(relPath, false);
    }
    // Ours went into place before the researcher's save was seen and was moved aside with it: the
    // copy is written again.
    return toConflict(existsSync(temp) ? temp : writeTemp(absPath, content));
  } finally {
    rmSync(temp, { force: true });
  }
}
