import { useId, useRef, useState } from 'react';
import type { CouncilProposalView } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import type { Route } from '../../router';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { EarlierVersions, Flags, LadderLevel, StakesBadge, TiebreakFigures, VersionBody, Votes } from '../council/proposal-parts';
import { WAIT_WORDS } from '../council/words';
import { FileDiff } from './file-diff';
import './approvals.css';

/**
 * The approvals inbox (`#/approvals`): every council proposal waiting for the researcher, each with
 * what it would change in every file (before and after, computed without writing anything), the
 * votes and rationales, its flags, stakes and ladder level; approve or reject with a note that later
 * councils see as a precedent. Nothing runs until the researcher decides here.
 */
export function ApprovalsView(_: { route: Route }) {
  const approvals = useChannel('council:approvals', {});
  usePush('proposal:changed', () => approvals.reload());
  const proposals = approvals.data?.proposals ?? [];
  return (
    <section className="view approvals-view">
      <h1>
        Approvals{' '}
        {proposals.length > 0 && (
          <span className="badge warn" data-testid="approvals-count">
            {proposals.length} waiting
          </span>
        )}
      </h1>
      <p className="muted approvals-intro">
        The council <Help term="council" /> never runs a high-stakes proposal <Help term="stakes" /> on its own, nor one
        the agents could not settle or one raising a gaming flag: it waits here for you. Read what it would change, then
        approve or reject it; your note is kept as a precedent <Help term="precedent" /> for later councils.
      </p>
      <ErrorNotice error={approvals.error} />
      {approvals.data && proposals.length === 0 && (
        <p className="card" data-testid="approvals-empty">
          Nothing waits for you. Give the council a task in the <a href={href('council')}>Council</a> view.
        </p>
      )}
      {proposals.map((p) => (
        <WaitingProposal key={p.id} p={p} onDecided={approvals.reload} />
      ))}
    </section>
  );
}

function WaitingProposal({ p, onDecided }: { p: CouncilProposalView; onDecided: () => void }) {
  const client = useClient();
  const ids = useId();
  const [note, setNote] = useState('');
  const preview = useChannel('council:preview', { id: p.id });
  // Once decided, the proposal's own writes change the folder while this card is still shown: a
  // preview asked for then is refused (it has been executed), so it is not asked for again.
  const decided = useRef(false);
  // An edit of the folder meanwhile changes what the proposal would do: the preview follows it.
  usePush('sync:changed', () => {
    if (!decided.current) preview.reload();
  });
  const decide = useAction(async (decision: 'approve' | 'reject') => {
    decided.current = true;
    try {
      await client.invoke(decision === 'approve' ? 'council:approve' : 'council:reject', { id: p.id, note });
    } catch (error) {
      // Refused: the proposal still waits, and its preview follows the folder again.
      decided.current = false;
      throw error;
    }
    onDecided();
  });
  const last = p.versions[p.versions.length - 1];
  const earlier = p.versions.slice(0, -1);
  const files = preview.data?.files ?? [];
  return (
    <article className="card approval" aria-labelledby={`${ids}-goal`} data-testid="approval" data-id={p.id}>
      <header className="approval-head">
        <h2 id={`${ids}-goal`}>{p.goal}</h2>
        <p className="muted small">
          Task “<a href={href('council', p.taskId)}>{p.task}</a>”
          {p.idea && (
            <>
              {' '}
              on <a href={href('idea', p.idea)}>{p.idea}</a>
            </>
          )}{' '}
          · proposal {p.proposal}, version {last?.n ?? 1} of {p.versions.length}
        </p>
        <div className="row">
          <StakesBadge stakes={p.stakes} />
          <LadderLevel ladder={p.ladder} />
          <Flags flags={p.flags} />
        </div>
        {p.waitReason && (
          <p className="approval-why">
            <strong>Why it waits for you:</strong> {WAIT_WORDS[p.waitReason]}.
          </p>
        )}
        <TiebreakFigures p={p} />
      </header>

      <section aria-label="What it would change">
        <h3>What it would change</h3>
        <ErrorNotice error={preview.error} />
        {preview.loading && !preview.data && <p className="muted">Working out the changes…</p>}
        {preview.data && files.length === 0 && preview.data.failures.length === 0 && (
          <p className="muted">
            It changes no file{preview.data.reads.length > 0 ? `; it reads ${preview.data.reads.join(', ')}` : ''}.
          </p>
        )}
        {preview.data?.failures.map((f) => (
          <p key={f.action} className="error-notice" role="note">
            <strong>
              Action {f.action + 1} ({f.tool}) could not run on the files as they are now:
            </strong>
            <span> {f.detail}. Execution would stop there.</span>
          </p>
        ))}
        {files.map((f) => (
          <FileDiff key={`${f.path}>${f.to ?? ''}`} file={f} />
        ))}
      </section>

      {last && (
        <section aria-label="The proposal and its votes" className="approval-votes">
          <h3>The proposal and the votes</h3>
          <VersionBody version={last} goal={false} />
          <Votes version={last} />
          <EarlierVersions versions={earlier} lead="how the agents got here" />
        </section>
      )}

      <form
        className="approval-decide"
        aria-label={`Decide on ${p.goal}`}
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <label htmlFor={`${ids}-note`}>
          Your note <span className="muted small">(why; later councils see it as a precedent)</span>
        </label>
        <textarea id={`${ids}-note`} rows={2} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
        <div className="row">
          <button
            type="button"
            className="primary"
            disabled={decide.running || (!preview.data && !preview.error)}
            onClick={() => void decide.run('approve')}
            title={!preview.data ? 'Wait for the preview of its changes' : undefined}
          >
            {files.length > 0 ? `Approve and change ${files.length} file${files.length === 1 ? '' : 's'}` : 'Approve'}
          </button>
          <button type="button" className="danger" disabled={decide.running} onClick={() => void decide.run('reject')}>
            Reject
          </button>
          {decide.running && <span className="muted small">Sending your decision…</span>}
        </div>
        <ErrorNotice error={decide.error} onDismiss={decide.clearError} />
      </form>
    </article>
  );
}
