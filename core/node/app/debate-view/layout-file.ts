import { type CruxMap, nodePositionsSchema } from '../../../contract';
import type { Log } from '../../../ports/log';
import { safeWrite } from '../../fs/atomic-write';
import { LinkRefusedError, readTextInside } from '../../fs/read-inside';

/**
 * A crux map's node positions live beside the debate's log, `<id>.layout.json` next to
 * `<id>.jsonl`: they travel with the debate when the folder is copied, survive a rebuilt index,
 * and losing the file costs nothing but a fresh layout. The watcher ignores `debates/` folders, so
 * saving a drag wakes no sync pass; it is not an input of the idea, so nothing turns stale.
 */
export function layoutPathOf(logPath: string): string {
  return logPath.replace(/\.jsonl$/, '.layout.json');
}

/** The stored positions, or null when there are none or the file cannot be used (then it is logged). */
export function readLayout(root: string, logPath: string, log: Log): CruxMap['layout'] {
  const rel = layoutPathOf(logPath);
  let text: string;
  try {
    text = readTextInside(root, rel);
  } catch (error) {
    // A layout replaced by a link is not followed: said in the log, and the map is laid out afresh.
    if (error instanceof LinkRefusedError) log.warn(error.message);
    return null;
  }
  try {
    const json = JSON.parse(text) as { positions?: unknown; savedAt?: unknown };
    const positions = nodePositionsSchema.parse(json.positions);
    return { positions, savedAt: typeof json.savedAt === 'string' ? json.savedAt : '' };
  } catch (error) {
    log.warn(`${rel} holds no usable node positions; the crux map is laid out afresh`, {
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}

/** Replaces the stored positions (the file is the app's own: the latest layout wins). */
export function writeLayout(
  root: string,
  logPath: string,
  positions: Record<string, { x: number; y: number }>,
  now: Date,
): string {
  const rel = layoutPathOf(logPath);
  const rounded = Object.fromEntries(
    Object.entries(positions).map(([id, p]) => [id, { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 }]),
  );
  const text = `${JSON.stringify({ version: 1, savedAt: now.toISOString(), positions: rounded }, null, 1)}\n`;
  return safeWrite(root, rel, text, 'any', now).path;
}
