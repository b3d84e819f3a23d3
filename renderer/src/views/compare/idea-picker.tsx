import { useId, useMemo, useState } from 'react';
import type { IdeaSummary } from '../../../../core/contract';
import { useChannel } from '../../api/hooks';
import { ErrorNotice } from '../../ui/error-notice';
import { MAX_COMPARED, MIN_COMPARED } from './compare-route';
import './compare.css';

/**
 * Chooses the ideas of a comparison: a filter and a checkbox per idea, evaluated ones first (an
 * idea without an evaluation can be set beside them, but shows no scores). `fixed` is the idea the
 * picker was opened from (its page's "Compare with…"): always in, listed first, not a checkbox.
 */
export function IdeaPicker({
  fixed,
  initial = [],
  label,
  onCompare,
  onCancel,
}: {
  fixed?: string;
  initial?: readonly string[];
  label: string;
  onCompare: (slugs: string[]) => void;
  onCancel?: () => void;
}) {
  const ids = useId();
  const list = useChannel('ideas:list', {});
  const [chosen, setChosen] = useState<string[]>(() => initial.filter((s) => s !== fixed));
  const [filter, setFilter] = useState('');
  const others = MAX_COMPARED - (fixed ? 1 : 0);

  const ideas = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    const all = (list.data?.ideas ?? []).filter((i) => i.slug !== fixed);
    const matches = (i: IdeaSummary) =>
      words.every((w) => `${i.title} ${i.slug} ${i.tags.join(' ')}`.toLowerCase().includes(w));
    // Evaluated first (best score first), then the rest by title; chosen ones stay visible.
    return all
      .filter((i) => chosen.includes(i.slug) || matches(i))
      .sort(
        (a, b) =>
          Number(b.overallScore !== null) - Number(a.overallScore !== null) ||
          (b.overallScore ?? 0) - (a.overallScore ?? 0) ||
          a.title.localeCompare(b.title),
      );
  }, [list.data, fixed, filter, chosen]);

  const total = chosen.length + (fixed ? 1 : 0);
  const toggle = (slug: string) =>
    setChosen((c) => (c.includes(slug) ? c.filter((s) => s !== slug) : c.length < others ? [...c, slug] : c));
  const fixedTitle = list.data?.ideas.find((i) => i.slug === fixed)?.title ?? fixed;

  return (
    <form
      className="stack compare-picker"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        if (total >= MIN_COMPARED) onCompare(fixed ? [fixed, ...chosen] : chosen);
      }}
    >
      <p className="small" style={{ margin: 0 }}>
        {fixed ? (
          <>
            Set <strong>{fixedTitle}</strong> beside one to three other ideas.
          </>
        ) : (
          'Choose two to four ideas to set side by side.'
        )}{' '}
        <span className="muted" aria-live="polite">
          {total} of {MAX_COMPARED} chosen.
        </span>
      </p>
      <div className="row">
        <label htmlFor={`${ids}-filter`}>Filter</label>
        <input
          id={`${ids}-filter`}
          type="search"
          value={filter}
          placeholder="title, slug or tag"
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      <ErrorNotice error={list.error} />
      <fieldset className="compare-choices">
        <legend className="small muted">Ideas</legend>
        {list.loading && !list.data && <p className="muted">Loading…</p>}
        {ideas.map((i) => {
          const on = chosen.includes(i.slug);
          return (
            <label key={i.slug} className={on ? 'on' : ''}>
              <input
                type="checkbox"
                checked={on}
                disabled={!on && chosen.length >= others}
                onChange={() => toggle(i.slug)}
              />
              <span>{i.title}</span>
              <span className="muted small">
                {i.overallScore === null ? 'not evaluated' : i.overallScore.toFixed(2)}
                {i.stale ? ' · stale' : ''}
              </span>
            </label>
          );
        })}
        {list.data && ideas.length === 0 && <p className="muted">No idea matches “{filter}”.</p>}
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={total < MIN_COMPARED}>
          Compare {total >= MIN_COMPARED ? `${total} ideas` : ''}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
