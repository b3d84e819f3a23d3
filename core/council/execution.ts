import type { CouncilAction } from './actions';
import type { CouncilFiles } from './files-port';
import { type FileOp, planAction } from './plan-action';
import type { ActionResult, FileChange } from './state';

/**
 * Executing an approved proposal, one action at a time, so that a process killed at any moment
 * neither repeats nor skips an action when the task resumes, and so that the whole proposal can be
 * reverted byte for byte in one step.
 *
 * Each proposal keeps a journal (`council/executions/<id>.json`). Before an action touches anything,
 * its operations are written there with a snapshot of every file they replace or remove and the hash
 * each file will have after; once they are done, the action's result is written. Resuming an action
 * found `started` looks at each file: one already holding the "after" hash was done, one still holding
 * the "before" hash is done now, and anything else was edited by someone else — the safe write then
 * leaves our version beside theirs as a conflict copy.
 */

export interface JournalOp {
  kind: FileOp['kind'];
  path: string;
  to?: string;
  content?: string;
  /** Hash of what the path held when planned (null: nothing). */
  beforeHash: string | null;
  /** The bytes it held (for a write or a remove), to put back on revert. */
  before: string | null;
  /** Hash of what the path (for a move, `to`) holds once the operation is done (null: nothing). */
  afterHash: string | null;
  /**
   * For a move: this move placed the copy at `to` (and, on revert, the copy back at the path). Only
   * a copy recorded here is ever taken back: a file found there with the same bytes may be the
   * researcher's.
   */
  placed?: boolean;
  placedBack?: boolean;
}

export interface JournalAction {
  action: number;
  status: 'started' | 'done';
  ops: JournalOp[];
  result?: ActionResult;
}

export interface Journal {
  proposal: string;
  actions: JournalAction[];
  /** Set once a revert starts: how many operations (counted from the last) it has undone, and what it did. */
  reverted: { undone: number; changes: FileChange[]; conflicts?: string[] } | null;
}

export const executionJournalPath = (proposalFile: string) => `council/executions/${proposalFile}.json`;

export function readJournal(files: CouncilFiles, proposalFile: string): Journal {
  const found = files.read(executionJournalPath(proposalFile));
  if (!found) return { proposal: proposalFile, actions: [], reverted: null };
  return JSON.parse(found.text) as Journal;
}

function saveJournal(files: CouncilFiles, journal: Journal): void {
  files.write(executionJournalPath(journal.proposal), `${JSON.stringify(journal, null, 2)}\n`, 'any');
}

function journalOp(files: CouncilFiles, op: FileOp): JournalOp {
  switch (op.kind) {
    case 'write':
      return {
        kind: 'write',
        path: op.path,
        content: op.content,
        beforeHash: op.expected,
        before: op.expected === null ? null : files.snapshot(op.path),
        afterHash: files.hashOf(op.content),
      };
    case 'remove':
      return {
        kind: 'remove',
        path: op.path,
        beforeHash: op.expected,
        before: files.snapshot(op.path),
        afterHash: null,
      };
    case 'move':
      return { kind: 'move', path: op.from, to: op.to, beforeHash: op.expected, before: null, afterHash: op.expected };
  }
}

const hashAt = (files: CouncilFiles, path: string) => files.read(path)?.hash ?? null;

/** Performs one journalled operation unless it is already done; says what it did. */
function perform(files: CouncilFiles, op: JournalOp, save: () => void): FileChange & { failed?: string } {
  const now = hashAt(files, op.path);
  if (op.kind === 'write') {
    const change = op.beforeHash === null ? 'created' : 'modified';
    if (now === op.afterHash) return { path: op.path, change };
    const report = files.write(op.path, op.content ?? '', op.beforeHash);
    return report.conflict
      ? {
          path: op.path,
          change,
          conflictCopy: report.path,
          failed: `${op.path} changed meanwhile; ours is in ${report.path}`,
        }
      : { path: op.path, change };
  }
  if (op.kind === 'remove') {
    if (now === null) return { path: op.path, change: 'deleted' };
    const { removed } = files.remove(op.path, op.beforeHash ?? 'any');
    return removed
      ? { path: op.path, change: 'deleted' }
      : { path: op.path, change: 'deleted', failed: `${op.path} changed meanwhile; kept` };
  }
  const to = op.to as string;
  const moved = moveFile(files, op.path, to, op.beforeHash ?? '', {
    ours: op.placed === true,
    record: () => {
      op.placed = true;
      save();
    },
  });
  return 'failed' in moved
    ? { path: op.path, change: 'moved', to, failed: moved.failed }
    : { path: op.path, change: 'moved', to };
}

