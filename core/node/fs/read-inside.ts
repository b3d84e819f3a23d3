import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A file that is refused because reading it would follow a link (or leave the workspace). */
export class LinkRefusedError extends Error {
  readonly code = 'ELINK';
  constructor(
    readonly rel: string,
    why = 'is a symbolic link or lies under one; Crucible does not follow links',
  ) {
    super(`${rel} ${why}`);
    this.name = 'LinkRefusedError';
  }
}

const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of the workspace file `rel`, read under the sync's link rule (`entry-rule.ts`): refused
 * with `LinkRefusedError` when the path leaves `root` or any part of it below `root` is a symbolic
 * link, since the real path must then differ from the path itself. The file is opened with
 * O_NOFOLLOW, so a last part swapped for a link after the check is refused by the kernel, and with
 * O_NONBLOCK, so a pipe cannot hang the caller. Other failures (ENOENT, EACCES, EISDIR) are thrown
 * as `readFileSync` throws them, so callers keep their handling of a missing file.
 */
export function readInside(root: string, rel: string): Buffer {
  const abs = resolve(root, rel);
  const below = relative(resolve(root), abs);
  if (below === '' || below === '..' || below.startsWith(`..${sep}`) || isAbsolute(below)) {
    throw new LinkRefusedError(rel, 'is not inside the workspace');
  }
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (error) {
    // A link to itself, or a loop of them.
    if ((error as { code?: string }).code === 'ELOOP') throw new LinkRefusedError(rel);
    throw error;
  }
  if (real !== join(realpathSync(root), below)) throw new LinkRefusedError(rel);
  let fd: number;
  try {
    fd = openSync(abs, FLAGS);
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOOP') throw new LinkRefusedError(rel);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${rel} is a folder`), { code: 'EISDIR' });
    if (!stat.isFile()) throw new Error(`${rel} is not a regular file (a pipe, a socket or a device)`);
    const chunks: Buffer[] = [];
    let total = 0;
    // Read to the end rather than to the size fstat gave: a file may grow while it is read.
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(64 * 1024, stat.size - total + 1));
      const n = readSync(fd, chunk, 0, chunk.length, total);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** `readInside` as UTF-8 text. */
export function readTextInside(root: string, rel: string): string {
  return readInside(root, rel).toString('utf8');
}
