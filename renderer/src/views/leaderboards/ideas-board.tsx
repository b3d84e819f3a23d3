import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { LeaderboardRowView } from '../../../../core/contract';
import { href } from '../../router';
import { toCsv, downloadText } from '../../ui/csv';
import { useWindow } from '../../ui/use-window';
import { categoryVar, pct, score } from '../evaluation/format';
import { type Sort, sortRows } from './sort';
import { SortHeader } from './sort-header';

const ROW_HEIGHT = 34;
/** Rows drawn beyond the visible ones on each side, so a fast scroll shows no gap. */
const OVERSCAN = 10;
/**
 * The width every column needs at its narrowest (leaderboards.css: rank 40, title at least 200,
 * overall 60, each category 72 ("Feasibility" in full), confidence 78, survival 64, stage 110,
 * stale 56, evaluated 104; then the border and a scrollbar): the fixed part, and one category's.
 * Below it, the rank, title and overall stay and the other columns come in two groups, one shown
 * at a time, rather than running off the right edge. The taxonomy decides how many categories.
 */
const FIXED_COLUMNS_WIDTH = 730;
const CATEGORY_WIDTH = 72;
type Group = 'scores' | 'details';
const GROUPS: { id: Group; label: string; title: string }[] = [
  { id: 'scores', label: 'Category scores', title: 'The six categories’ scores' },
  {
    id: 'details',
    label: 'Confidence, stage and dates',
    title: 'Confidence, red-team survival, stage, staleness and the day it was evaluated',
  },
];

interface Column {
  key: string;
  label: string;
  title?: string;
  numeric: boolean;
  value: (row: LeaderboardRowView) => string | number | boolean | null;
  cell: (row: LeaderboardRowView) => React.ReactNode;
  /** Its width's class (leaderboards.css): the rows are laid out one by one, not as a table. */
  className: string;
  colour?: string;
  /** The group it is shown in when the board is too narrow for every column; none: always shown. */
  group?: Group;
}

/**
 * One idea's row: drawn again only when its idea, its place or the columns change, so a scroll
 * mounts the rows that come into view and leaves the others alone.
 */