/**
 * Moves a file in two halves, each safe to do again: a copy placed at `to` (only where nothing is),
 * then the original removed (only while it still holds the bytes copied). A process killed between
 * the two finds the copy in place beside the original, and finishes the move; one killed after
 * finds it done. A file changed meanwhile stays where it is, and so does anything found at `to`.
 * The copy is recorded in the journal once placed (`copy.record`); only a copy recorded as this
 * move's own (`copy.ours`, or placed now) is taken back when the original cannot be removed, since a
 * file already at `to` with the same bytes may be one the researcher made.
 */
function moveFile(
  files: CouncilFiles,
  from: string,
  to: string,
  hash: string,
  copy: { ours: boolean; record: () => void },
): { done: 'now' | 'before' } | { failed: string } {
  const atFrom = hashAt(files, from);
  const atTo = hashAt(files, to);
  if (atFrom === null && atTo === hash) return { done: 'before' };
  if (atFrom !== hash) return { failed: `${from} changed or went since it was planned; left as it is` };
  let ours = copy.ours;
  if (atTo === null) {
    const placed = files.restore(to, files.snapshot(from) ?? '', null);
    if (placed.conflict) {
      // Something appeared at `to` in the meantime: it stays; our copy beside it is taken back.
      files.remove(placed.path, 'any');
      return { failed: `${to} appeared meanwhile; ${from} was not moved` };
    }
    copy.record();
    ours = true;
  } else if (atTo !== hash) return { failed: `${to} already holds another file; ${from} was not moved` };
  // Checked again before the removal: a `from` edited since the copy keeps the edit, and the copy
  // goes back only if it is this move's own; otherwise both stay.
  const changed = () => {
    if (ours) files.remove(to, hash);
    return { failed: `${from} changed while it was being moved; left as it is${ours ? '' : ` (and so is ${to})`}` };
  };
  if (hashAt(files, from) !== hash) return changed();
  if (!files.remove(from, hash).removed) return changed();
  return { done: 'now' };
}

/**
 * Runs action `index` of a proposal, or gives back its result if an earlier run of this process (or
 * one killed) already finished it.
 */
export function executeAction(
  files: CouncilFiles,
  proposalFile: string,
  index: number,
  action: CouncilAction,
): ActionResult {
  const journal = readJournal(files, proposalFile);
  let entry = journal.actions.find((a) => a.action === index);
  if (entry?.status === 'done' && entry.result) return entry.result;
  if (!entry) {
    const plan = planAction(action, files);
    if (!plan.ok) {
      const result: ActionResult = { action: index, ok: false, detail: plan.detail, changes: [] };
      journal.actions.push({ action: index, status: 'done', ops: [], result });
      saveJournal(files, journal);
      return result;
    }
    entry = { action: index, status: 'started', ops: plan.ops.map((op) => journalOp(files, op)) };
    journal.actions.push(entry);
    // Recorded before the first operation: a kill from here on resumes from this entry.
    saveJournal(files, journal);
    if (entry.ops.length === 0) {
      const result: ActionResult = {
        action: index,
        ok: true,
        detail: plan.detail,
        changes: plan.read.map((path) => ({ path, change: 'read' as const })),
      };
      entry.status = 'done';
      entry.result = result;
      saveJournal(files, journal);
      return result;
    }
  }
  const changes: FileChange[] = [];
  const failures: string[] = [];
  for (const op of entry.ops) {
    const { failed, ...change } = perform(files, op, () => saveJournal(files, journal));
    changes.push(change);
    if (failed) {
      failures.push(failed);
      break;
    }
  }
  const result: ActionResult = {
    action: index,
    ok: failures.length === 0,
    detail: failures.length === 0 ? `${entry.ops.length} file operation(s) done` : failures.join('; '),
    changes,
  };
  entry.status = 'done';
  entry.result = result;
  saveJournal(files, journal);
  return result;
}

