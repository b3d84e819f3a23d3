import type { CouncilProposalView } from '../../../../core/contract';
import { Help } from '../../ui/help';
import { STATUS_WORDS } from './words';

// A proposal's way through the council as a row of steps: the ones passed, the one it is at, the
// researcher's step dashed when it was not needed, and how it ended (rejected, failed, reverted).

const STEPS = [
  'PROPOSED',
  'VERIFYING',
  'INTEGRATING',
  'AWAITING_RESEARCHER',
  'EXECUTING',
  'CHECKING',
  'RECORDED',
] as const;
type Step = (typeof STEPS)[number];
const WORDS: Record<Step, string> = {
  PROPOSED: 'propose',
  VERIFYING: 'verify',
  INTEGRATING: 'integrate',
  AWAITING_RESEARCHER: 'you',
  EXECUTING: 'execute',
  CHECKING: 'check',
  RECORDED: 'record',
};

/** Where along the steps the proposal is (or stopped), and whether it ended off the main line. */
export function lifecyclePosition(p: Pick<CouncilProposalView, 'status' | 'decidedBy' | 'executed' | 'checked'>): {
  at: number;
  end: 'REJECTED' | 'FAILED' | 'REVERTED' | null;
} {
  const index = (STEPS as readonly string[]).indexOf(p.status);
  if (index >= 0) return { at: index, end: null };
  if (p.status === 'REJECTED') return { at: p.decidedBy === 'researcher' ? 3 : 2, end: 'REJECTED' };
  if (p.status === 'FAILED') return { at: 5, end: 'FAILED' };
  return { at: p.checked ? 6 : p.executed ? 5 : 4, end: 'REVERTED' };
}

export function Lifecycle({ p }: { p: CouncilProposalView }) {
  const { at, end } = lifecyclePosition(p);
  const researcherNeeded = p.decidedBy === 'researcher' || p.status === 'AWAITING_RESEARCHER';
  return (
    <ol className="council-lifecycle" aria-label="Lifecycle" data-testid="lifecycle">
      {STEPS.map((step, i) => {
        const skipped = step === 'AWAITING_RESEARCHER' && !researcherNeeded;
        const state = i < at || (i === at && end !== null) ? 'done' : i === at ? 'current' : 'future';
        return (
          <li
            key={step}
            className={`${skipped ? 'skipped' : state}`}
            aria-current={state === 'current' && !skipped ? 'step' : undefined}
            title={skipped ? 'not needed: the agents’ decision was enough' : STATUS_WORDS[step]}
          >
            {WORDS[step]}
          </li>
        );
      })}
      {end && (
        <li className={`end ${end === 'FAILED' ? 'failed' : ''}`}>
          {STATUS_WORDS[end]}
          <Help term={end} />
        </li>
      )}
    </ol>
  );
}
