import { arenaEntry } from '../../../arena/live/protocol';
import type { ArenaSetup } from '../../../arena/live/setup';
import type { ArenaState } from '../../../arena/state';
import type { RunHeader } from '../../../engine/debate-record';
import type { RunStatus } from '../../../engine/protocol';
import { NO_RESOURCES } from '../../../engine/registry';
import { lastStatus, readDebateLog } from '../../debates/journal';
import { foldRun, RunService } from '../../runs/run-service';
import { UserError, type Workspace } from '../../workspace/workspace';

/** One arena as its log has it now (a running arena's log too: a torn last line is left for later). */
export interface ArenaRead {
  header: RunHeader;
  setup: ArenaSetup;
  state: ArenaState;
  status: RunStatus;
  reason: string | null;
  costUsd: number;
  records: number;
}

/**
 * Reads and folds one arena's log by its id, the way the run service folds any run; a run of
 * another protocol is refused by name. (core/node/arena reads every arena log at once, for the
 * ratings; the view needs one.)
 */
export function readArena(ws: Workspace, id: string): ArenaRead {
  const rel = new RunService(ws).logPathOf(id);
  const { records } = readDebateLog(ws.root, rel);
  const first = records[0];
  // A crux debate's log starts with a header of its own, older than the general one.
  const protocol =
    first?.type === 'run_created' ? first.header.protocol : first?.type === 'debate_created' ? 'crux' : null;
  if (protocol !== arenaEntry.name || first?.type !== 'run_created')
    throw new UserError(
      protocol === null
        ? `${rel} does not start with a run header`
        : `run ${id} is not an arena but a ${protocol} run (see: runs show ${id})`,
    );
  const header = first.header;
  const setup = arenaEntry.setup.parse(header.setup);
  const runner = foldRun(arenaEntry, { ...header, setup }, records, NO_RESOURCES);
  const status = lastStatus(records) ?? 'running';
  return {
    header,
    setup,
    state: runner.currentState as ArenaState,
    status,
    reason: runner.currentStatus.reason,
    costUsd: runner.usage.costUsd,
    records: records.length,
  };
}
