import { useMemo, useState } from 'react';
import type { ChannelOutput } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { useWindow } from '../../ui/use-window';
import { categoryVar, score } from '../evaluation/format';
import { cellKind, cellLabel, cellStyle, LOW_CONFIDENCE } from './score-cell';
import './matrix.css';

type Matrix = ChannelOutput<'evaluations:matrix'>;
type Row = Matrix['ideas'][number] & { gaps: number };
type Order = 'overall' | 'title' | 'gaps';

const ROW_HEIGHT = 30;
const OVERSCAN = 8;

function gapsOf(row: Matrix['ideas'][number]): number {
  return row.scores.reduce<number>((n, s, i) => n + (cellKind(s, row.confidence[i] ?? null) === 'scored' ? 0 : 1), 0);
}

/**
 * Every idea × the 30 criteria of its current evaluation as a heatmap, grouped by category: darker
 * is a higher score, a hatched cell is not scored, a dashed one is scored with low confidence. A
 * cell opens its idea. Rows are drawn only where visible; arrow keys move between cells.
 */
export function MatrixView({ route }: { route: Route }) {
  void route;
  const matrix = useChannel('evaluations:matrix', {});
  usePush('run:status', (p) => {
    // An evaluation that completed has locked: its record and the idea's synthesis are written.
    if (p.protocol === 'evaluation' && p.status === 'completed') matrix.reload();
  });
  usePush('sync:changed', (r) => {
    if (r.added + r.removed > 0 || r.changed > 0) matrix.reload();
  });
  const [text, setText] = useState('');
  const [evaluatedOnly, setEvaluatedOnly] = useState(false);
  const [order, setOrder] = useState<Order>('overall');
  const [active, setActive] = useState<{ row: number; col: number }>({ row: 0, col: 0 });

  const data = matrix.data;
  const rows = useMemo<Row[]>(() => {
    if (!data) return [];
    const words = text.trim().toLowerCase();
    const kept = data.ideas
      .filter(
        (i) => (!evaluatedOnly || i.evaluationId !== null) && (words === '' || i.title.toLowerCase().includes(words)),
      )
      .map((i) => ({ ...i, gaps: gapsOf(i) }));
    if (order === 'title') kept.sort((a, b) => a.title.localeCompare(b.title));
    else if (order === 'gaps') kept.sort((a, b) => b.gaps - a.gaps || a.title.localeCompare(b.title));
    // 'overall' keeps the leaderboard's order (highest first, unevaluated last).
    return kept;
  }, [data, text, evaluatedOnly, order]);

  const { ref: scroller, first, last, onScroll } = useWindow<HTMLDivElement>(rows.length, ROW_HEIGHT, OVERSCAN);

  const criteria = data?.criteria ?? [];
  const categories = data?.categories ?? [];
  const catIndex = new Map(categories.map((c, i) => [c.id, i]));

  // Keyboard: the active cell is the one Tab reaches; arrows move it, scrolling its row into view.
  const focusCell = (row: number, col: number) => {
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const c = Math.max(0, Math.min(criteria.length - 1, col));
    setActive({ row: r, col: c });
    const el = scroller.current;
    if (el) {
      const top = r * ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight - 160)
        el.scrollTop = top - el.clientHeight + 160 + ROW_HEIGHT;
    }
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLButtonElement>(`[data-cell="${r}:${c}"]`)?.focus({ preventScroll: true }),
    );
  };
  const onKey = (e: React.KeyboardEvent, row: number, col: number) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      PageUp: [-10, 0],
      PageDown: [10, 0],
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      focusCell(row + move[0], col + move[1]);
    } else if (e.key === 'Home') {
      e.preventDefault();
      focusCell(row, 0);
    } else if (e.key === 'End') {
      e.preventDefault();
      focusCell(row, criteria.length - 1);
    }
  };

  const totalGaps = rows.reduce((n, r) => n + r.gaps, 0);
  // The cell Tab reaches: the active one when its row is drawn, else the first drawn row's.
  const tabRow = active.row >= first && active.row < last ? active.row : first;
  const tabCol = active.row >= first && active.row < last ? active.col : 0;
  return (
    <section className="view matrix-view">
      <h1>Matrix</h1>
      <div className="row">
        <label>
          Find
          <input type="search" value={text} placeholder="idea title" onChange={(e) => setText(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={evaluatedOnly} onChange={(e) => setEvaluatedOnly(e.target.checked)} />
          evaluated ideas only
        </label>
        <label>
          Order
          <select value={order} onChange={(e) => setOrder(e.target.value as Order)}>
            <option value="overall">overall score</option>
            <option value="gaps">most gaps first</option>
            <option value="title">title</option>
          </select>
        </label>
        <span className="muted small" aria-live="polite">
          {rows.length} ideas · {totalGaps} gaps
        </span>
      </div>
      <div className="matrix-legend small">
        <span>
          <span className="heat scored" style={cellStyle(3)} /> low
        </span>
        <span>
          <span className="heat scored" style={cellStyle(9)} /> high score
        </span>
        <span>
          <span className="heat unsure" style={cellStyle(6)} /> confidence below {LOW_CONFIDENCE}
        </span>
        <span>
          <span className="heat gap" /> not scored
        </span>
        <span className="muted">Click a cell (or Enter) to open the idea; arrow keys move between cells.</span>
      </div>
      <ErrorNotice error={matrix.error} />
      {!data && !matrix.error && <p className="muted">Loading…</p>}
      {data && (
        <div ref={scroller} className="matrix-scroll" data-testid="matrix" data-rows={rows.length} onScroll={onScroll}>
          <table className="matrix" aria-label="Ideas by criteria" aria-rowcount={rows.length + 2}>
            <thead>
              <tr>
                <th rowSpan={2} className="title">
                  Idea
                </th>
                <th rowSpan={2} className="num">
                  Overall
                </th>
                {categories.map((c, i) => (
                  <th
                    key={c.id}
                    colSpan={criteria.filter((k) => k.category === c.id).length}
                    className="cat"
                    style={{ '--cat-color': `var(${categoryVar(i)})` } as React.CSSProperties}
                    title={`${c.name} (weight ${c.weight})`}
                  >
                    {c.name}
                  </th>
                ))}
              </tr>
              <tr>
                {criteria.map((k) => (
                  <th
                    key={k.id}
                    className="crit"
                    title={k.name}
                    style={
                      { '--cat-color': `var(${categoryVar(catIndex.get(k.category) ?? 0)})` } as React.CSSProperties
                    }
                  >
                    <span>
                      {k.name}
                      {k.critical ? ' *' : ''}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {first > 0 && (
                <tr className="spacer" style={{ height: first * ROW_HEIGHT }}>
                  <td colSpan={criteria.length + 2} />
                </tr>
              )}
              {rows.slice(first, last).map((r, k) => {
                const index = first + k;
                return (
                  <tr key={r.slug} style={{ height: ROW_HEIGHT }} data-testid="matrix-row" data-slug={r.slug}>
                    <th scope="row" className="title">
                      <a href={href('idea', r.slug)} title={r.title}>
                        {r.title}
                      </a>
                      {r.stale && <span className="badge warn">stale</span>}
                    </th>
                    <td className="num">{score(r.overallScore)}</td>
                    {criteria.map((c, col) => {
                      const s = r.scores[col] ?? null;
                      const conf = r.confidence[col] ?? null;
                      const label = `${r.title}, ${cellLabel(c.name, s, conf)}`;
                      return (
                        <td key={c.id}>
                          <button
                            type="button"
                            className={`heat ${cellKind(s, conf)}`}
                            style={cellStyle(s)}
                            data-cell={`${index}:${col}`}
                            tabIndex={tabRow === index && tabCol === col ? 0 : -1}
                            title={label}
                            aria-label={label}
                            onFocus={() => setActive({ row: index, col })}
                            onKeyDown={(e) => onKey(e, index, col)}
                            onClick={() => navigate(href('idea', r.slug))}
                          >
                            {s ?? ''}
                          </button>
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
              {last < rows.length && (
                <tr className="spacer" style={{ height: (rows.length - last) * ROW_HEIGHT }}>
                  <td colSpan={criteria.length + 2} />
                </tr>
              )}
            </tbody>
          </table>
          {rows.length === 0 && <p className="muted">No idea matches.</p>}
        </div>
      )}
    </section>
  );
}