const BoardRow = memo(function BoardRow({
  row,
  index,
  columns,
}: {
  row: LeaderboardRowView;
  index: number;
  columns: readonly Column[];
}) {
  return (
    <tr
      aria-rowindex={index + 2}
      className={index % 2 === 1 ? 'odd' : undefined}
      data-testid="leaderboard-row"
      data-slug={row.slug}
      style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
    >
      {columns.map((c) => (
        <td key={c.key} className={c.numeric ? `num ${c.className}` : c.className}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
});

type Filter = { text: string; stage: string; evaluated: boolean; staleness: 'all' | 'fresh' | 'stale' };

/**
 * Ideas ranked by overall score with the six category scores, confidence, red-team survival, stage
 * and staleness. Sortable by any column (its header is a button), filtered by words, stage,
 * evaluated or not and staleness, and exported as CSV as shown. Rows are drawn only where they are
 * visible, so 10,000 ideas render as fast as 20.
 */
export function IdeasBoard({
  rows,
  categories,
}: {
  rows: LeaderboardRowView[];
  categories: { id: string; name: string; weight: number }[];
}) {
  const [sort, setSort] = useState<Sort<string>>({ key: 'rank', dir: 'asc' });
  const [filter, setFilter] = useState<Filter>({ text: '', stage: '', evaluated: false, staleness: 'all' });

  const columns = useMemo<Column[]>(
    () => [
      { key: 'rank', label: '#', numeric: true, value: (r) => r.rank, cell: (r) => r.rank, className: 'col-rank' },
      {
        key: 'title',
        label: 'Idea',
        numeric: false,
        value: (r) => r.title,
        cell: (r) => (
          <a href={href('idea', r.slug)} title={r.slug}>
            {r.title}
          </a>
        ),
        className: 'col-title',
      },
      {
        key: 'overall',
        label: 'Overall',
        numeric: true,
        value: (r) => r.overallScore,
        cell: (r) => <strong>{score(r.overallScore)}</strong>,
        className: 'col-overall',
      },
      ...categories.map(
        (c, i): Column => ({
          key: `cat:${c.id}`,
          group: 'scores',
          label: c.name,
          title: `${c.name} (weight ${c.weight})`,
          numeric: true,
          value: (r) => r.categoryScores[c.id] ?? null,
          cell: (r) => score(r.categoryScores[c.id] ?? null),
          className: 'col-cat',
          colour: `var(${categoryVar(i)})`,
        }),
      ),
      {
        key: 'confidence',
        group: 'details',
        label: 'Confidence',
        numeric: true,
        value: (r) => r.confidence,
        cell: (r) => score(r.confidence),
        className: 'col-confidence',
      },
      {
        key: 'survival',
        group: 'details',
        label: 'Survival',
        title: 'Red-team survival: challenges the evaluator won, of all challenges',
        numeric: true,
        value: (r) => r.redTeamSurvival,
        cell: (r) => pct(r.redTeamSurvival),
        className: 'col-survival',
      },
      {
        key: 'stage',
        group: 'details',
        label: 'Stage',
        numeric: false,
        value: (r) => r.stage,
        cell: (r) => r.stage,
        className: 'col-stage',
      },
      {
        key: 'stale',
        group: 'details',
        label: 'Stale',
        title: 'The idea changed since its evaluation',
        numeric: false,
        value: (r) => (r.evaluationId === null ? null : r.stale ? 'stale' : 'current'),
        cell: (r) => (r.stale ? <span className="badge warn">stale</span> : r.evaluationId ? '' : '—'),
        className: 'col-stale',
      },
      {
        key: 'evaluated',
        group: 'details',
        label: 'Evaluated',
        numeric: false,
        value: (r) => r.evaluatedAt,
        cell: (r) => (r.evaluatedAt ? r.evaluatedAt.slice(0, 10) : '—'),
        className: 'col-evaluated',
      },
    ],
    [categories],
  );

  // Too narrow for every column (a 1,024 px window): one group of them at a time.
  const board = useRef<HTMLDivElement>(null);
  const [narrow, setNarrow] = useState(false);
  const [group, setGroup] = useState<Group>('scores');
  useEffect(() => {
    const element = board.current;
    if (!element) return;
    const needed = FIXED_COLUMNS_WIDTH + CATEGORY_WIDTH * categories.length;
    const observer = new ResizeObserver(() => setNarrow(element.clientWidth < needed));
    observer.observe(element);
    return () => observer.disconnect();
  }, [categories.length]);
  const drawn = useMemo(
    () => (narrow ? columns.filter((c) => c.group === undefined || c.group === group) : columns),
    [narrow, group, columns],
  );

  const stages = useMemo(() => [...new Set(rows.map((r) => r.stage))].sort(), [rows]);
  const shown = useMemo(() => {
    const words = filter.text.trim().toLowerCase();
    const kept = rows.filter(
      (r) =>
        (words === '' || r.title.toLowerCase().includes(words) || r.slug.includes(words)) &&
        (filter.stage === '' || r.stage === filter.stage) &&
        (!filter.evaluated || r.overallScore !== null) &&
        (filter.staleness === 'all' || (filter.staleness === 'stale') === r.stale),
    );
    const column = columns.find((c) => c.key === sort.key) ?? columns[0];
    return column ? sortRows(kept, sort, (row) => column.value(row)) : kept;
  }, [rows, filter, sort, columns]);

  // A windowed table: only the rows in view (and a few around) are drawn, each placed at its own
  // height in a body as tall as all of them (leaderboards.css lays the rows out one by one).
  const { ref: scroller, first, last, onScroll } = useWindow<HTMLDivElement>(shown.length, ROW_HEIGHT, OVERSCAN);
  const exportCsv = () => {
    const header = [
      'rank',
      'slug',
      'title',
      'overall',
      ...categories.map((c) => c.id),
      'confidence',
      'red_team_survival',
      'stage',
      'stale',
      'evaluated_at',
      'evaluation_id',
    ];
    const body = shown.map((r) => [
      r.rank,
      r.slug,
      r.title,
      r.overallScore,
      ...categories.map((c) => r.categoryScores[c.id] ?? null),
      r.confidence,
      r.redTeamSurvival,
      r.stage,
      r.evaluationId === null ? null : r.stale,
      r.evaluatedAt,
      r.evaluationId,
    ]);
    downloadText('leaderboard-ideas.csv', toCsv(header, body));
  };

  return (
    <div className={narrow ? 'board stack narrow' : 'board stack'} ref={board}>
      <div className="row board-filters">
        <label>
          Find
          <input
            type="search"
            value={filter.text}
            placeholder="title or slug"
            onChange={(e) => setFilter({ ...filter, text: e.target.value })}
          />
        </label>
        <label>
          Stage
          <select value={filter.stage} onChange={(e) => setFilter({ ...filter, stage: e.target.value })}>
            <option value="">any</option>
            {stages.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={filter.evaluated}
            onChange={(e) => setFilter({ ...filter, evaluated: e.target.checked })}
          />
          evaluated only
        </label>
        <label>
          Staleness
          <select
            value={filter.staleness}
            onChange={(e) => setFilter({ ...filter, staleness: e.target.value as Filter['staleness'] })}
          >
            <option value="all">all</option>
            <option value="fresh">current only</option>
            <option value="stale">stale only</option>
          </select>
        </label>
        <button type="button" onClick={exportCsv} disabled={shown.length === 0}>
          Export CSV
        </button>
        <span className="muted small" aria-live="polite">
          {shown.length} of {rows.length} ideas
        </span>
        {narrow && (
          <fieldset className="row board-groups" aria-label="Columns shown">
            {GROUPS.map((g) => (
              <button
                key={g.id}
                type="button"
                title={g.title}
                aria-pressed={group === g.id}
                onClick={() => setGroup(g.id)}
              >
                {g.label}
              </button>
            ))}
          </fieldset>
        )}
      </div>
      <div
        ref={scroller}
        className="board-table"
        data-testid="leaderboard-ideas"
        data-rows={shown.length}
        onScroll={onScroll}
      >
        <table className="data board" aria-label="Ideas leaderboard" aria-rowcount={shown.length + 1}>
          <thead>
            <SortHeader columns={drawn} sort={sort} onSort={setSort} />
          </thead>
          <tbody style={{ height: shown.length * ROW_HEIGHT }}>
            {shown.slice(first, last).map((r, k) => (
              <BoardRow key={r.slug} row={r} index={first + k} columns={drawn} />
            ))}
          </tbody>
        </table>
        {shown.length === 0 && <p className="muted">No idea matches.</p>}
      </div>
    </div>
  );
}
