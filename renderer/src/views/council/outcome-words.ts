import type { CouncilFileChange, CouncilProposalView } from '../../../../core/contract';
import { LADDER_WORDS } from './words';

// The sentences of a finished council task's outcome card, apart from the card so they can be
// read and tested as words.

type Proposal = Pick<
  CouncilProposalView,
  'decision' | 'decidedBy' | 'votes' | 'ladder' | 'stakes' | 'results' | 'reverted' | 'researcherNote' | 'status'
>;

/** How the three agents voted: "2 of the three agents approved its last version (1 with concerns)". */
export function voteWords(votes: Proposal['votes']): string {
  const cast = Object.values(votes);
  const approved = cast.filter((v) => v === 'approve' || v === 'approve_with_concerns').length;
  const concerns = cast.filter((v) => v === 'approve_with_concerns').length;
  const of = cast.length === 3 ? 'of the three agents' : `of the ${cast.length} agents who voted (of three)`;
  return `${approved} ${of} approved its last version${concerns > 0 ? ` (${concerns} with concerns)` : ''}`;
}

/** Who decided, and how: the agents' ladder, the tiebreak or the researcher. */
export function decisionWords(p: Proposal): string {
  if (p.decision === null) return 'Not decided yet';
  if (p.decision === 'awaiting_researcher') return 'Waits for your decision';
  const verb = p.decision === 'approved' ? 'Approved' : 'Rejected';
  if (p.decidedBy === 'researcher') return `${verb} by you`;
  if (p.decidedBy === 'tiebreak') return `${verb} by the weight-based tiebreak`;
  return `${verb} by the agents, ${LADDER_WORDS[p.ladder] ?? 'by consensus'}`;
}

/** Whether the researcher approved it, or why they were not asked. */
export function researcherWords(p: Proposal): string {
  if (p.decidedBy === 'researcher')
    return `You ${p.decision === 'approved' ? 'approved' : 'rejected'} it${p.researcherNote ? `: “${p.researcherNote}”` : ''}.`;
  if (p.decision === 'awaiting_researcher') return 'It waits for you in the approvals inbox.';
  return `You were not asked: at ${p.stakes} stakes the agents’ decision stands unless you revert it.`;
}

/** The files the proposal wrote (reads left out), each once, in the order they were written. */
export function changedFiles(p: Pick<Proposal, 'results'>): CouncilFileChange[] {
  const seen = new Set<string>();
  const out: CouncilFileChange[] = [];
  for (const r of p.results)
    for (const c of r.changes) {
      const key = `${c.change} ${c.path} ${c.to ?? ''}`;
      if (c.change === 'read' || seen.has(key)) continue;
      seen.add(key);
      out.push(c);
    }
  return out;
}

/** What the workspace holds now of the proposal's changes, in a sentence. */
export function workspaceWords(p: Proposal): string {
  const files = changedFiles(p);
  if (p.reverted) {
    const undone = p.reverted.changes.length;
    return `Reverted: ${undone} file change${undone === 1 ? '' : 's'} undone${
      p.reverted.conflicts.length > 0 ? `, ${p.reverted.conflicts.length} kept because you edited them since` : ''
    }; the workspace is as it was.`;
  }
  if (files.length === 0)
    return p.decision === 'approved'
      ? 'Nothing in the workspace changed.'
      : 'Nothing in the workspace changed: it was not carried out.';
  return `${files.length} file${files.length === 1 ? '' : 's'} changed in the workspace:`;
}
