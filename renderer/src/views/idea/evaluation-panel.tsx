import { useMemo, useState } from 'react';
import type { EvaluationDetail } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { useCommands } from '../../commands';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { Markdown, splitFrontmatter } from '../../ui/markdown';
import { DisputeForm } from '../evaluation/dispute-form';
import { EvaluateForm } from '../evaluation/evaluate-form';
import { LockBadge } from '../evaluation/lock-badge';
import { StalenessNote } from '../evaluation/staleness-note';
import { RecommendationBadge, WeightFigure } from '../evaluation/terms';
import { categoryVar, pct, phaseWords, score, statusClass, statusLabel, statusWord } from '../evaluation/format';
import { cellKind, cellLabel, cellStyle } from '../matrix/score-cell';
import { actionCommands, type PageAction } from './page-actions';
import '../evaluation/evaluation.css';
import '../matrix/matrix.css';

const WINNER = { EVALUATOR: 'defended', RED_TEAM: 'red team won', DRAW: 'draw' } as const;

function ScoreCard({ d }: { d: EvaluationDetail }) {
  return (
    <div className="score-card">
      {d.categories.map((c, i) => (
        <div
          key={c.id}
          className="score-cat"
          style={{ '--cat-color': `var(${categoryVar(i)})` } as React.CSSProperties}
        >
          <span className="small">
            {c.name} <WeightFigure weight={c.weight} />
          </span>
          <strong className="num">{score(c.score)}</strong>
          <div className="bar">
            <div style={{ width: `${((c.score ?? 0) / 10) * 100}%` }} />
          </div>
          {c.initialScore !== null && c.score !== null && c.initialScore !== c.score && (
            <span className="muted small">from {score(c.initialScore)}</span>
          )}
        </div>
      ))}
    </div>
  );
}

/** This idea's row of the matrix: a cell per criterion, grouped by category; a click shows the criterion. */
function MatrixStrip({
  d,
  selected,
  onSelect,
}: {
  d: EvaluationDetail;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <div className="matrix-strip">
      {d.categories.map((cat, i) => (
        <div key={cat.id} className="group" style={{ '--cat-color': `var(${categoryVar(i)})` } as React.CSSProperties}>
          <span>{cat.name}</span>
          <div className="cells">
            {d.criteria
              .filter((c) => c.category === cat.id)
              .map((c) => (
                <button
                  type="button"
                  key={c.id}
                  className={`heat ${cellKind(c.score, c.confidence)}`}
                  style={cellStyle(c.score)}
                  title={cellLabel(c.name, c.score, c.confidence)}
                  aria-label={cellLabel(c.name, c.score, c.confidence)}
                  aria-pressed={selected === c.id}
                  onClick={() => onSelect(c.id)}
                >
                  {c.score ?? ''}
                </button>
              ))}
          </div>
        </div>
      ))}
    </div>
  );
}

