import { recordIdProblem } from '../../idea/names';
import { arenaExportMarkdown } from '../arena/arena-export';
import { RunService } from '../runs/run-service';
import { listRuns, runListing } from '../sqlite/run-list-queries';
import type { CruxRunListing } from '../sqlite/run-queries';
import { Workspace } from '../workspace/workspace';
import type { ParsedArgs } from './args';
import { workspaceDir } from './common';
import type { CliIo } from './io';

/**
 * Arenas among the debates: `debates list` lists them beside the crux debates with a kind column,
 * `debates show`, `resume` and `debates pause|stop|resume` take an arena's id as well as a debate's.
 * An arena is a run of the general run service, so these read and drive it through that service;
 * what only a crux debate has (its events, progress, crux map and course) stays a crux debate's.
 */

export type DebateKind = 'crux' | 'arena';

/** A row of `debates list`: a crux debate's, or an arena's in the same shape. */
export type DebateRow = CruxRunListing & { kind: DebateKind };

/** Whether `id` is an arena's, by the index. An id that could be no debate's is left to the debate path, which refuses it. */
export function isArena(args: ParsedArgs, id: string): boolean {
  if (recordIdProblem(id, 'debate') !== null) return false;
  const ws = Workspace.open(workspaceDir(args));
  try {
    return runListing(ws.db, id)?.protocol === 'arena';
  } finally {
    ws.close();
  }
}

/** The crux debates and the arenas, the newest first. */
export function debateRows(ws: Workspace, crux: readonly CruxRunListing[]): DebateRow[] {
  const arenas: DebateRow[] = listRuns(ws.db, { protocol: 'arena' }).map((r) => ({
    id: r.id,
    kind: 'arena',
    topic: r.topic,
    idea: r.ideaSlug,
    status: r.status,
    provider: r.provider,
    createdAt: r.createdAt,
    costUsd: r.costUsd,
  }));
  return [...crux.map((r) => ({ ...r, kind: 'crux' as const })), ...arenas].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
  );
}

/** `debates list` as text: one line a debate, its kind in a column of its own. */
export function debateLine(r: DebateRow): string {
  return `${r.id}  ${r.kind.padEnd(5)} ${r.status.padEnd(9)} ${(r.provider ?? '').padEnd(9)} $${r.costUsd.toFixed(4)}  ${r.topic}`;
}

/**
 * `debates show ID` for an arena: as JSON the run as `runs show` reports it, with its kind; as text
 * the document `export --arena` writes (the result, then every message of its transcript), as a
 * crux debate shows its transcript.
 */
export function showArena(args: ParsedArgs, io: CliIo, id: string): number {
  const ws = Workspace.open(workspaceDir(args));
  try {
    if (args.options.json) io.out(JSON.stringify({ kind: 'arena', ...new RunService(ws).show(id) }, null, 2));
    else io.out(arenaExportMarkdown(ws, id).markdown);
    return 0;
  } finally {
    ws.close();
  }
}
