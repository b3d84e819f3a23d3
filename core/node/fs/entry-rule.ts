/**
 * The one rule every walk of `ideas/` applies to what a folder lists (the full sync's walks in
 * `scan.ts`, the reader in `read-folder.ts` and its worker threads, the watcher's passes): a regular
 * file is read, a real folder is walked, and anything else is reported by its path and never
 * followed or read: a symbolic link (to a file, to a folder, to itself), a folder standing where
 * the layout expects a file (`README.md/`), a socket or a device.
 *
 * Self-contained (nothing but its arguments and a literal) because the reader's worker threads run
 * its source text (`read-pool.ts`).
 *
 * Returns 'file', 'folder', or the reason the entry is reported.
 */
export function entryRule(
  name: string,
  /** True for an entry directly in an idea folder (`ideas/<slug>/<name>`). */
  topLevel: boolean,
  type: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean },
): string {
  if (type.isSymbolicLink()) {
    return 'is a symbolic link; Crucible does not follow links (put the file or folder itself here)';
  }
  if (type.isFile()) return 'file';
  if (type.isDirectory()) {
    // A folder under a name the idea's own files use would hide that file: said, not walked.
    const lower = name.toLowerCase();
    const fileName =
      lower === 'readme.md' ||
      lower === 'development.md' ||
      lower === 'evaluation.md' ||
      lower === 'redteam.md' ||
      lower === 'synthesis.md';
    return topLevel && fileName ? 'is a folder, expected a file' : 'folder';
  }
  return 'is not a regular file or folder (a socket, a pipe or a device): not read';
}

/**
 * Why a file or folder could not be read, in the words of a sync error. Self-contained, as
 * `entryRule`. ELOOP is what opening a link with O_NOFOLLOW gives (a file swapped for a link
 * between listing and reading).
 */
export function describeReadError(error: unknown, folder: boolean): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  if (code === 'ENOENT') return 'vanished while being read';
  if (code === 'EISDIR') return 'is a folder, expected a file';
  if (code === 'ENOTDIR') return 'is not a folder';
  if (code === 'ELOOP')
    return 'is a symbolic link; Crucible does not follow links (put the file or folder itself here)';
  const message = error instanceof Error ? error.message : String(error);
  return folder ? `cannot be listed: ${message}` : `cannot be read: ${message}`;
}
