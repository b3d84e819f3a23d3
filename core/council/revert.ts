import { CouncilInputError } from './errors';
import { revertExecution } from './execution';
import type { CouncilFiles } from './files-port';
import { appendOnce, CONSENSUS_HISTORY, findProposal, saveProposal } from './recorder';
import { lastVersion } from './state';

/**
 * The researcher undoes an executed proposal in one step: every file it wrote, removed or moved is
 * put back byte for byte (a file edited since keeps the edit; the earlier version goes beside it),
 * the proposal is marked REVERTED, and the decision is remembered as a precedent.
 */
export function revertProposal(
  files: CouncilFiles,
  fileId: string,
  note = '',
): { changes: unknown[]; conflicts: string[] } {
  const found = findProposal(files, fileId);
  if (!found) throw new CouncilInputError(`no council proposal "${fileId}" (see: npm run cli -- council list)`);
  const { record } = found;
  if (!record.proposal.executed)
    throw new CouncilInputError(`${fileId} was never executed: there is nothing to revert`);
  // A revert killed before it marked the proposal is finished by running it again (the journal
  // knows how far it got); one marked is done.
  if (record.reverted) throw new CouncilInputError(`${fileId} was already reverted (${record.reverted.at})`);
  const out = revertExecution(files, fileId);
  const at = files.now();
  appendOnce(files, CONSENSUS_HISTORY, [
    {
      key: `${fileId}#revert`,
      at,
      taskId: record.taskId,
      task: record.task,
      proposal: fileId,
      version: lastVersion(record.proposal).n,
      decision: 'reverted',
      decidedBy: 'researcher',
      precedent: true,
      note,
      goal: lastVersion(record.proposal).output.goal,
    },
  ]);
  // Marked last: until then, running the revert again finishes it (the precedent is written once).
  saveProposal(files, { ...record, reverted: { at, changes: out.changes, conflicts: out.conflicts } });
  return out;
}
