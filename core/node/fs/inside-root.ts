import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The absolute path of workspace-relative `rel`, or null when it would land outside `root` (a `..`
 * too many, an absolute path). The last lock on reads that build a path from an id: ids are checked
 * against their pattern first (core/idea/names.ts), and this catches whatever a pattern missed.
 */
export function insideRoot(root: string, rel: string): string | null {
  const base = resolve(root);
  const abs = resolve(base, rel);
  const back = relative(base, abs);
  if (back === '' || isAbsolute(back) || back === '..' || back.startsWith(`..${sep}`)) return null;
  return abs;
}
