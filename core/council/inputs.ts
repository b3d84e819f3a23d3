import type { EpisodeOutput, OutcomeOutput, ProposalOutput, ReviewOutput } from './answers';
import type { ActionResult, Postcondition, WaitReason } from './state';
import type { CouncilAgent } from './values';

/** Everything that moves a council task: the agents' answers, the researcher, the execution's reports. */
export type CouncilInput =
  | { kind: 'proposal'; output: ProposalOutput }
  /** The executor has nothing more to propose; `call` says whether a model call said so. */
  | { kind: 'finish'; call: boolean }
  | { kind: 'review'; agent: CouncilAgent; output: ReviewOutput }
  | { kind: 'revision'; output: ProposalOutput }
  | { kind: 'compromise'; output: ProposalOutput }
  | { kind: 'researcher'; proposal: string; decision: 'approve' | 'reject'; note: string }
  | { kind: 'executed'; proposal: string; result: ActionResult }
  | { kind: 'checked'; proposal: string; postconditions: Postcondition[] }
  | { kind: 'outcome'; output: OutcomeOutput }
  | { kind: 'episode'; output: EpisodeOutput }
  | { kind: 'stop'; reason: string };

/** A model call the council needs, by role. */
export type CouncilAsk =
  | { role: 'proposal'; agent: 'executor' }
  | { role: 'review'; agent: CouncilAgent; proposal: string; version: number }
  | { role: 'revision'; agent: 'executor'; proposal: string; version: number }
  | { role: 'compromise'; agent: 'integrator'; proposal: string; version: number }
  | { role: 'outcome'; agent: 'verifier'; proposal: string }
  | { role: 'episode'; agent: 'integrator' };

/** What the council needs next: one model call, the researcher, an action run, a check, or nothing. */
export type CouncilNeed =
  | { kind: 'ask'; ask: CouncilAsk }
  | { kind: 'researcher'; proposal: string; reason: WaitReason }
  | { kind: 'execute'; proposal: string; action: number }
  | { kind: 'check'; proposal: string }
  | { kind: 'done' };

/** What the council says happened, for the log, the files under `council/` and live views. */
export type CouncilEvent =
  | { kind: 'version'; proposal: string; version: number; by: CouncilAgent; stakes: string; flags: string[] }
  | { kind: 'reviewed'; proposal: string; version: number; agent: CouncilAgent; decision: string }
  | { kind: 'ladder'; proposal: string; level: number }
  | { kind: 'awaiting_researcher'; proposal: string; reason: WaitReason }
  | {
      kind: 'decided';
      proposal: string;
      version: number;
      decision: 'approved' | 'rejected';
      decidedBy: 'consensus' | 'tiebreak' | 'researcher';
      note: string | null;
    }
  | { kind: 'executed'; proposal: string; action: number; ok: boolean }
  | { kind: 'settled'; proposal: string; status: 'RECORDED' | 'REJECTED' | 'FAILED' }
  | { kind: 'limit'; reason: string }
  | { kind: 'recorded' }
  | { kind: 'stopped'; reason: string };
