import type { Hasher } from '../ports/hash';
import { INPUT_KINDS, type IdeaFileKind } from './layout';

/**
 * The content hash of an idea's inputs (README, development, research notes; never the app's own
 * outputs). It is built from each input file's own hash and its path inside the folder, sorted, so
 * a rename, an edit, an added or a removed note all change it, and it can be recomputed from the
 * index without reading a file again.
 */
export function ideaContentHash(
  files: Iterable<{ inner: string; kind: IdeaFileKind; hash: string }>,
  hasher: Hasher,
): string {
  const lines: string[] = [];
  for (const file of files) {
    if (INPUT_KINDS.has(file.kind)) lines.push(`${file.inner}\t${file.hash}`);
  }
  lines.sort();
  return hasher.sha256(lines.join('\n'));
}