function CriterionNote({ d, id, onDispute }: { d: EvaluationDetail; id: string; onDispute: () => void }) {
  const c = d.criteria.find((x) => x.id === id);
  if (!c) return null;
  return (
    <div className="card small stack" aria-live="polite">
      <div className="row">
        <strong>{c.name}</strong>
        {c.critical && <span className="badge warn">critical</span>}
        <span>
          {c.score ?? '—'}/10 · confidence {score(c.confidence)} · challenged {c.challenged}, defended {c.defended}
        </span>
        {d.status === 'completed' && d.current && (
          <button type="button" onClick={onDispute}>
            Dispute this score…
          </button>
        )}
      </div>
      {c.reasoning && <p style={{ margin: 0 }}>{c.reasoning}</p>}
      {c.openQuestions.length > 0 && (
        <ul>
          {c.openQuestions.map((q) => (
            <li key={q}>{q}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Challenges({ d }: { d: EvaluationDetail }) {
  const name = (id: string) => d.criteria.find((c) => c.id === id)?.name ?? id;
  if (d.challenges.length === 0) return <p className="muted">No challenge was debated.</p>;
  return (
    <table className="data small" aria-label="Red-team challenges">
      <thead>
        <tr>
          <th>Round</th>
          <th>Red team</th>
          <th>Criterion</th>
          <th>Challenge</th>
          <th>How it ended</th>
          <th className="num">Score</th>
        </tr>
      </thead>
      <tbody>
        {d.challenges.map((c) => (
          <tr key={c.id}>
            <td>{c.round}</td>
            <td>
              {c.persona}{' '}
              <span className={`badge${c.severity === 'CRITICAL' ? ' danger' : c.severity === 'MAJOR' ? ' warn' : ''}`}>
                {c.severity}
              </span>
            </td>
            <td>{name(c.criterion)}</td>
            <td>
              <details>
                <summary>{c.challenge.length > 90 ? `${c.challenge.slice(0, 90)}…` : c.challenge}</summary>
                <p>{c.challenge}</p>
                {c.defense && (
                  <p>
                    <strong>Defence:</strong> {c.defense}
                  </p>
                )}
                {c.ruling && (
                  <p>
                    <strong>Arbiter:</strong> {c.ruling.reasoning}
                  </p>
                )}
                {c.resolution && (
                  <p>
                    <strong>Synthesis:</strong> {c.resolution.prevailingPosition}
                  </p>
                )}
              </details>
            </td>
            <td>
              {c.ruling ? WINNER[c.ruling.winner] : 'not ruled'}{' '}
              <span className={`badge${c.resolved ? ' ok' : ' warn'}`}>{c.resolved ? 'resolved' : 'open'}</span>
            </td>
            <td className="num">
              {c.scoreBefore ?? '—'} → {c.scoreAfter ?? '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The idea page's evaluation: the score card by category, this idea's row of the matrix, the
 * red-team challenges and how each ended, the synthesis (locked, its lock reason, stale or not);
 * evaluate (mode, provider, the likely cost before it starts) and dispute a criterion.
 */
export function EvaluationPanel({ slug }: { slug: string }) {
  const client = useClient();
  const list = useChannel('evaluations:list', { slug });
  const evaluations = list.data?.evaluations ?? [];
  const current = evaluations.find((e) => e.current) ?? null;
  const active = evaluations.find((e) => ['running', 'stopping'].includes(statusWord(e))) ?? null;
  const halted = useMemo(() => evaluations.filter((e) => ['stopped', 'failed'].includes(statusWord(e))), [evaluations]);
  const detail = useChannel('evaluations:get', current ? { id: current.id } : null);
  const [evaluating, setEvaluating] = useState(false);
  const [disputing, setDisputing] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const resume = useAction(async (id: string) => {
    await client.invoke('evaluations:resume', { id });
    navigate(href('evaluation', id));
  });

  usePush('run:status', (p) => {
    if (p.protocol !== 'evaluation' || p.ideaSlug !== slug) return;
    list.reload();
    detail.reload();
  });
  usePush('sync:changed', (r) => {
    if (r.slugs.changed.includes(slug)) list.reload();
  });

  const d = detail.data;
  // The panel's actions, as its buttons and as palette entries (./page-actions.ts).
  const canDispute = d?.current === true;
  const actions = useMemo<PageAction[]>(
    () => [
      ...(d
        ? [
            {
              id: 'convergence',
              label: 'Convergence',
              palette: 'Convergence chart of this idea’s evaluation',
              keywords: 'chart rounds convergence',
              run: () => navigate(href('convergence', d.id)),
            },
          ]
        : []),
      ...(d && canDispute
        ? [
            {
              id: 'dispute',
              label: 'Dispute a criterion…',
              palette: 'Dispute a criterion of this idea’s evaluation…',
              keywords: 'dispute reopen criterion challenge score',
              run: () => setDisputing(d.criteria[0]?.id ?? ''),
            },
          ]
        : []),
      ...halted.map((h) => {
        const verb = h.status === 'failed' ? 'Retry' : 'Resume';
        return {
          id: `resume:${h.id}`,
          label: verb,
          palette: `${verb} the ${h.status === 'failed' ? 'failed' : 'stopped'} ${h.mode} evaluation of this idea (${h.startedAt.slice(0, 16).replace('T', ' ')})`,
          keywords: 'resume retry continue evaluation checkpoint stopped failed',
          run: () => void resume.run(h.id),
        };
      }),
    ],
    [d, canDispute, halted, resume.run],
  );
  const commands = useMemo(() => actionCommands(slug, actions), [slug, actions]);
  const byId = (id: string) => actions.find((a) => a.id === id);
  useCommands(`evaluation-panel:${slug}`, commands);

  const showForm = evaluating || (list.data !== null && evaluations.length === 0);

  return (
    <section className="card stack evaluation-panel" aria-labelledby={`eval-title-${slug}`}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id={`eval-title-${slug}`} style={{ margin: 0 }}>
          Evaluation
        </h2>
        <div className="row">
          {d && (
            <a className="button" data-action="convergence" href={href('convergence', d.id)}>
              {byId('convergence')?.label}
            </a>
          )}
          {!showForm && (
            <button
              type="button"
              className="primary"
              data-action="evaluate"
              onClick={() => setEvaluating(true)}
              disabled={active !== null}
            >
              {current ? 'Evaluate again…' : 'Evaluate…'}
            </button>
          )}
        </div>
      </div>
      <ErrorNotice error={list.error} />
      {active && (
        <p className="row">
          <span className={statusClass(active)}>{statusLabel(active)}</span>
          <a href={href('evaluation', active.id)} title={`phase: ${active.phase}`}>
            Follow the {active.mode} evaluation live ({phaseWords(active.phase)}, round {active.round})
          </a>
        </p>
      )}
      {halted.map((h) => (
        <p key={h.id} className="row small">
          <span className={statusClass(h)}>{statusLabel(h)}</span>
          <a href={href('evaluation', h.id)}>
            A {h.mode} evaluation from {h.startedAt.slice(0, 16).replace('T', ' ')}
          </a>
          <span className="muted">({h.stopReason ?? 'interrupted'})</span>
          <button
            type="button"
            data-action={`resume:${h.id}`}
            onClick={() => void resume.run(h.id)}
            disabled={resume.running || active !== null}
          >
            {byId(`resume:${h.id}`)?.label}
          </button>
        </p>
      ))}
      <ErrorNotice error={resume.error} onDismiss={resume.clearError} />
      {showForm && (
        <div id={`evaluate-${slug}`} className="stack">
          <EvaluateForm slug={slug} />
          {evaluating && (
            <div>
              <button type="button" onClick={() => setEvaluating(false)}>
                Close
              </button>
            </div>
          )}
        </div>
      )}
      {list.data && evaluations.length === 0 && <p className="muted">Not evaluated yet.</p>}
      <ErrorNotice error={detail.error} />
      {d && (
        <>
          <div className="row" data-testid="evaluation-summary">
            <strong className="num">{score(d.overallScore)}</strong>
            <span className="muted">
              / 10 overall
              <Help term="overall-score" />
            </span>
            {d.recommendation && <RecommendationBadge code={d.recommendation} />}
            <LockBadge
              reason={d.lockReason}
              title="A locked evaluation is never edited; a dispute or new information supersedes it"
            />
            {d.staleReasons.length > 0 ? (
              <span className="badge warn" title={d.staleReasons.join('\n')}>
                may be stale
              </span>
            ) : (
              <span className="badge">current</span>
            )}
            <span className="muted small">
              confidence {score(d.confidence)} of 1 <Help term="evaluation-confidence" /> · red-team survival{' '}
              {pct(d.redTeamSurvival)} · {d.mode}, {d.round} round
              {d.round === 1 ? '' : 's'} · <a href={href('evaluation', d.id)}>transcript</a>
            </span>
          </div>
          <StalenessNote d={d} />
          <ScoreCard d={d} />
          <h3>Criteria</h3>
          <MatrixStrip d={d} selected={selected} onSelect={(id) => setSelected(selected === id ? null : id)} />
          {selected && <CriterionNote d={d} id={selected} onDispute={() => setDisputing(selected)} />}
          {disputing !== null && (
            <DisputeForm
              slug={slug}
              criteria={d.criteria.map((c) => ({ id: c.id, name: c.name, score: c.score }))}
              initial={disputing || undefined}
              onClose={() => setDisputing(null)}
            />
          )}
          {disputing === null && canDispute && (
            <div>
              <button
                type="button"
                data-action="dispute"
                onClick={() => setDisputing(selected ?? d.criteria[0]?.id ?? '')}
              >
                {byId('dispute')?.label}
              </button>
            </div>
          )}
          <h3>Red-team challenges</h3>
          <Challenges d={d} />
          <h3>Synthesis</h3>
          {d.narrative && <Markdown text={d.narrative.executiveSummary} className="executive-summary" />}
          {d.synthesisMarkdown && (
            <details>
              <summary>The whole synthesis document</summary>
              <Markdown text={splitFrontmatter(d.synthesisMarkdown).body} />
            </details>
          )}
        </>
      )}
    </section>
  );
}
