import { memo, useMemo, useState } from 'react';
import type { EvaluationSummary } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { ListingNote } from '../../ui/listing-note';
import { useWindow } from '../../ui/use-window';
import { statusBadge } from '../debate/format';
import { score, statusClass, statusLabel, statusWord } from '../evaluation/format';
import { LockBadge } from '../evaluation/lock-badge';
import { Term } from '../evaluation/terms';
import { useEvaluation } from '../evaluation/use-evaluation';
import { Checklist } from './checklist';
import { ConfidenceChart } from './confidence-chart';
import { CriterionMultiples } from './criterion-multiples';
import { DebateCourseView } from './debate-course';
import { ScoreChart } from './score-chart';
import './convergence.css';

/** The route of a picked evaluation (`<id>`) or crux debate (`debate/<id>`). */
const routeOf = (value: string) =>
  value.startsWith('debate/')
    ? href('convergence', 'debate', value.slice('debate/'.length))
    : href('convergence', value);

const ROW_HEIGHT = 34;
const OVERSCAN = 10;

const EvaluationRow = memo(function EvaluationRow({ e, index }: { e: EvaluationSummary; index: number }) {
  return (
    <tr aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }}>
      <td>
        <a href={href('convergence', e.id)} title={e.ideaTitle}>
          {e.ideaTitle}
        </a>
        {e.scope === 'TARGETED' && <span className="muted small"> (dispute)</span>}
      </td>
      <td>{e.mode}</td>
      <td>
        {statusWord(e) === 'locked' ? (
          <LockBadge reason={e.lockReason} testId="row-lock" />
        ) : (
          <span className={statusClass(e)}>{statusLabel(e)}</span>
        )}{' '}
        {e.stale && <span className="badge warn">stale</span>}
      </td>
      <td className="num">{score(e.overallScore)}</td>
      <td>
        {e.round} of {e.roundLimit}
      </td>
      <td>{e.startedAt.slice(0, 16).replace('T', ' ')}</td>
    </tr>
  );
});

/**
 * Every evaluation as a table whose rows are drawn only where visible: a library of 10,000
 * evaluated ideas has 10,000 rows here, and drawing them all took seconds.
 */
