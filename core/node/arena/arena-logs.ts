import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ArenaState } from '../../arena/state';
import type { ArenaTournament } from '../../arena/tournament';
import type { RunStatus } from '../../engine/protocol';
import { arenaEntry } from '../../arena/live/protocol';
import { lastStatus, readDebateLog } from '../debates/journal';
import { NO_RESOURCES } from '../../engine/registry';
import { foldRun } from '../runs/run-service';

/** An arena as its log has it, folded the way the run service folds any run. */
export interface ArenaLog {
  id: string;
  /** Workspace-relative path of the log. */
  log: string;
  ideaSlug: string | null;
  status: RunStatus;
  /** The time of its last status record (null while none). */
  statusAt: string | null;
  state: ArenaState;
  /** The tournament it is a meeting of, from its setup; null for an arena on its own. */
  tournament: ArenaTournament | null;
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function dirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Every arena log in the workspace folder (`arenas/` and `ideas/<slug>/arenas/`), read from the logs
 * themselves: the index is derived, and deleting it changes nothing here. A log that cannot be read
 * is reported and left out.
 */
export function readArenaLogs(root: string): { arenas: ArenaLog[]; errors: { file: string; reason: string }[] } {
  const folder = arenaEntry.folder;
  const rels = [
    ...names(join(root, folder)).map((n) => `${folder}/${n}`),
    ...dirs(join(root, 'ideas')).flatMap((slug) =>
      names(join(root, 'ideas', slug, folder)).map((n) => `ideas/${slug}/${folder}/${n}`),
    ),
  ];
  const arenas: ArenaLog[] = [];
  const errors: { file: string; reason: string }[] = [];
  for (const rel of rels) {
    try {
      const { records } = readDebateLog(root, rel);
      const first = records[0];
      if (first?.type !== 'run_created' || first.header.protocol !== arenaEntry.name) continue;
      const setup = arenaEntry.setup.parse(first.header.setup);
      const runner = foldRun(arenaEntry, { ...first.header, setup }, records, NO_RESOURCES);
      const statuses = records.filter((r) => r.type === 'status');
      arenas.push({
        id: first.header.id,
        log: rel,
        ideaSlug: first.header.ideaSlug,
        status: lastStatus(records) ?? 'running',
        statusAt: statuses[statuses.length - 1]?.at ?? null,
        state: runner.currentState as ArenaState,
        tournament: setup.tournament,
      });
    } catch (error) {
      errors.push({ file: rel, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { arenas, errors };
}
