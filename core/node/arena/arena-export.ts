import { arenaMarkdown } from '../../arena/export-markdown';
import { arenaEntry } from '../../arena/live/protocol';
import type { ArenaState } from '../../arena/state';
import { NO_RESOURCES } from '../../engine/registry';
import { lastStatus, readDebateLog } from '../debates/journal';
import { foldRun, RunService } from '../runs/run-service';
import { UserError, type Workspace } from '../workspace/workspace';

/**
 * Arena `id` as the Markdown an export writes (`export --arena ID`), folded from its log the way
 * `runs show` folds it, and the log's workspace-relative path (for the document's byline).
 */
export function arenaExportMarkdown(ws: Workspace, id: string): { markdown: string; rel: string } {
  const service = new RunService(ws);
  const rel = service.logPathOf(id);
  const header = service.header(id);
  if (header.protocol !== arenaEntry.name)
    throw new UserError(`run ${id} is a ${header.protocol} run, not an arena (export it as its own kind)`);
  const { records } = readDebateLog(ws.root, rel);
  const setup = arenaEntry.setup.parse(header.setup);
  const runner = foldRun(arenaEntry, { ...header, setup }, records, NO_RESOURCES);
  const markdown = arenaMarkdown(runner.currentState as ArenaState, {
    id,
    ideaSlug: header.ideaSlug,
    status: lastStatus(records) ?? 'running',
    createdAt: header.createdAt,
    provider: header.provider,
    costUsd: runner.usage.costUsd,
    embeddingModel: setup.embedding?.model ?? null,
  });
  return { markdown, rel };
}
