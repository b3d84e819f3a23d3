import type { CouncilTaskView } from '../../../../core/contract';
import { href } from '../../router';
import { Help } from '../../ui/help';
import { changedFiles, decisionWords, researcherWords, voteWords, workspaceWords } from './outcome-words';
import './outcome-card.css';

/** The revert form of a proposal on the task page, so the card can take the researcher to it. */
export const revertFormId = (proposalId: string) => `revert-${proposalId}`;

/**
 * What a finished council task came to, at the top of its page: for each proposal what was decided
 * and by how many of the three agents, who decided, what changed in the workspace (the files),
 * whether the researcher approved it, and the ways to the approvals inbox and the revert.
 */
export function CouncilOutcomeCard({ t }: { t: CouncilTaskView }) {
  return (
    <section
      className="card stack council-outcome"
      aria-labelledby="council-outcome-title"
      data-testid="council-outcome"
    >
      <h2 id="council-outcome-title">What the council decided</h2>
      {t.proposals.length === 0 && <p className="muted">It made no proposal.</p>}
      {t.proposals.map((p) => {
        const files = changedFiles(p);
        return (
          <div key={p.id} className="council-outcome-proposal" data-testid="council-outcome-proposal" data-id={p.id}>
            <p>
              <strong data-testid="outcome-decision">{decisionWords(p)}</strong>: {p.goal}
            </p>
            <p className="small" data-testid="outcome-votes">
              {voteWords(p.votes)}
              <Help term="ladder" />
            </p>
            <p className="small" data-testid="outcome-researcher">
              {researcherWords(p)}
            </p>
            <p className="small" data-testid="outcome-workspace">
              {workspaceWords(p)}
            </p>
            {!p.reverted && files.length > 0 && (
              <ul className="small council-list" data-testid="outcome-files">
                {files.map((c) => (
                  <li key={`${c.change}${c.path}${c.to ?? ''}`}>
                    {c.change} <code>{c.path}</code>
                    {c.to && (
                      <>
                        {' '}
                        → <code>{c.to}</code>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <div className="row small">
              <a href={href('approvals')}>Approvals inbox</a>
              {p.revertable && !p.reverted && (
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    const form = document.getElementById(revertFormId(p.id));
                    form?.scrollIntoView({ block: 'center' });
                    form?.querySelector('input')?.focus();
                  }}
                >
                  Revert it…
                </button>
              )}
            </div>
          </div>
        );
      })}
    </section>
  );
}