function EvaluationTable({ evaluations }: { evaluations: readonly EvaluationSummary[] }) {
  const { ref, first, last, onScroll } = useWindow<HTMLDivElement>(evaluations.length, ROW_HEIGHT, OVERSCAN);
  return (
    <div ref={ref} className="evaluations-table" onScroll={onScroll}>
      <table className="data" aria-label="Evaluations" aria-rowcount={evaluations.length + 1}>
        <colgroup>
          <col />
          <col style={{ width: '7em' }} />
          <col style={{ width: '16em' }} />
          <col style={{ width: '6em' }} />
          <col style={{ width: '6em' }} />
          <col style={{ width: '10em' }} />
        </colgroup>
        <thead>
          <tr>
            <th>Idea</th>
            <th>Mode</th>
            <th>Status</th>
            <th className="num">Overall</th>
            <th>Rounds</th>
            <th>Started</th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr className="spacer" style={{ height: first * ROW_HEIGHT }}>
              <td colSpan={6} />
            </tr>
          )}
          {evaluations.slice(first, last).map((e, k) => (
            <EvaluationRow key={e.id} e={e} index={first + k} />
          ))}
          {last < evaluations.length && (
            <tr className="spacer" style={{ height: (evaluations.length - last) * ROW_HEIGHT }}>
              <td colSpan={6} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The list to pick another evaluation or crux debate from, beside the one shown: the evaluations
 * of its idea (`slug`; every evaluation of a large library was 10,000 options to draw for one
 * list) and every crux debate.
 */
function PickerSelect({ current, slug }: { current: string; slug: string | null }) {
  const list = useChannel('evaluations:list', slug === null ? null : { slug });
  const debateList = useChannel('debates:list', {});
  usePush('run:status', (p) => (p.protocol === 'evaluation' ? list : debateList).reload());
  const evaluations = list.data?.evaluations ?? [];
  const debates = debateList.data?.debates ?? [];
  const known = evaluations.some((e) => e.id === current) || debates.some((d) => `debate/${d.id}` === current);
  return (
    <label className="row">
      Show
      <select value={current} onChange={(e) => navigate(routeOf(e.target.value))}>
        {!known && <option value={current}>{current}</option>}
        {evaluations.length > 0 && (
          <optgroup label={`Evaluations of “${evaluations[0]?.ideaTitle ?? slug}”`}>
            {evaluations.map((e) => (
              <option key={e.id} value={e.id}>
                {e.mode} · {e.startedAt.slice(0, 16).replace('T', ' ')} · {e.status}
              </option>
            ))}
          </optgroup>
        )}
        {debates.length > 0 && (
          <optgroup label="Crux debates">
            {debates.map((d) => (
              <option key={d.id} value={`debate/${d.id}`}>
                {d.topic} · {d.createdAt.slice(0, 16).replace('T', ' ')} · {d.status}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </label>
  );
}

/** The picker beside a crux debate's course: the evaluations of the debate's idea, and every debate. */
function DebatePicker({ id }: { id: string }) {
  const debateList = useChannel('debates:list', {});
  const idea = debateList.data?.debates.find((d) => d.id === id)?.ideaSlug ?? null;
  return <PickerSelect current={`debate/${id}`} slug={idea} />;
}

/** `#/convergence`: every evaluation and crux debate, newest first, to pick one. */
function Picker() {
  const list = useChannel('evaluations:list', {});
  const debateList = useChannel('debates:list', {});
  usePush('run:status', (p) => (p.protocol === 'evaluation' ? list : debateList).reload());
  // Records read in the background since (the first look at a workspace).
  usePush('evaluation:listed', () => {
    if ((list.data?.reading ?? 0) > 0) list.reload();
  });
  const evaluations = list.data?.evaluations ?? [];
  const debates = debateList.data?.debates ?? [];
  return (
    <div className="stack">
      <h2>Evaluations</h2>
      <ErrorNotice error={list.error} />
      <ListingNote reading={list.data?.reading ?? 0} counting={0} />
      {list.data && evaluations.length === 0 && (
        <p className="muted">
          No evaluation yet. Open an idea from the <a href={href('library')}>library</a> and evaluate it.
        </p>
      )}
      {evaluations.length > 0 && <EvaluationTable evaluations={evaluations} />}
      <h2>Crux debates</h2>
      <ErrorNotice error={debateList.error} />
      {debateList.data && debates.length === 0 && (
        <p className="muted">No crux debate yet. Start one from an idea’s page.</p>
      )}
      {debates.length > 0 && (
        <table className="data" aria-label="Crux debates">
          <thead>
            <tr>
              <th>Topic</th>
              <th>Idea</th>
              <th>Status</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {debates.map((d) => (
              <tr key={d.id}>
                <td>
                  <a href={href('convergence', 'debate', d.id)}>{d.topic}</a>
                </td>
                <td>{d.ideaSlug ?? <span className="muted">—</span>}</td>
                <td>
                  <span className={`badge ${statusBadge(d.status, d.live).tone}`}>
                    {statusBadge(d.status, d.live).label}
                  </span>
                </td>
                <td>{d.createdAt.slice(0, 16).replace('T', ' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * How an evaluation converged: every criterion's score by round (category colours, the ±0.5 band
 * of the stability condition), the confidence by round against its thresholds, and the checklist of
 * convergence conditions after each round with the lock reason. Follows a running evaluation live.
 */
export function ConvergenceView({ route }: { route: Route }) {
  // `#/convergence/debate/<id>`: a crux debate's DCG and positions (evaluation ids are never `debate`).
  if (route.params[0] === 'debate' && route.params[1]) {
    const id = route.params[1];
    return <DebateCourseView key={id} id={id} picker={<DebatePicker id={id} />} />;
  }
  return <EvaluationConvergence route={route} />;
}

function EvaluationConvergence({ route }: { route: Route }) {
  const id = route.params[0] ?? null;
  const { detail: d, error } = useEvaluation(id);
  const [focus, setFocus] = useState<string | null>(null);
  const [roundPick, setRoundPick] = useState<number | null>(null);

  const name = useMemo(() => {
    const names = new Map((d?.criteria ?? []).map((c) => [c.id, c.name]));
    return (cid: string) => names.get(cid) ?? cid;
  }, [d?.criteria]);

  const commands = useMemo<Command[]>(
    () =>
      d
        ? [
            {
              id: `convergence:${d.id}:live`,
              title: `Transcript of this evaluation (${d.ideaTitle})`,
              group: 'Evaluation',
              keywords: 'transcript live columns',
              run: () => navigate(href('evaluation', d.id)),
            },
          ]
        : [],
    [d],
  );
  useCommands(`convergence:${id ?? ''}`, commands);

  if (id === null) {
    return (
      <section className="view convergence">
        <h1>Convergence</h1>
        <p className="muted">
          Pick an evaluation to see how its scores settled round by round, or a crux debate to see its DCG and positions
          message by message.
        </p>
        <Picker />
      </section>
    );
  }

  const reports = d?.convergence ?? [];
  const shownReport =
    roundPick !== null ? (reports.find((r) => r.round === roundPick) ?? d?.latestConvergence) : d?.latestConvergence;
  const stability = d?.latestConvergence?.conditions.stability;
  const confidence = d?.latestConvergence?.conditions.confidence;
  const focusedCriterion = focus && !focus.startsWith('cat:') ? focus : null;

  return (
    <section className="view convergence">
      <nav className="muted small">
        <a href={href('convergence')}>Convergence</a> / {d ? <a href={href('idea', d.slug)}>{d.ideaTitle}</a> : '…'}
      </nav>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1>Convergence{d ? ` of “${d.ideaTitle}”` : ''}</h1>
        <PickerSelect current={id} slug={d?.slug ?? null} />
      </div>
      <ErrorNotice error={error} />
      {!d && !error && <p className="muted">Loading…</p>}
      {d && (
        <>
          <div className="row">
            {d.status === 'completed' ? (
              <LockBadge reason={d.lockReason} testId="lock-reason" />
            ) : (
              <span className={statusClass(d)}>{statusLabel(d)}</span>
            )}
            <span className="badge">
              {d.mode}, round {d.round} of {d.roundLimit}
            </span>
            <span className="muted small">
              overall {score(d.overallScore)} of 10 · confidence {score(d.confidence)} of 1
            </span>
            <a href={href('evaluation', d.id)}>transcript</a>
            <a href={href('idea', d.slug)}>the idea (and its crux debates)</a>
          </div>
          {d.overallTrajectory.length === 0 ? (
            <p className="muted">No scores yet: the evaluators are still at work.</p>
          ) : (
            <div className="convergence-grid">
              <section className="card stack" aria-labelledby="scores-title">
                <div className="row" style={{ justifyContent: 'space-between' }}>
                  <h2 id="scores-title">Scores by round</h2>
                  <label>
                    Focus
                    <select
                      value={focus ?? ''}
                      onChange={(e) => setFocus(e.target.value === '' ? null : e.target.value)}
                    >
                      <option value="">overall score</option>
                      {d.categories.map((c) => (
                        <optgroup key={c.id} label={c.name}>
                          <option value={`cat:${c.id}`}>all of {c.name}</option>
                          {d.criteria
                            .filter((k) => k.category === c.id)
                            .map((k) => (
                              <option key={k.id} value={k.id}>
                                {k.name}
                              </option>
                            ))}
                        </optgroup>
                      ))}
                    </select>
                  </label>
                </div>
                <div
                  data-testid="convergence-chart"
                  data-rounds={d.overallTrajectory.length}
                  data-lines={d.criteria.length}
                  className="stack"
                >
                  <ScoreChart
                    d={d}
                    focus={focus}
                    band={stability?.maxDelta ?? 0.5}
                    roundsNeeded={stability?.roundsNeeded ?? 2}
                  />
                  <CriterionMultiples d={d} focus={focusedCriterion} onFocus={setFocus} />
                </div>
                <div className="legend small">
                  {d.categories.map((c, i) => (
                    <button
                      type="button"
                      key={c.id}
                      className={`link legend-item${focus === `cat:${c.id}` ? ' active' : ''}`}
                      aria-pressed={focus === `cat:${c.id}`}
                      style={{ '--cat-color': `var(--cat-${(i % 6) + 1})` } as React.CSSProperties}
                      onClick={() => setFocus(focus === `cat:${c.id}` ? null : `cat:${c.id}`)}
                    >
                      <span className="swatch" aria-hidden="true" />
                      {c.name} {score(c.score)}
                    </button>
                  ))}
                  <span className="legend-item">
                    <span className="swatch overall" aria-hidden="true" />
                    overall (dashed)
                  </span>
                </div>
              </section>
              <section className="card stack" aria-labelledby="confidence-title">
                <h2 id="confidence-title">Confidence by round</h2>
                <ConfidenceChart
                  d={d}
                  focus={focusedCriterion}
                  minimum={confidence?.minimum ?? 0.7}
                  criticalMinimum={confidence?.criticalMinimum ?? 0.8}
                />
              </section>
              <section className="card stack" aria-labelledby="checklist-title">
                <div className="row" style={{ justifyContent: 'space-between' }}>
                  <h2 id="checklist-title">Convergence checklist</h2>
                  {reports.length > 1 && (
                    <label>
                      After round
                      <select
                        value={roundPick ?? ''}
                        onChange={(e) => setRoundPick(e.target.value === '' ? null : Number(e.target.value))}
                      >
                        <option value="">{d.status === 'completed' ? 'at the lock' : 'latest'}</option>
                        {reports.map((r) => (
                          <option key={r.round} value={r.round}>
                            {r.round}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                </div>
                {shownReport ? (
                  <Checklist report={shownReport} name={name} />
                ) : (
                  <p className="muted">No round has finished yet.</p>
                )}
                {d.status === 'completed' && d.lockReason && (
                  <p>
                    Locked: <Term term={d.lockReason} />
                    {d.lockReason === 'MAX_ROUNDS' && ' (the round limit came before every condition held)'}
                    {d.lockReason === 'CONVERGENCE' && ' (every condition held)'}
                    {d.lockReason === 'USER_APPROVED' && ' (you accepted the scores as they stood)'}
                    {d.lockReason === 'BUDGET' && ' (the budget ran out)'}
                    {d.lockReason === 'TIMEOUT' && ' (the time limit passed)'}.
                  </p>
                )}
              </section>
            </div>
          )}
        </>
      )}
    </section>
  );
}
