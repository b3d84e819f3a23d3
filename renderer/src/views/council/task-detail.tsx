import { useId, useState } from 'react';
import type { ChannelOutput, CouncilProposalView, CouncilTaskView } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { Lifecycle } from './lifecycle';
import { CouncilOutcomeCard, revertFormId } from './outcome-card';
import {
  AgentName,
  EarlierVersions,
  Flags,
  LadderLevel,
  StakesBadge,
  StatusBadge,
  TiebreakFigures,
  VersionBody,
  Votes,
} from './proposal-parts';
import { OUTCOME_WORDS, WAIT_WORDS } from './words';

/** One council task: where it stands, each proposal in full, what it learned and how weights moved. */
export function TaskDetail({ id }: { id: string }) {
  const client = useClient();
  const task = useChannel('council:get', { id });
  usePush('proposal:changed', (p) => {
    if (p.taskId === id) task.reload();
  });
  usePush('run:status', (r) => {
    if (r.id === id) task.reload();
  });
  const resume = useAction(async () => {
    await client.invoke('council:resume', { id });
    task.reload();
  });
  const t = task.data;
  if (!t)
    return (
      <section className="view council-view">
        <p>
          <a href={href('council')}>← Council</a>
        </p>
        <ErrorNotice error={task.error} />
        {!task.error && <p className="muted">Loading the task…</p>}
      </section>
    );
  const waiting = t.proposals.filter((p) => p.status === 'AWAITING_RESEARCHER' && !p.deciding);
  const interrupted = t.run?.status === 'running' && !t.run.live && waiting.length === 0 && t.phase !== 'done';
  return (
    <section className="view council-view" data-testid="council-task" data-outcome={t.outcome}>
      <p>
        <a href={href('council')}>← Council</a>
      </p>
      <h1>{t.task}</h1>
      <div className="row council-task-meta">
        <span
          className={`badge ${t.outcome === 'AWAITING_RESEARCHER' ? 'warn' : t.outcome === 'COMPLETED' ? 'ok' : t.outcome === 'FAILED' ? 'danger' : ''}`}
          data-testid="task-outcome"
        >
          {OUTCOME_WORDS[t.outcome]}
        </span>
        {t.run?.live && <span className="badge accent">running now</span>}
        {t.idea && (
          <span>
            about <a href={href('idea', t.idea)}>{t.idea}</a>
          </span>
        )}
        <span className="muted small">
          {t.calls} model call{t.calls === 1 ? '' : 's'} · {t.rounds} voting round{t.rounds === 1 ? '' : 's'} · dissent
          rate {t.figures.dissentRate.toFixed(2)} <Help term="dissent" />
          {t.run
            ? ` · $${t.run.costUsd.toFixed(4)} (${t.run.provider ?? 'provider unknown'})`
            : ' · replayed from a script'}
        </span>
      </div>
      {t.phase === 'done' && <CouncilOutcomeCard t={t} />}
      {t.phase !== 'done' && <p className="small">Waiting for {t.waitsFor}.</p>}
      {t.limit && <p className="small">Stopped deliberating: {t.limit}.</p>}
      {t.error && <ErrorNotice error={new Error(t.error)} />}
      {waiting.length > 0 && (
        <p className="approval-why" data-testid="task-waits">
          <strong>
            {waiting.length === 1 ? 'A proposal waits' : `${waiting.length} proposals wait`} for your decision.
          </strong>{' '}
          <a href={href('approvals')}>Open the approvals inbox</a> to see what it would change and decide.
        </p>
      )}
      {interrupted && (
        <p className="approval-why">
          The task stopped before its end (the app closed or the process died).{' '}
          <button type="button" onClick={() => void resume.run()} disabled={resume.running}>
            Resume it
          </button>
        </p>
      )}
      <ErrorNotice error={resume.error} onDismiss={resume.clearError} />
      {t.proposals.length === 0 && <p className="muted">No proposal yet: the executor is thinking.</p>}
      {t.proposals.map((p) => (
        <ProposalCard key={p.id} p={p} onChange={task.reload} />
      ))}
      <Episode t={t} />
    </section>
  );
}

function ProposalCard({ p, onChange }: { p: CouncilProposalView; onChange: () => void }) {
  const last = p.versions[p.versions.length - 1];
  const earlier = p.versions.slice(0, -1);
  return (
    <article className="card council-proposal" data-testid="council-proposal" data-id={p.id} data-status={p.status}>
      <header>
        <h2>
          <span className="muted">{p.proposal}</span> {p.goal}
        </h2>
        <div className="row">
          <StatusBadge status={p.status} />
          <StakesBadge stakes={p.stakes} />
          <LadderLevel ladder={p.ladder} />
          <Flags flags={p.flags} />
        </div>
        <Lifecycle p={p} />
        {p.waitsFor && p.status !== 'AWAITING_RESEARCHER' && <p className="muted small">Waits for {p.waitsFor}.</p>}
        {p.status === 'AWAITING_RESEARCHER' && p.waitReason && (
          <p className="small">
            Waits for you: {WAIT_WORDS[p.waitReason]}.{' '}
            {p.deciding ? (
              <span className="muted">Your decision is being carried out.</span>
            ) : (
              <a href={href('approvals')}>Decide in the inbox</a>
            )}
          </p>
        )}
        <Decision p={p} />
        <TiebreakFigures p={p} />
      </header>
      {last && (
        <section aria-label={`Version ${last.n}`}>
          <h3>
            Version {last.n} of {p.versions.length}: {last.kind} by <AgentName agent={last.author} />
          </h3>
          <VersionBody version={last} />
          <h4>Votes</h4>
          <Votes version={last} />
        </section>
      )}
      <EarlierVersions versions={earlier} />
      <Execution p={p} onChange={onChange} />
    </article>
  );
}

