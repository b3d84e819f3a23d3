import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ChannelOutput } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { useWindow } from '../../ui/use-window';
import { useThemeColours } from '../convergence/use-theme-colours';
import { categoryVar, score } from '../evaluation/format';
import { accentShare, cellKind, cellLabel, cellStyle, heatClass, LOW_CONFIDENCE, mixColours } from './score-cell';
import './matrix.css';

type Matrix = ChannelOutput<'evaluations:matrix'>;
type Criterion = Matrix['criteria'][number];
type Row = Matrix['ideas'][number] & { gaps: number };
type Order = 'overall' | 'title' | 'gaps';

const ROW_HEIGHT = 30;
const OVERSCAN = 8;
/** How long the grid must be still before its rows get their cells back. */
const SETTLE_MS = 150;
const THEME_VARS = ['--accent', '--bg-raised', '--bg-sunken'] as const;
/** The two header rows (categories, then the criteria's names turned upright). */
const HEAD_HEIGHT = 24 + 130;
/** Widths of the idea's title, its overall score and one criterion's cell (matrix.css agrees). */
const TITLE_WIDTH = 240;
const OVERALL_WIDTH = 56;
const CELL_WIDTH = 26;

/**
 * A function that keeps one identity for the component's life and always runs the latest body, so
 * the memoized rows are not drawn again because a handler was made anew.
 */
function useCallbackRef<A extends unknown[]>(body: (...args: A) => void): (...args: A) => void {
  const ref = useRef(body);
  ref.current = body;
  return useCallback((...args: A) => ref.current(...args), []);
}

/**
 * A row's scores as one background: each criterion's colour (its cell's, from `palette`: index 0
 * for a gap, 1–10 for a score) in its cell's place; matrix.css draws the gaps between cells over it.
 * What a fast scroll shows, one element instead of 30.
 */
function stripOf(scores: readonly (number | null)[], palette: readonly string[]): string {
  const stops = scores.map((s, i) => {
    const colour = palette[s === null ? 0 : Math.max(1, Math.min(10, Math.round(s)))];
    return `${colour} ${i * CELL_WIDTH}px ${(i + 1) * CELL_WIDTH}px`;
  });
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}

function gapsOf(row: Matrix['ideas'][number]): number {
  return row.scores.reduce<number>((n, s, i) => n + (cellKind(s, row.confidence[i] ?? null) === 'scored' ? 0 : 1), 0);
}

/** The criteria in order, as runs of one category (the header's first row). */
function categoryRuns(criteria: readonly Criterion[], categories: Matrix['categories']) {
  const runs: { id: string; name: string; weight: number; index: number; span: number; first: number }[] = [];
  for (const [at, c] of criteria.entries()) {
    const last = runs[runs.length - 1];
    if (last && last.id === c.category) last.span++;
    else {
      const index = categories.findIndex((k) => k.id === c.category);
      const category = categories[index];
      runs.push({
        id: c.category,
        name: category?.name ?? c.category,
        weight: category?.weight ?? 0,
        index,
        span: 1,
        first: at,
      });
    }
  }
  return runs;
}

/**
 * One idea's row: drawn again only when its idea, its place or whether it holds the tab stop
 * changes, so a scroll mounts the rows that come into view and leaves the others alone.
 */
const MatrixRow = memo(function MatrixRow({
  row,
  index,
  criteria,
  tabCol,
  onKey,
  onFocusCell,
  strip,
  palette,
}: {
  row: Row;
  index: number;
  criteria: readonly Criterion[];
  /** The cell Tab reaches in this row, or -1. */
  tabCol: number;
  onKey: (e: React.KeyboardEvent, row: number, col: number, slug: string) => void;
  onFocusCell: (row: number, col: number) => void;
  /** Drawn while the grid scrolls: the scores as one strip of their colours, not 30 cells. */
  strip: boolean;
  palette: readonly string[];
}) {
  return (
    <tr
      aria-rowindex={index + 3}
      className="matrix-row"
      style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
      data-testid="matrix-row"
      data-slug={row.slug}
    >
      <th scope="row" className="title">
        <a href={href('idea', row.slug)} title={row.title} tabIndex={-1}>
          {row.title}
        </a>
        {row.stale && <span className="badge warn">stale</span>}
      </th>
      <td className="num">{score(row.overallScore)}</td>
      {strip ? (
        <td
          className="heat-strip"
          colSpan={criteria.length}
          style={{ backgroundImage: stripOf(row.scores, palette) }}
        />
      ) : (
        criteria.map((c, col) => {
          const s = row.scores[col] ?? null;
          const conf = row.confidence[col] ?? null;
          const label = `${row.title}, ${cellLabel(c.name, s, conf)}`;
          // The cell is the control (a grid's cell): one element per score, not a button in a cell.
          return (
            <td
              key={c.id}
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a data grid's cell (ARIA grid pattern): focusable, arrows move, Enter opens
              role="gridcell"
              className={`heat ${cellKind(s, conf)} ${heatClass(s)}`}
              data-cell={`${index}:${col}`}
              tabIndex={tabCol === col ? 0 : -1}
              title={label}
              aria-label={label}
              onKeyDown={(e) => onKey(e, index, col, row.slug)}
              onFocus={() => onFocusCell(index, col)}
              onClick={() => navigate(href('idea', row.slug))}
            >
              {s ?? ''}
            </td>
          );
        })
      )}
    </tr>
  );
});

