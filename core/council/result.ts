import type { Stakes } from './actions';
import type { Vote } from './answers';
import type { Flag } from './flags';
import { hadDissent } from './lifecycle';
import { type CouncilState, lastVersion, type ProposalState } from './state';
import type { Tiebreak } from './tiebreak';
import { COUNCIL_AGENTS, type CouncilAgent, round, type Weights } from './values';
import type { RefusedAdjustment } from './weights';

/** A task's result, with the names the design page gives them (what replay tests compare). */
export interface CouncilResult {
  task: string;
  status: 'COMPLETED' | 'AWAITING_RESEARCHER' | 'REJECTED' | 'FAILED' | 'LIMIT';
  proposals: {
    id: string;
    versions: number;
    stakes: Stakes;
    flags: Flag[];
    votes: Partial<Record<CouncilAgent, Vote>>;
    ladder: number;
    tiebreak: Tiebreak | null;
    decision: 'approved' | 'rejected' | 'awaiting_researcher' | null;
    decidedBy: 'consensus' | 'tiebreak' | 'researcher' | null;
    executed: boolean;
    checked: boolean;
  }[];
  weights: { before: Weights; after: Weights };
  refusedAdjustments: RefusedAdjustment[];
  figures: { calls: number; proposalsWithDissent: number; dissentRate: number };
}

/** The last round's votes: the author's own approval and each review given so far. */
export function votesOf(p: ProposalState): Partial<Record<CouncilAgent, Vote>> {
  const v = lastVersion(p);
  const votes: Partial<Record<CouncilAgent, Vote>> = {};
  for (const agent of COUNCIL_AGENTS) {
    if (agent === v.author) votes[agent] = 'approve';
    else {
      const review = v.reviews[agent];
      if (review) votes[agent] = review.decision;
    }
  }
  return votes;
}

export function statusOf(state: CouncilState): CouncilResult['status'] {
  const ps = state.proposals;
  if (ps.some((p) => p.status === 'AWAITING_RESEARCHER')) return 'AWAITING_RESEARCHER';
  if (ps.some((p) => p.status === 'FAILED')) return 'FAILED';
  if (state.limit !== null) return 'LIMIT';
  if (ps.some((p) => p.executed)) return 'COMPLETED';
  return 'REJECTED';
}

export function councilResult(state: CouncilState): CouncilResult {
  const dissent = state.proposals.filter(hadDissent).length;
  return {
    task: state.header.task,
    status: statusOf(state),
    proposals: state.proposals.map((p) => {
      const v = lastVersion(p);
      return {
        id: p.id,
        versions: p.versions.length,
        stakes: v.stakes,
        flags: v.flags,
        votes: votesOf(p),
        ladder: p.ladder,
        tiebreak: p.tiebreak,
        decision: p.decision,
        decidedBy: p.decidedBy,
        executed: p.executed,
        checked: p.checked,
      };
    }),
    weights: { before: state.weightsBefore, after: state.weights },
    refusedAdjustments: state.refused.map(({ agent, value, delta, reason }) => ({ agent, value, delta, reason })),
    figures: {
      calls: state.calls,
      proposalsWithDissent: dissent,
      dissentRate: state.proposals.length === 0 ? 0 : round(dissent / state.proposals.length, 4),
    },
  };
}
