import { useEffect, useMemo, useRef, useState } from 'react';
import type { EvaluationEntry } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { useMedia } from '../../ui/use-media';
import { entryParts } from './entry-words';
import { duration, showsPhase, statusClass, statusLabel, statusWord, stopReasonWords, usd } from './format';
import { LockNow, lockIsEarly } from './lock-now';
import { EvaluationOutcomeCard } from './outcome-card';
import { Parts, PhaseBadge } from './terms';
import { StalenessNote } from './staleness-note';
import { useEvaluation } from './use-evaluation';
import './evaluation.css';

const COLUMNS: { id: EvaluationEntry['column']; title: string; hint: string }[] = [
  { id: 'evaluators', title: 'Evaluators', hint: 'first scores and defences, one evaluator per category' },
  { id: 'transcript', title: 'Transcript', hint: 'rounds, the arbiter’s rulings, syntheses and convergence checks' },
  { id: 'redteam', title: 'Red team', hint: 'challenges raised by the red-team personas, and those dropped' },
];

const WINNER_WORDS = { EVALUATOR: 'evaluator won', RED_TEAM: 'red team won', DRAW: 'draw' } as const;

function Entry({ entry }: { entry: EvaluationEntry }) {
  const moved = entry.scoreBefore !== null && entry.scoreAfter !== null;
  const parts = entryParts(entry);
  return (
    <li
      className={`entry${entry.dropped ? ' dropped' : ''}${entry.winner ? ` won-${entry.winner.toLowerCase()}` : ''}`}
      data-type={entry.type}
    >
      <div className="entry-head">
        {entry.agent && <span className="badge">{entry.agent}</span>}
        {entry.severity && (
          <span
            className={`badge${entry.severity === 'CRITICAL' ? ' danger' : entry.severity === 'MAJOR' ? ' warn' : ''}`}
          >
            {entry.severity}
          </span>
        )}
        <strong>
          <Parts parts={parts.title} />
        </strong>
        {entry.winner && <span className="badge accent">{WINNER_WORDS[entry.winner]}</span>}
        {moved && (
          <span className="num" title="score before → after the ruling">
            {entry.scoreBefore} → {entry.scoreAfter}
          </span>
        )}
        {entry.round !== null && entry.round > 0 && <span className="muted small">R{entry.round}</span>}
      </div>
      {parts.text.length > 0 && (
        <p className="entry-text">
          <Parts parts={parts.text} />
        </p>
      )}
    </li>
  );
}

/** A column that follows its newest entry, unless the researcher scrolled up to read. */
function Column({
  id,
  title,
  hint,
  entries,
  tabbed,
  hidden,
}: {
  id: string;
  title: string;
  hint: string;
  entries: EvaluationEntry[];
  tabbed: boolean;
  /** Kept mounted when another tab is shown, so it still follows its newest entry. */
  hidden: boolean;
}) {
  const ref = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows new entries by their count
  useEffect(() => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [entries.length]);
  return (
    <section
      className="eval-column card"
      aria-label={title}
      hidden={hidden}
      {...(tabbed ? { role: 'tabpanel', id: `eval-panel-${id}`, 'aria-labelledby': `eval-tab-${id}` } : {})}
    >
      <h2>
        {title} <span className="muted small">({entries.length})</span>
      </h2>
      <p className="muted small">{hint}</p>
      {/* Each column scrolls on its own: focusable and named, so a keyboard alone can scroll it. */}
      <ol
        ref={ref}
        className="entries"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard (WCAG 2.1.1)
        tabIndex={0}
        aria-label={`${title} entries`}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
        }}
      >
        {entries.map((e) => (
          <Entry key={e.seq} entry={e} />
        ))}
        {entries.length === 0 && <li className="muted small">Nothing yet.</li>}
      </ol>
    </section>
  );
}

const MAX_ROUNDS = 5;