function Decision({ p }: { p: CouncilProposalView }) {
  if (p.decision === null || p.decision === 'awaiting_researcher') return null;
  const by =
    p.decidedBy === 'researcher'
      ? 'you'
      : p.decidedBy === 'tiebreak'
        ? 'the weight-based tiebreak'
        : 'the agents’ consensus';
  return (
    <p className="small" data-testid="decision">
      <strong>{p.decision === 'approved' ? 'Approved' : 'Rejected'}</strong> by {by}
      {p.researcherNote ? (
        <>
          {' '}
          — your note: “{p.researcherNote}” <Help term="precedent" />
        </>
      ) : null}
      .
    </p>
  );
}

type Reverted = ChannelOutput<'council:revert'>;

/** What executed, the checks, the verifier's review of the outcome, and the one-step revert. */
function Execution({ p, onChange }: { p: CouncilProposalView; onChange: () => void }) {
  const client = useClient();
  const ids = useId();
  const [note, setNote] = useState('');
  const [done, setDone] = useState<Reverted | null>(null);
  const revert = useAction(async () => {
    setDone(await client.invoke('council:revert', { id: p.id, note }));
    onChange();
  });
  if (p.results.length === 0 && !p.executed) return null;
  const reverted = p.reverted ?? done?.proposal.reverted ?? null;
  return (
    <section className="council-execution" aria-label="Execution">
      <h3>Executed</h3>
      <ol className="council-list">
        {p.results.map((r) => (
          <li key={r.action}>
            action {r.action + 1}: <span className={`badge ${r.ok ? 'ok' : 'danger'}`}>{r.ok ? 'done' : 'failed'}</span>{' '}
            {r.changes
              .filter((c) => c.change !== 'read')
              .map((c) => (
                <span key={`${c.path}${c.to ?? ''}`} className="council-change">
                  {c.change} <code>{c.path}</code>
                  {c.to && (
                    <>
                      {' '}
                      → <code>{c.to}</code>
                    </>
                  )}
                  {c.conflictCopy && (
                    <span className="muted">
                      {' '}
                      (it had changed meanwhile: ours is in <code>{c.conflictCopy}</code>)
                    </span>
                  )}
                </span>
              ))}
            {!r.ok && <span className="small"> — {r.detail}</span>}
            {r.ok && r.changes.every((c) => c.change === 'read') && (
              <details>
                <summary className="small">what it read</summary>
                <pre className="council-pre">{r.detail}</pre>
              </details>
            )}
          </li>
        ))}
      </ol>
      {p.postconditions && (
        <p className="small">
          Postconditions <Help term="postcondition" />:{' '}
          {p.postconditions.map((c) => (
            <span key={c.action} className="council-change">
              {c.holds ? '✓' : '✗'} action {c.action + 1}: {c.detail}
            </span>
          ))}
        </p>
      )}
      {p.outcome && (
        <p className="small">
          <AgentName agent="verifier" /> on the outcome: {p.outcome.confirmed ? 'confirmed' : 'not confirmed'} —{' '}
          {p.outcome.notes}
        </p>
      )}
      {reverted ? (
        <p className="small" data-testid="reverted">
          <strong>Reverted</strong> on {new Date(reverted.at).toLocaleString()}: {reverted.changes.length} file change
          {reverted.changes.length === 1 ? '' : 's'} undone
          {reverted.conflicts.length > 0 ? `; kept (edited since): ${reverted.conflicts.join('; ')}` : ''}.
        </p>
      ) : (
        p.revertable && (
          <form
            id={revertFormId(p.id)}
            className="row council-revert"
            aria-label={`Revert ${p.proposal}`}
            onSubmit={(e) => {
              e.preventDefault();
              void revert.run();
            }}
          >
            <label htmlFor={`${ids}-note`}>Note</label>
            <input
              id={`${ids}-note`}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              placeholder="why (kept as a precedent)"
              maxLength={2000}
            />
            <button type="submit" className="danger" disabled={revert.running}>
              Revert: undo every file change
            </button>
            <span className="muted small">
              Puts back every file byte for byte; a file you edited since keeps your edit.
            </span>
          </form>
        )
      )}
      <ErrorNotice error={revert.error} onDismiss={revert.clearError} />
    </section>
  );
}

function Episode({ t }: { t: CouncilTaskView }) {
  if (!t.episode && t.applied.length === 0 && t.refused.length === 0) return null;
  return (
    <section className="card council-episode" aria-label="What the task taught">
      <h2>What the task taught</h2>
      {t.episode && t.episode.keyLearnings.length > 0 && (
        <ul className="council-list">
          {t.episode.keyLearnings.map((k) => (
            <li key={k}>{k}</li>
          ))}
        </ul>
      )}
      {t.episode && t.episode.valuesServed.length > 0 && (
        <p className="small">Values served: {t.episode.valuesServed.join(', ')}.</p>
      )}
      {(t.applied.length > 0 || t.refused.length > 0) && (
        <>
          <h3>
            Weight adjustments <Help term="value-weights" />
          </h3>
          <ul className="council-list">
            {t.applied.map((a) => (
              <li key={`${a.agent}${a.value}${a.from}`}>
                {a.agent}’s {a.value}: {a.from.toFixed(2)} → {a.to.toFixed(2)}
              </li>
            ))}
            {t.refused.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: refusals are listed in the order proposed
              <li key={i}>
                <span className="badge">refused</span> {r.agent}’s {r.value} {r.delta > 0 ? '+' : ''}
                {r.delta}: {r.reason} <Help term="diversity-floor" />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
