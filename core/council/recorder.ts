import { EPISODES_FILE } from '../memory/episode';
import { appendOnce } from '../memory/jsonl';
import { targetOf } from './actions';
import type { CouncilFiles } from './files-port';
import type { CouncilEvent } from './inputs';
import type { CouncilObserver } from './replay';
import { proposalFileId } from './replay';
import { statusOf } from './result';
import { type CouncilState, lastVersion, type ProposalState } from './state';

/**
 * The council's memory as plain files under `<workspace>/council/`, written as a task moves:
 *
 *   proposals/{pending,approved,rejected}/<id>.json   one per proposal, in the folder of its state
 *   memory/episodes.jsonl                            one line per finished task
 *   memory/consensus_history.jsonl                   one line per decision (the researcher's are precedents)
 *   values/weights.json, values/weight_history.jsonl the weights now, and every change (and refusal)
 *
 * Each line carries a key, and a line whose key is already in its file is not written again, so a
 * task resumed after a kill records everything exactly once.
 */
export const COUNCIL_DIR = 'council';
export const EPISODES = EPISODES_FILE;
export const CONSENSUS_HISTORY = `${COUNCIL_DIR}/memory/consensus_history.jsonl`;
export const WEIGHTS_FILE = `${COUNCIL_DIR}/values/weights.json`;
export const WEIGHT_HISTORY = `${COUNCIL_DIR}/values/weight_history.jsonl`;
export const PROPOSAL_FOLDERS = ['pending', 'approved', 'rejected'] as const;
export type ProposalFolder = (typeof PROPOSAL_FOLDERS)[number];

export const proposalPath = (folder: ProposalFolder, fileId: string) =>
  `${COUNCIL_DIR}/proposals/${folder}/${fileId}.json`;

export function folderOf(p: Pick<ProposalState, 'status' | 'decision'>): ProposalFolder {
  if (p.status === 'REJECTED') return 'rejected';
  return p.decision === 'approved' ? 'approved' : 'pending';
}

// The JSONL helpers are the shared memory's (every protocol appends episodes to the same file).
export { appendOnce, readLines } from '../memory/jsonl';

export interface ProposalFile {
  id: string;
  taskId: string;
  task: string;
  idea: string | null;
  proposal: ProposalState;
  /** Set when the researcher reverted it: when, and what the revert did. */
  reverted?: { at: string; changes: unknown[]; conflicts: string[] };
}

/**
 * Writes a proposal into the folder of its state, and takes it out of the others. A revert, made
 * after the task's run, is kept: the run's state never knows of it.
 */
export function saveProposal(files: CouncilFiles, given: ProposalFile): void {
  const earlier = PROPOSAL_FOLDERS.map((f) => files.read(proposalPath(f, given.id))).find((x) => x !== null);
  const reverted = given.reverted ?? (earlier ? (JSON.parse(earlier.text) as ProposalFile).reverted : undefined);
  const record: ProposalFile = reverted
    ? { ...given, proposal: { ...given.proposal, status: 'REVERTED' }, reverted }
    : given;
  const folder = folderOf(record.proposal);
  const text = `${JSON.stringify(record, null, 2)}\n`;
  const path = proposalPath(folder, record.id);
  if (files.read(path)?.text !== text) files.write(path, text, 'any');
  for (const other of PROPOSAL_FOLDERS) if (other !== folder) files.remove(proposalPath(other, record.id), 'any');
}

export function findProposal(
  files: CouncilFiles,
  fileId: string,
): { folder: ProposalFolder; record: ProposalFile } | null {
  for (const folder of PROPOSAL_FOLDERS) {
    const found = files.read(proposalPath(folder, fileId));
    if (found) return { folder, record: JSON.parse(found.text) as ProposalFile };
  }
  return null;
}

