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
export const EPISODES = `${COUNCIL_DIR}/memory/episodes.jsonl`;
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

/** The lines of a JSONL file the council owns (a torn or foreign line is skipped, never fatal). */
export function readLines<T>(files: CouncilFiles, path: string): T[] {
  const text = files.read(path)?.text ?? '';
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as T];
    } catch {
      return [];
    }
  });
}

/** Appends the records whose key is not in the file yet. */
export function appendOnce(files: CouncilFiles, path: string, records: { key: string }[]): void {
  const current = files.read(path)?.text ?? '';
  const have = new Set(readLines<{ key?: string }>(files, path).map((r) => r.key));
  const fresh = records.filter((r) => !have.has(r.key));
  if (fresh.length === 0) return;
  const head = current === '' || current.endsWith('\n') ? current : `${current}\n`;
  files.write(path, head + fresh.map((r) => `${JSON.stringify(r)}\n`).join(''), 'any');
}

export interface ProposalFile {
  id: string;
  taskId: string;
  task: string;
  idea: string | null;
  proposal: ProposalState;
}

/** Writes a proposal into the folder of its state, and takes it out of the others. */
export function saveProposal(files: CouncilFiles, record: ProposalFile): void {
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
    keyLearnings: state.episode?.keyLearnings ?? [],
    valuesServed: state.episode?.valuesServed ?? [],
    weightAdjustments: state.applied,
    refusedAdjustments: state.refused,
    artifacts: [...artifacts],
    calls: state.calls,
    limit: state.limit,
  };
}

/** Records a task's progress as its events happen (the observer of a replay or a live run). */
export function councilRecorder(files: CouncilFiles, taskId: string): CouncilObserver {
  return {
    after(state: CouncilState, events: CouncilEvent[]) {
      const touched = new Set(events.flatMap((e) => ('proposal' in e ? [e.proposal] : [])));
      for (const p of state.proposals) {
        if (!touched.has(p.id)) continue;
        saveProposal(files, {
          id: proposalFileId(taskId, p.id),
          taskId,
          task: state.header.task,
          idea: state.header.idea,
          proposal: p,
        });
      }
      const at = files.now();
      const decisions = events.flatMap((e) => (e.kind === 'decided' ? [e] : []));
      if (decisions.length > 0) {
        appendOnce(
          files,
          CONSENSUS_HISTORY,
          decisions.map((d) => {
            const p = state.proposals.find((x) => x.id === d.proposal) as ProposalState;
            const fileId = proposalFileId(taskId, d.proposal);
            return {
              key: `${fileId}#${d.version}`,
              at,
              taskId,
              task: state.header.task,
              proposal: fileId,
              version: d.version,
              stakes: lastVersion(p).stakes,
              flags: lastVersion(p).flags,
              ladder: p.ladder,
              decision: d.decision,
              decidedBy: d.decidedBy,
              precedent: d.decidedBy === 'researcher',
              note: d.note,
              goal: lastVersion(p).output.goal,
            };
          }),
        );
      }
      if (events.some((e) => e.kind === 'recorded')) {
        appendOnce(files, EPISODES, [episodeRecord(taskId, state, at)]);
        appendOnce(files, WEIGHT_HISTORY, [
          ...state.applied.map((a, i) => ({ key: `${taskId}#${i}`, at, taskId, ...a })),
          ...state.refused.map((r, i) => ({ key: `${taskId}#refused${i}`, at, taskId, ...r, refused: true })),
        ]);
        files.write(WEIGHTS_FILE, `${JSON.stringify(state.weights, null, 2)}\n`, 'any');
      }
    },
  };
}