function Meter({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  const share = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div className="meter">
      <div className="row">
        <span className="muted small">{label}</span>
        <span className="small">{text}</span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        aria-valuetext={text}
      >
        <div style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}

/**
 * One evaluation as it runs: evaluators, transcript and red team in three columns filling as the
 * events arrive, the phase and round, progress with an estimate of the time left, the running cost
 * against the budget; cancel, resume, and lock now (approve the scores as they stand).
 */
export function EvaluationLiveView({ route }: { route: Route }) {
  const id = route.params[0] ?? null;
  const client = useClient();
  const { detail: d, error, reload, pace } = useEvaluation(id);
  const [now, setNow] = useState(() => Date.now());
  const act = useAction(
    async (channel: 'evaluations:cancel' | 'evaluations:resume' | 'evaluations:approve' | 'evaluations:addRound') => {
      if (!id) return;
      await client.invoke(channel, { id });
      reload();
    },
  );

  const word = d ? statusWord(d) : null;
  const running = word === 'running' || word === 'stopping';
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [running]);

  const columns = useMemo(() => {
    const by: Record<string, EvaluationEntry[]> = { evaluators: [], transcript: [], redteam: [] };
    for (const e of d?.entries ?? []) by[e.column]?.push(e);
    return by;
  }, [d?.entries]);

  const canApprove = d !== null && word === 'running' && (d.phase === 'DEBATING' || d.phase === 'SYNTHESIZING');
  const [askingLock, setAskingLock] = useState(false);
  // Under 1,100 px three columns were ~60 px strips stacked one over another: tabs, one column at a time.
  const tabbed = useMedia('(max-width: 1100px)');
  const [shownColumn, setShownColumn] = useState<EvaluationEntry['column']>('transcript');
  const lockMinimum = d?.options.minConfidence ?? d?.latestConvergence?.conditions.confidence.minimum ?? 0.7;
  // The machine's own rule (addRoundRefusal) decides; this only hides a button that would be refused.
  const canAddRound =
    d !== null &&
    word === 'running' &&
    d.scope === 'FULL' &&
    ['EVALUATING', 'DEBATING', 'SYNTHESIZING'].includes(d.phase) &&
    d.roundLimit < MAX_ROUNDS;
  const canResume = word === 'stopped' || word === 'failed';
  const commands = useMemo<Command[]>(() => {
    if (!d || !id) return [];
    const list: Command[] = [
      {
        id: `evaluation:${id}:convergence`,
        title: `Convergence chart of this evaluation (${d.ideaTitle})`,
        group: 'Evaluation',
        keywords: 'chart convergence rounds',
        run: () => navigate(href('convergence', id)),
      },
    ];
    if (d.status === 'running')
      list.push({
        id: `evaluation:${id}:cancel`,
        title: 'Cancel this evaluation (it can be resumed)',
        group: 'Evaluation',
        keywords: 'stop cancel',
        run: () => void act.run('evaluations:cancel'),
      });
    if (canResume)
      list.push({
        id: `evaluation:${id}:resume`,
        title: 'Resume this evaluation',
        group: 'Evaluation',
        keywords: 'continue resume retry',
        run: () => void act.run('evaluations:resume'),
      });
    if (canAddRound)
      list.push({
        id: `evaluation:${id}:add-round`,
        title: `Add a round to this evaluation (${d.roundLimit} → ${d.roundLimit + 1})`,
        group: 'Evaluation',
        keywords: 'add round more longer extend',
        run: () => void act.run('evaluations:addRound'),
      });
    if (canApprove)
      list.push({
        id: `evaluation:${id}:approve`,
        title: 'Lock this evaluation now with the scores as they stand',
        group: 'Evaluation',
        keywords: 'approve lock accept',
        // The palette asks the same question as the button below the threshold.
        run: () => (lockIsEarly(d.confidence, lockMinimum) ? setAskingLock(true) : void act.run('evaluations:approve')),
      });
    return list;
  }, [d, id, canResume, canApprove, canAddRound, act.run, lockMinimum]);
  useCommands(`evaluation-live:${id ?? ''}`, commands);

  if (!id) {
    return (
      <section className="view">
        <h1>Evaluation</h1>
        <p>
          No evaluation named. Start one from an idea’s page, or pick one on the{' '}
          <a href={href('convergence')}>convergence</a> view.
        </p>
      </section>
    );
  }

  // Time left: the pace seen in this view (answers per second since its first push).
  let eta: string | null = null;
  if (d && running && pace && d.progress.done > pace.fromDone) {
    const rate = (d.progress.done - pace.fromDone) / Math.max(1, now - pace.sinceMs);
    eta = duration((d.progress.total - d.progress.done) / rate);
  }

  return (
    <section className="view eval-live">
      <nav className="muted small">
        <a href={href('library')}>Library</a> / {d ? <a href={href('idea', d.slug)}>{d.ideaTitle}</a> : '…'} /
        evaluation
      </nav>
      <ErrorNotice error={error} />
      {!d && !error && <p className="muted">Loading…</p>}
      {d && (
        <>
          <header className="eval-head">
            <h1>Evaluation of “{d.ideaTitle}”</h1>
            <div className="row">
              <span className={statusClass(d)} data-testid="evaluation-status">
                {statusLabel(d)}
              </span>
              {/* Once locked or failed, the status badge says it: "locked locked" said nothing more. */}
              {showsPhase(d) && <PhaseBadge phase={d.phase} />}
              <span className="badge">
                round {d.round} of {d.roundLimit}
              </span>
              <span className="badge">{d.mode}</span>
              {d.scope === 'TARGETED' && d.dispute && (
                <span className="badge warn">dispute: {d.dispute.criterion}</span>
              )}
              {d.provider === 'simulated' && (
                <span className="badge" title="Every answer comes from the offline simulator, not from a model">
                  simulated
                </span>
              )}
              {d.staleReasons.length > 0 && <span className="badge warn">may be stale</span>}
              {d.stopReason && (
                <span
                  className="muted small"
                  data-testid="stop-reason"
                  data-code={d.stopReason}
                  title={`stop reason: ${d.stopReason}`}
                >
                  ({stopReasonWords(d.stopReason)})
                </span>
              )}
            </div>
            {d.prediction && running && (
              <p className="small eval-prediction" data-testid="evaluation-prediction">
                <strong>Prediction:</strong> {d.prediction.text}
                {d.prediction.needs.length > 1 && (
                  <span className="muted">
                    {' '}
                    · also{' '}
                    {d.prediction.needs
                      .slice(1)
                      .map((n) => n.reason)
                      .join('; ')}
                  </span>
                )}
              </p>
            )}
            <p className="muted small" data-testid="evaluation-options">
              Debate options: {d.options.words}
            </p>
            <div className="eval-meters">
              <Meter
                label="Progress"
                value={d.progress.done}
                max={d.progress.total}
                text={`${d.progress.done} of about ${d.progress.total} answers${eta ? ` · ${eta} left` : ''}`}
              />
              <Meter
                label="Cost"
                value={d.costUsd ?? 0}
                max={d.budgetUsd ?? 0}
                text={`${usd(d.costUsd)} of ${usd(d.budgetUsd)} budget`}
              />
            </div>
            <div className="row">
              {d.status === 'running' && (
                <button type="button" className="danger" onClick={() => void act.run('evaluations:cancel')}>
                  Cancel
                </button>
              )}
              {canAddRound && (
                <button
                  type="button"
                  onClick={() => void act.run('evaluations:addRound')}
                  title={`Grant one more round than the limit (never more than 5); recorded in the evaluation's log${d.addRoundPreview ? `. ${d.addRoundPreview.basis}; its budget still caps it` : ''}`}
                >
                  Add round
                  {d.addRoundPreview && (
                    <span className="muted small" data-testid="add-round-preview">
                      {' '}
                      (~{usd(d.addRoundPreview.usd)}, ≤ {usd(d.addRoundPreview.worstUsd)})
                    </span>
                  )}
                </button>
              )}
              {canApprove && (
                <LockNow
                  confidence={d.confidence}
                  minimum={lockMinimum}
                  asking={askingLock}
                  onAsk={() => setAskingLock(true)}
                  onKeep={() => setAskingLock(false)}
                  onLock={() => {
                    setAskingLock(false);
                    void act.run('evaluations:approve');
                  }}
                />
              )}
              {canResume && (
                <button type="button" className="primary" onClick={() => void act.run('evaluations:resume')}>
                  {d.status === 'failed' ? 'Retry' : 'Resume'}
                </button>
              )}
              <a className="button" href={href('convergence', d.id)}>
                Convergence chart
              </a>
              <a className="button" href={href('idea', d.slug)}>
                The idea
              </a>
              {d.awaiting.length > 0 && running && (
                <span className="muted small" data-testid="evaluation-awaiting">
                  waiting for {d.awaiting.slice(0, 4).join('; ')}
                  {d.awaiting.length > 4 ? ` and ${d.awaiting.length - 4} more` : ''}
                </span>
              )}
            </div>
            <ErrorNotice error={act.error} onDismiss={act.clearError} />
          </header>
          {d.status === 'completed' && <EvaluationOutcomeCard d={d} />}
          {d.status === 'completed' && <StalenessNote d={d} />}
          {tabbed && (
            <div className="row eval-tabs" role="tablist" aria-label="Columns">
              {COLUMNS.map((c) => (
                <button
                  type="button"
                  key={c.id}
                  role="tab"
                  id={`eval-tab-${c.id}`}
                  aria-selected={shownColumn === c.id}
                  aria-controls={`eval-panel-${c.id}`}
                  className={`eval-tab${shownColumn === c.id ? ' active' : ''}`}
                  onClick={() => setShownColumn(c.id)}
                >
                  {c.title} <span className="muted small">({(columns[c.id] ?? []).length})</span>
                </button>
              ))}
            </div>
          )}
          <div className={tabbed ? 'eval-columns tabbed' : 'eval-columns'} data-testid="eval-columns">
            {COLUMNS.map((c) => (
              <Column
                key={c.id}
                id={c.id}
                title={c.title}
                hint={c.hint}
                entries={columns[c.id] ?? []}
                tabbed={tabbed}
                hidden={tabbed && shownColumn !== c.id}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
