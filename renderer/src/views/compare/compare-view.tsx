import { useMemo, useState } from 'react';
import type { ComparisonView } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { categoryVar, pct, score } from '../evaluation/format';
import { RecommendationBadge, WeightFigure } from '../evaluation/terms';
import { compareHref, comparedSlugs, highest, MAX_COMPARED, MIN_COMPARED } from './compare-route';
import { IdeaPicker } from './idea-picker';
import './compare.css';

type Idea = ComparisonView['ideas'][number];

/** One numeric cell: the value, a bar under it, and a mark when it is the row's highest. */
function ScoreCell({
  idea,
  row,
  value,
  best,
  text,
  bar = true,
}: {
  idea: Idea;
  row: string;
  value: number | null;
  best: boolean;
  text: string;
  bar?: boolean;
}) {
  return (
    <td
      className={`num compare-cell${best ? ' best' : ''}`}
      data-testid="compare-cell"
      data-slug={idea.slug}
      data-row={row}
      data-value={value ?? ''}
    >
      <span className="value">{idea.evaluationId === null ? '—' : text}</span>
      {best && (
        <span className="best-mark" title="The highest of the ideas compared">
          {' '}
          ▲<span className="visually-hidden"> highest</span>
        </span>
      )}
      {bar && value !== null && (
        <div className="bar" aria-hidden="true">
          <div style={{ width: `${(value / 10) * 100}%` }} />
        </div>
      )}
    </td>
  );
}

/** The row label of a staleness cell: why the evaluation may no longer hold, or that it does. */
function Staleness({ idea }: { idea: Idea }) {
  if (idea.evaluationId === null) return <span className="muted">—</span>;
  if (idea.staleReasons.length === 0) return <span className="badge">current</span>;
  return (
    <span className="stack" style={{ gap: 2, alignItems: 'flex-end' }}>
      <span className="badge warn">may be stale</span>
      {idea.staleReasons.map((r) => (
        <span key={r} className="small muted stale-reason">
          {r}
        </span>
      ))}
    </span>
  );
}

