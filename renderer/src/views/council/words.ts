import { personaColours } from '../../ui/persona-colour';
import type { CouncilProposalView, CouncilTaskSummary } from '../../../../core/contract';

// The council's codes in the researcher's words, shared by the council view and the approvals inbox.

export type Agent = 'executor' | 'verifier' | 'integrator';
export const AGENTS: readonly Agent[] = ['executor', 'verifier', 'integrator'];

/** The three agents' colours, told apart as the personas of one view are (council-<agent> ids). */
const COUNCIL_COLOURS = personaColours(AGENTS.map((a) => `council-${a}`));
export const councilColour = (agent: Agent): string => COUNCIL_COLOURS(`council-${agent}`);

export const STATUS_WORDS: Record<CouncilProposalView['status'], string> = {
  PROPOSED: 'proposed',
  VERIFYING: 'verifying',
  INTEGRATING: 'integrating',
  AWAITING_RESEARCHER: 'waits for you',
  EXECUTING: 'executing',
  CHECKING: 'checking',
  RECORDED: 'done',
  REJECTED: 'rejected',
  FAILED: 'failed',
  REVERTED: 'reverted',
};

/** A status's badge colour: what waits for the researcher stands out; what went wrong is red. */
export function statusTone(status: CouncilProposalView['status']): string {
  if (status === 'AWAITING_RESEARCHER') return 'warn';
  if (status === 'RECORDED') return 'ok';
  if (status === 'FAILED') return 'danger';
  if (status === 'REJECTED' || status === 'REVERTED') return '';
  return 'accent';
}

export const OUTCOME_WORDS: Record<CouncilTaskSummary['outcome'], string> = {
  COMPLETED: 'completed',
  AWAITING_RESEARCHER: 'waits for you',
  REJECTED: 'nothing done (rejected)',
  FAILED: 'a check failed',
  LIMIT: 'stopped at a limit',
};

export const WAIT_WORDS: Record<NonNullable<CouncilProposalView['waitReason']>, string> = {
  stakes: 'high stakes always need you',
  flags: 'a gaming flag was raised, so the agents’ agreement is not enough',
  ladder: 'the agents could not agree; the tiebreak is only advice at these stakes',
  tie: 'the tiebreak’s two sides are less than 0.1 apart',
  limit: 'the task used up its rounds or model calls',
};

export const LADDER_WORDS = [
  'agreed at once',
  'after discussion',
  'by compromise',
  'by the weight-based tiebreak',
  'by you',
] as const;

export const VOTE_WORDS: Record<'approve' | 'approve_with_concerns' | 'reject', string> = {
  approve: 'approves',
  approve_with_concerns: 'approves with concerns',
  reject: 'rejects',
};

export const voteTone = (vote: keyof typeof VOTE_WORDS) =>
  vote === 'approve' ? 'ok' : vote === 'reject' ? 'danger' : 'warn';

export const TOOL_WORDS: Record<string, string> = {
  read_idea: 'read an idea',
  list_ideas: 'list the ideas',
  search: 'search',
  read_file: 'read a file',
  write_note: 'write a new note',
  edit_section: 'replace a README section',
  add_tags: 'add tags',
  link_ideas: 'link two ideas',
  set_stage: 'change the stage',
  capture_idea: 'capture a new idea',
  archive_idea: 'archive an idea',
  delete_file: 'delete a file',
  merge_ideas: 'merge two ideas',
  rename_idea: 'rename an idea',
};

export const STAKES_TONE: Record<'low' | 'medium' | 'high', string> = { low: '', medium: 'accent', high: 'danger' };

/** The one argument that says what an action is about, for a one-line summary. */
export function actionTarget(args: Record<string, unknown>): string {
  for (const key of ['path', 'idea', 'title', 'query']) {
    const v = args[key];
    if (typeof v === 'string') {
      const extra =
        typeof args.to === 'string'
          ? ` → ${args.to}`
          : typeof args.into === 'string'
            ? ` → ${args.into}`
            : typeof args.other === 'string'
              ? ` ↔ ${args.other}`
              : typeof args.stage === 'string'
                ? ` → ${args.stage}`
                : '';
      return `${v}${extra}`;
    }
  }
  return '';
}