/** What undoing an operation does, said the same whether it was done now or before a kill. */
function undoneChange(op: JournalOp): FileChange {
  if (op.kind === 'move') return { path: op.to as string, change: 'moved', to: op.path };
  if (op.kind === 'remove') return { path: op.path, change: 'created' };
  return { path: op.path, change: op.before === null ? 'deleted' : 'modified' };
}

/**
 * Undoes one operation the execution performed. A file already holding what it held before is
 * taken as undone (by a revert killed after it); one edited since the council wrote it keeps the
 * edit, and what it held before the council goes to a conflict copy beside it.
 */
function undo(files: CouncilFiles, op: JournalOp, save: () => void): { change?: FileChange; conflict?: string } {
  const now = hashAt(files, op.path);
  if (op.kind === 'move') {
    const back = moveFile(files, op.to as string, op.path, op.afterHash ?? '', {
      ours: op.placedBack === true,
      record: () => {
        op.placedBack = true;
        save();
      },
    });
    return 'failed' in back ? { conflict: back.failed } : { change: undoneChange(op) };
  }
  if (now === op.beforeHash) return { change: undoneChange(op) };
  if (op.kind === 'write' && now !== op.afterHash) {
    if (op.before === null) return { conflict: `${op.path} changed since the council created it; left as it is` };
    // Made against what the council wrote, which the file no longer holds: a conflict copy, never over theirs.
    const report = files.restore(op.path, op.before, op.afterHash);
    return { conflict: `${op.path} changed since the council wrote it; the version from before is in ${report.path}` };
  }
  if (op.kind === 'remove' && now !== null)
    return { conflict: `${op.path} was written again since the council removed it; left as it is` };
  if (op.before === null) {
    files.remove(op.path, op.afterHash ?? 'any');
    return { change: undoneChange(op) };
  }
  const report = files.restore(op.path, op.before, now);
  if (report.conflict)
    return { conflict: `${op.path} changed while being reverted; the version from before is in ${report.path}` };
  return { change: undoneChange(op) };
}

/**
 * The operations of an action that changed something: those before the one that failed (the
 * failed one did nothing, or left ours in a conflict copy), and no write of what the file already
 * held. An action without a result (never the case once a proposal has executed) counts them all.
 */
function performed(entry: JournalAction): JournalOp[] {
  const result = entry.result;
  const ops = result ? entry.ops.slice(0, result.ok ? result.changes.length : result.changes.length - 1) : entry.ops;
  return ops.filter((op) => !(op.kind === 'write' && op.beforeHash === op.afterHash));
}

/**
 * Undoes every operation of a proposal's execution, last first, putting back the exact bytes each
 * file held. A file edited since the council wrote it is not clobbered: what it held before the
 * council goes to a conflict copy beside it. Progress is kept in the journal, so a revert killed
 * halfway resumes where it was (several operations may share a file, and only their order tells
 * which version of it each one left) and says in the end everything it did, before the kill too; a
 * finished one changes nothing more and says the same.
 */
export function revertExecution(
  files: CouncilFiles,
  proposalFile: string,
): { changes: FileChange[]; conflicts: string[] } {
  const journal = readJournal(files, proposalFile);
  const ops = journal.actions.flatMap(performed).reverse();
  const done = journal.reverted ?? { undone: 0, changes: [], conflicts: [] };
  const changes = [...done.changes];
  const conflicts = [...(done.conflicts ?? [])];
  for (let k = done.undone; k < ops.length; k++) {
    const { change, conflict } = undo(files, ops[k] as JournalOp, () => saveJournal(files, journal));
    if (change) changes.push(change);
    if (conflict) conflicts.push(conflict);
    journal.reverted = { undone: k + 1, changes: [...changes], conflicts: [...conflicts] };
    saveJournal(files, journal);
  }
  return { changes, conflicts };
}
