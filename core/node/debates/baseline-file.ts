import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Baseline, baselineSchema } from '../../crux/live/baseline';
import { safeWrite } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';

/**
 * A debate's single-pass baseline lives beside its log, `<id>.baseline.json` next to `<id>.jsonl`
 * (as the crux map's layout does): it travels with the debate and survives a rebuilt index. It is
 * the app's own file; a later baseline of the same debate replaces it.
 */
export function baselinePathOf(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '.baseline.json');
}

/** The stored baseline, or null when there is none or the file holds no usable one. */
export function readBaseline(root: string, logPath: string): Baseline | null {
  const rel = baselinePathOf(logPath);
  if (!existsSync(join(root, rel))) return null;
  try {
    const parsed = baselineSchema.safeParse(JSON.parse(readTextInside(root, rel)));
    return parsed.success ? parsed.data : null;
  } catch {
    // Unreadable, not JSON, or replaced by a link (never followed): the debate simply has no baseline.
    return null;
  }
}

export function writeBaseline(root: string, logPath: string, baseline: Baseline): string {
  return safeWrite(root, baselinePathOf(logPath), `${JSON.stringify(baseline, null, 1)}\n`, 'any').path;
}