/**
 * Every idea × the 30 criteria of its current evaluation as a heatmap, grouped by category: darker
 * is a higher score, a hatched cell is not scored, a dashed one is scored with low confidence. A
 * cell opens its idea. A table whose rows are drawn only where visible and placed one by one
 * (matrix.css lays its rows out as flex boxes: a table laid out as a table redid every drawn row on
 * each scroll, and 2,000 ideas scrolled at 16 frames a second); arrow keys move between cells.
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
  // While the grid scrolls, rows are drawn as strips of colour, and the cells come back 150 ms
  // after it stops: a fling brings a dozen rows of 30 cells a frame, more than a frame can draw.
  const [scrolling, setScrolling] = useState(false);
  const theme = useThemeColours(THEME_VARS);
  const palette = useMemo(
    () => [
      theme['--bg-sunken'],
      ...Array.from({ length: 10 }, (_, i) => mixColours(theme['--accent'], theme['--bg-raised'], accentShare(i + 1))),
    ],
    [theme],
  );
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(settle.current ?? undefined), []);
  const onGridScroll = (e: React.UIEvent<HTMLDivElement>) => {
    onScroll(e);
    setScrolling(true);
    clearTimeout(settle.current ?? undefined);
    settle.current = setTimeout(() => setScrolling(false), SETTLE_MS);
  };

  const criteria = data?.criteria ?? [];
  const categories = data?.categories ?? [];
  const runs = useMemo(() => categoryRuns(data?.criteria ?? [], data?.categories ?? []), [data]);
  const width = TITLE_WIDTH + OVERALL_WIDTH + criteria.length * CELL_WIDTH;

  // Keyboard: the active cell is the one Tab reaches; arrows move it, scrolling its row into view.
  const focusCell = (row: number, col: number) => {
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const c = Math.max(0, Math.min(criteria.length - 1, col));
    // Drawn now, not at React's next turn: the new active row gets its cells (it may be a strip
    // while the grid scrolls) before the focus is moved into it.
    flushSync(() => setActive({ row: r, col: c }));
    const el = scroller.current;
    if (el) {
      const top = r * ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight - HEAD_HEIGHT)
        el.scrollTop = top - el.clientHeight + HEAD_HEIGHT + ROW_HEIGHT;
    }
    // A drawn cell takes the focus at once, so quick presses each start from the cell before; one
    // not drawn yet (a long jump) takes it once its row is drawn.
    const cell = () => scroller.current?.querySelector<HTMLElement>(`[data-cell="${r}:${c}"]`);
    const now = cell();
    if (now) now.focus({ preventScroll: true });
    else requestAnimationFrame(() => cell()?.focus({ preventScroll: true }));
  };
  const onKey = useCallbackRef((e: React.KeyboardEvent, row: number, col: number, slug: string) => {
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
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      navigate(href('idea', slug));
    }
  });

  const onFocusCell = useCallbackRef((row: number, col: number) => {
    if (row !== active.row || col !== active.col) setActive({ row, col });
  });

  const totalGaps = rows.reduce((n, r) => n + r.gaps, 0);
  // The cell Tab reaches: the active one when its row is drawn, else the first drawn row's.
  const tabRow = active.row >= first && active.row < last ? active.row : first;
  const tabCol = active.row >= first && active.row < last ? active.col : 0;
  const drawn: React.ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const r = rows[index] as Row;
    drawn.push(
      <MatrixRow
        key={r.slug}
        row={r}
        index={index}
        criteria={criteria}
        tabCol={index === tabRow ? tabCol : -1}
        onKey={onKey}
        onFocusCell={onFocusCell}
        // The active cell's row keeps its cells while the grid scrolls: arrow keys scroll it, and
        // the focus must not fall out of a row drawn as a strip.
        strip={scrolling && index !== active.row}
        palette={palette}
      />,
    );
  }
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
        <div
          ref={scroller}
          className="matrix-scroll"
          data-testid="matrix"
          data-rows={rows.length}
          onScroll={onGridScroll}
        >
          <table
            className="matrix"
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a data grid (ARIA grid pattern), its cells the controls
            role="grid"
            aria-label="Ideas by criteria"
            aria-rowcount={rows.length + 2}
            style={{ width }}
          >
            <thead>
              <tr className="matrix-cats">
                <th rowSpan={2} className="title">
                  Idea
                </th>
                <th rowSpan={2} className="num">
                  Overall
                </th>
                {runs.map((c) => (
                  <th
                    key={`${c.id}:${c.first}`}
                    colSpan={c.span}
                    className="cat"
                    style={
                      {
                        width: c.span * CELL_WIDTH,
                        '--cat-color': `var(${categoryVar(Math.max(0, c.index))})`,
                      } as React.CSSProperties
                    }
                    title={`${c.name} (weight ${c.weight})`}
                  >
                    {c.name}
                  </th>
                ))}
              </tr>
              <tr className="matrix-crits">
                {criteria.map((k) => (
                  <th
                    key={k.id}
                    className="crit"
                    title={k.name}
                    style={
                      {
                        '--cat-color': `var(${categoryVar(
                          Math.max(
                            0,
                            categories.findIndex((c) => c.id === k.category),
                          ),
                        )})`,
                      } as React.CSSProperties
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
            <tbody style={{ height: rows.length * ROW_HEIGHT }}>{drawn}</tbody>
          </table>
        </div>
      )}
      {data && rows.length === 0 && <p className="muted">No idea matches.</p>}
    </section>
  );
}
