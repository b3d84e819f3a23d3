import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
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

/** Writes `content` to a temp file in the target's folder, flushes it, and renames it into place. */
function writeAtomically(absPath: string, content: string | Uint8Array, beforeRename?: () => void): void {
  const dir = dirname(absPath);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(absPath)}.crucible-tmp-${randomBytes(6).toString('hex')}`);
  const fd = openSync(temp, 'wx');
  try {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    beforeRename?.();
    renameSync(temp, absPath);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDir(dir);
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

class ChangedOnDisk extends Error {}

/**
 * The only way the app writes into the workspace. Atomic (temp, fsync, rename), and it never
 * overwrites a file that changed since the app read it: the researcher's version stays where it is
 * and the app's goes beside it as `<name>.conflict-<timestamp>.md`, reported in the outcome.
 */
export function safeWrite(
  root: string,
  relPath: string,
  content: string | Uint8Array,
  expected: Expectation,
  now: Date = new Date(),
): WriteOutcome {
  const absPath = join(root, relPath);
  const matches = () => expected === 'any' || currentHash(absPath) === expected;
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
  const toConflict = (): WriteOutcome => {
    const conflictAbs = conflictName(absPath, now);
    writeAtomically(conflictAbs, content);
    return done(relPath.slice(0, relPath.length - basename(absPath).length) + basename(conflictAbs), true);
  };

  if (!matches()) return toConflict();
  try {
    // Checked again right before the rename: an editor saving while we wrote the temp file wins.
    writeAtomically(absPath, content, () => {
      if (!matches()) throw new ChangedOnDisk();
    });
  } catch (error) {
    if (error instanceof ChangedOnDisk) return toConflict();
    throw error;
  }
  return done(relPath, false);
}