/** The episode line of a finished task. */
export function episodeRecord(taskId: string, state: CouncilState, at: string) {
  const artifacts = new Set<string>();
  for (const p of state.proposals)
    for (const r of p.results) for (const c of r.changes) if (c.change !== 'read') artifacts.add(c.to ?? c.path);
  return {
    key: `council:${taskId}`,
    id: taskId,
    protocol: 'council',
    at,
    task: state.header.task,
    idea: state.header.idea,
    goal: state.header.task,
    outcome: statusOf(state),
    proposals: state.proposals.map((p) => {
      const v = lastVersion(p);
      return {
        id: p.id,
        goal: v.output.goal,
        actions: v.output.actions.map((a) => ({ tool: a.tool, target: targetOf(a) })),
        status: p.status,
        decision: p.decision,
        decidedBy: p.decidedBy,
        ladder: p.ladder,
        versions: p.versions.length,
      };
    }),
    rounds: state.rounds,
    conflicts: state.proposals.filter((p) => p.ladder > 0).length,
    // What the council argued over: each proposal that went up the ladder, with the last objection.
    cruxes: state.proposals
      .filter((p) => p.ladder > 0)
      .map((p) => {
        const objection = [...p.versions]
          .reverse()
          .flatMap((v) => Object.values(v.reviews))
          .find((r) => r?.decision === 'reject');
        return `${lastVersion(p).output.goal}${objection ? ` — objected: ${objection.rationale}` : ''}`;
      }),
    keyLearnings: state.episode?.keyLearnings ?? [],
    valuesServed: state.episode?.valuesServed ?? [],
    weightAdjustments: state.applied,
    refusedAdjustments: state.refused,
    artifacts: [...artifacts],
    calls: state.calls,
    limit: state.limit,
  };
}

/**
 * Records a task as it moves. Everything is derived from the state, not from the events of the last
 * step, so a task resumed after a kill (whose last step may have been logged but not recorded)
 * brings the files up to date on its first step; what is already there is not written again.
 */
export function councilRecorder(files: CouncilFiles, taskId: string): CouncilObserver {
  return {
    after(state: CouncilState, _events: CouncilEvent[]) {
      recordCouncil(files, taskId, state);
    },
  };
}

export function recordCouncil(files: CouncilFiles, taskId: string, state: CouncilState): void {
  for (const p of state.proposals)
    saveProposal(files, {
      id: proposalFileId(taskId, p.id),
      taskId,
      task: state.header.task,
      idea: state.header.idea,
      proposal: p,
    });
  const at = files.now();
  const decided = state.proposals.filter((p) => p.decision === 'approved' || p.decision === 'rejected');
  if (decided.length > 0)
    appendOnce(
      files,
      CONSENSUS_HISTORY,
      decided.map((p) => {
        const v = lastVersion(p);
        const fileId = proposalFileId(taskId, p.id);
        return {
          key: `${fileId}#${v.n}`,
          at,
          taskId,
          task: state.header.task,
          proposal: fileId,
          version: v.n,
          stakes: v.stakes,
          flags: v.flags,
          ladder: p.ladder,
          decision: p.decision,
          decidedBy: p.decidedBy,
          precedent: p.decidedBy === 'researcher',
          note: p.researcherNote,
          goal: v.output.goal,
        };
      }),
    );
  if (state.phase === 'done' && state.episode !== null) {
    appendOnce(files, EPISODES, [episodeRecord(taskId, state, at)]);
    appendOnce(files, WEIGHT_HISTORY, [
      ...state.applied.map((a, i) => ({ key: `${taskId}#${i}`, at, taskId, ...a })),
      ...state.refused.map((r, i) => ({ key: `${taskId}#refused${i}`, at, taskId, ...r, refused: true })),
    ]);
    const weights = `${JSON.stringify(state.weights, null, 2)}\n`;
    if (files.read(WEIGHTS_FILE)?.text !== weights) files.write(WEIGHTS_FILE, weights, 'any');
  }
}
