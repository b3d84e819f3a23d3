import { ariaSort, nextSort, type Sort } from './sort';

/** What a sortable column's header needs. */
export interface SortColumn<K extends string> {
  key: K;
  label: string;
  numeric: boolean;
  /** The header's tooltip (what the column means); "Sort by …" when absent. */
  title?: string;
  /** A coloured underline (a category's colour on the ideas board). */
  colour?: string;
  /** A class of its own (its width, on the ideas board). */
  className?: string;
}

/**
 * The header row of a sortable table: a click sorts by that column (the other way on a second
 * click), `aria-sort` says how, and an arrow shows it.
 */
export function SortHeader<K extends string>({
  columns,
  sort,
  onSort,
}: {
  columns: readonly SortColumn<K>[];
  sort: Sort<K>;
  onSort: (next: Sort<K>) => void;
}) {
  return (
    <tr>
      {columns.map((c) => (
        <th
          key={c.key}
          aria-sort={ariaSort(sort, c.key)}
          className={[c.numeric ? 'num' : '', c.className ?? ''].join(' ').trim() || undefined}
          style={c.colour ? { borderBottom: `3px solid ${c.colour}` } : undefined}
        >
          <button
            type="button"
            title={c.title ?? `Sort by ${c.label}`}
            onClick={() => onSort(nextSort(sort, c.key, !c.numeric))}
          >
            {c.label}
            {sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
          </button>
        </th>
      ))}
    </tr>
  );
}
