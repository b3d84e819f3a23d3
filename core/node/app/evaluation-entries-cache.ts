import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationEntry } from '../../contract';
import { safeWrite } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';
import { ideaFile } from '../../idea/layout';

const VERSION = 1;
const FOLDER = join('.crucible', 'evaluation-entries');

/**
 * A locked evaluation's entries kept in `.crucible/evaluation-entries/<id>.json`, so the transcripts
 * list and search do not replay every record's script after each start (a replay takes tens of
 * milliseconds: a hundred evaluations would take seconds). Records never change; the cache is keyed
 * by the size and time of the script it was built from, so a replaced script is replayed again. Like
 * everything in `.crucible/`, it can be deleted at any time: the next reading rebuilds it.
 */
export class EvaluationEntriesCache {
  constructor(private readonly root: string) {}

  private scriptKey(slug: string, id: string): string | null {
    try {
      // A linked script is keyed by the link itself; its text is refused wherever it is read.
      const stat = lstatSync(join(this.root, ideaFile(slug, 'evaluations'), `${id}.jsonl`));
      return `${stat.size}:${Math.round(stat.mtimeMs)}`;
    } catch {
      return null;
    }
  }

  /** The entries built earlier from this record's script as it is now, or null. */
  get(slug: string, id: string): EvaluationEntry[] | null {
    const key = this.scriptKey(slug, id);
    if (key === null) return null;
    try {
      const cached = JSON.parse(readTextInside(this.root, join(FOLDER, `${id}.json`))) as {
        version?: unknown;
        key?: unknown;
        entries?: unknown;
      };
      if (cached.version !== VERSION || cached.key !== key || !Array.isArray(cached.entries)) return null;
      return cached.entries as EvaluationEntry[];
    } catch {
      return null;
    }
  }

  /** Keeps the entries replayed from this record's script; a failure to write only costs a replay later. */
  put(slug: string, id: string, entries: readonly EvaluationEntry[]): void {
    const key = this.scriptKey(slug, id);
    if (key === null) return;
    try {
      safeWrite(this.root, join(FOLDER, `${id}.json`), JSON.stringify({ version: VERSION, key, entries }), 'any');
    } catch {}
  }
}