function ScoreTable({ view, onRemove }: { view: ComparisonView; onRemove: (slug: string) => void }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const allOpen = open.size === view.categories.length;
  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const { ideas } = view;
  const row = (values: (number | null)[]) => highest(values);

  return (
    <div className="compare-scroll">
      <table className="data compare-table">
        <caption className="visually-hidden">Scores of the ideas compared, by category and criterion</caption>
        <thead>
          <tr>
            <th scope="col" className="compare-label">
              <button
                type="button"
                className="link"
                onClick={() => setOpen(new Set(allOpen ? [] : view.categories.map((c) => c.id)))}
              >
                {allOpen ? 'Hide the criteria' : 'Show every criterion'}
              </button>
            </th>
            {ideas.map((i) => (
              <th key={i.slug} scope="col" className="compare-idea" data-testid="compare-idea" data-slug={i.slug}>
                <a href={href('idea', i.slug)}>{i.title}</a>
                <div className="row small">
                  <span className="badge">{i.stage}</span>
                  {ideas.length > MIN_COMPARED && (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Remove ${i.title} from the comparison`}
                      onClick={() => onRemove(i.slug)}
                    >
                      remove
                    </button>
                  )}
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Overall score</th>
            {ideas.map((i, k) => (
              <ScoreCell
                key={i.slug}
                idea={i}
                row="overall"
                value={i.overallScore}
                best={row(ideas.map((x) => x.overallScore))[k] ?? false}
                text={score(i.overallScore)}
              />
            ))}
          </tr>
          <tr>
            <th scope="row">Confidence</th>
            {ideas.map((i, k) => (
              <ScoreCell
                key={i.slug}
                idea={i}
                row="confidence"
                value={i.confidence}
                best={row(ideas.map((x) => x.confidence))[k] ?? false}
                text={pct(i.confidence)}
                bar={false}
              />
            ))}
          </tr>
          <tr>
            <th scope="row">Recommendation</th>
            {ideas.map((i) => (
              <td key={i.slug} className="num" data-testid="compare-cell" data-slug={i.slug} data-row="recommendation">
                {i.evaluationId === null ? (
                  <a href={href('idea', i.slug)}>not evaluated: evaluate…</a>
                ) : (
                  <RecommendationBadge code={i.recommendation} className="value" />
                )}
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">Evaluation</th>
            {ideas.map((i) => (
              <td key={i.slug} className="num" data-testid="compare-cell" data-slug={i.slug} data-row="staleness">
                <Staleness idea={i} />
                {i.evaluatedAt && <div className="small muted">{i.evaluatedAt.slice(0, 10)}</div>}
              </td>
            ))}
          </tr>
        </tbody>
        {view.categories.map((c, index) => {
          const shown = open.has(c.id);
          const criteria = view.criteria.filter((k) => k.category === c.id);
          return (
            <tbody
              key={c.id}
              className="compare-category"
              style={{ '--cat-color': `var(${categoryVar(index)})` } as React.CSSProperties}
            >
              <tr>
                <th scope="row">
                  <button
                    type="button"
                    className="link compare-toggle"
                    aria-expanded={shown}
                    onClick={() => toggle(c.id)}
                  >
                    {shown ? '▾' : '▸'} {c.name}
                  </button>{' '}
                  <WeightFigure weight={c.weight} />
                </th>
                {ideas.map((i, k) => (
                  <ScoreCell
                    key={i.slug}
                    idea={i}
                    row={`category:${c.id}`}
                    value={i.categories[c.id] ?? null}
                    best={row(ideas.map((x) => x.categories[c.id] ?? null))[k] ?? false}
                    text={score(i.categories[c.id] ?? null)}
                  />
                ))}
              </tr>
              {shown &&
                criteria.map((crit) => (
                  <tr key={crit.id} className="compare-criterion">
                    <th scope="row" className="small">
                      {crit.name}
                    </th>
                    {ideas.map((i, k) => (
                      <ScoreCell
                        key={i.slug}
                        idea={i}
                        row={`criterion:${crit.id}`}
                        value={i.criteria[crit.id] ?? null}
                        best={row(ideas.map((x) => x.criteria[crit.id] ?? null))[k] ?? false}
                        text={String(i.criteria[crit.id] ?? '—')}
                      />
                    ))}
                  </tr>
                ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}

function StrengthsAndWeaknesses({ ideas }: { ideas: Idea[] }) {
  return (
    <div className="compare-scroll">
      <div className="compare-columns" style={{ '--n': ideas.length } as React.CSSProperties}>
        {ideas.map((i) => (
          <section
            key={i.slug}
            className="card stack"
            aria-label={`Strengths and weaknesses of ${i.title}`}
            data-testid="compare-narrative"
            data-slug={i.slug}
          >
            <strong>{i.title}</strong>
            {i.evaluationId === null ? (
              <p className="muted small">Not evaluated.</p>
            ) : (
              <>
                <h3 className="small">Strengths</h3>
                <ul className="small compare-list strengths">
                  {i.strengths.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                  {i.strengths.length === 0 && <li className="muted">None named.</li>}
                </ul>
                <h3 className="small">Weaknesses</h3>
                <ul className="small compare-list weaknesses">
                  {i.weaknesses.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                  {i.weaknesses.length === 0 && <li className="muted">None named.</li>}
                </ul>
              </>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}

function Cruxes({ view }: { view: ComparisonView }) {
  const titles = new Map(view.ideas.map((i) => [i.slug, i.title]));
  return (
    <section className="card stack" aria-labelledby="compare-cruxes">
      <h2 id="compare-cruxes" style={{ margin: 0 }}>
        Cruxes they share
      </h2>
      {view.sharedCruxes.length === 0 ? (
        <p className="muted small" style={{ margin: 0 }}>
          None: no crux question was reached by the debates of two of these ideas. (
          {view.ideas.map((i) => `${i.title}: ${i.cruxes.length}`).join(', ')} crux
          {view.ideas.reduce((n, i) => n + i.cruxes.length, 0) === 1 ? '' : 'es'} in all.)
        </p>
      ) : (
        <ul data-testid="shared-cruxes">
          {view.sharedCruxes.map((c) => (
            <li key={c.question}>
              {c.question} <span className="muted small">— {c.slugs.map((s) => titles.get(s) ?? s).join(', ')}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Two to four ideas side by side (`#/compare?ideas=a,b,c`): overall score, confidence,
 * recommendation and whether each evaluation may be stale, then the six categories, each opening
 * onto its five criteria, the highest of each row marked; strengths and weaknesses in columns; the
 * cruxes their debates share. Without two ideas named it asks which.
 */
export function CompareView({ route }: { route: Route }) {
  const slugs = comparedSlugs(route);
  const enough = slugs.length >= MIN_COMPARED && slugs.length <= MAX_COMPARED;
  const [key, setKey] = useState(0);
  const [choosing, setChoosing] = useState(false);
  const view = useChannel('ideas:compare', enough ? { slugs } : null, `${slugs.join(',')}/${key}`);
  usePush('sync:changed', (r) => {
    if ([...r.slugs.changed, ...r.slugs.removed].some((s) => slugs.includes(s))) setKey((k) => k + 1);
  });
  usePush('run:status', (p) => {
    if (p.protocol === 'evaluation' && p.ideaSlug && slugs.includes(p.ideaSlug)) setKey((k) => k + 1);
  });

  const commands = useMemo<Command[]>(
    () =>
      enough
        ? [
            {
              id: 'compare:change',
              title: 'Change the ideas compared…',
              group: 'Comparison',
              keywords: 'compare add remove ideas',
              run: () => setChoosing(true),
            },
          ]
        : [],
    [enough],
  );
  useCommands('compare-view', commands);

  const d = view.data;
  return (
    <section className="view stack compare-view">
      <nav className="muted small">
        <a href={href('library')}>Library</a> / compare
      </nav>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1 style={{ margin: 0 }}>Compare ideas</h1>
        {enough && !choosing && (
          <button type="button" onClick={() => setChoosing(true)}>
            Change ideas…
          </button>
        )}
      </div>
      {(!enough || choosing) && (
        <div className="card">
          {slugs.length > MAX_COMPARED && (
            <p role="alert" className="small">
              A comparison takes at most {MAX_COMPARED} ideas; the link named {slugs.length}.
            </p>
          )}
          <IdeaPicker
            key={slugs.join(',')}
            label="Ideas to compare"
            initial={slugs.slice(0, MAX_COMPARED)}
            onCompare={(chosen) => {
              setChoosing(false);
              navigate(compareHref(chosen));
            }}
            onCancel={enough ? () => setChoosing(false) : undefined}
          />
        </div>
      )}
      <ErrorNotice error={view.error} />
      {enough && !d && !view.error && <p className="muted">Loading…</p>}
      {d && (
        <>
          <ScoreTable view={d} onRemove={(slug) => navigate(compareHref(slugs.filter((s) => s !== slug)))} />
          <h2>Strengths and weaknesses</h2>
          <StrengthsAndWeaknesses ideas={d.ideas} />
          <Cruxes view={d} />
        </>
      )}
    </section>
  );
}
