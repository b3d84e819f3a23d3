/** A table's sort: which column, which way. */
export interface Sort<K extends string> {
  key: K;
  dir: 'asc' | 'desc';
}

type Value = string | number | boolean | null | undefined;

/**
 * Rows sorted by one column, a copy. Missing values (null, undefined) always go last whichever way,
 * so "highest confidence first" never opens on a column of dashes; ties keep their order.
 */
export function sortRows<T, K extends string>(
  rows: readonly T[],
  sort: Sort<K>,
  value: (row: T, key: K) => Value,
): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, v: value(row, sort.key) }))
    .sort((a, b) => {
      const missingA = a.v === null || a.v === undefined;
      const missingB = b.v === null || b.v === undefined;
      if (missingA || missingB) return missingA === missingB ? a.index - b.index : missingA ? 1 : -1;
      const cmp =
        typeof a.v === 'string' && typeof b.v === 'string'
          ? a.v.localeCompare(b.v, undefined, { sensitivity: 'base', numeric: true })
          : Number(a.v) - Number(b.v);
      return cmp === 0 ? a.index - b.index : cmp * sign;
    })
    .map((x) => x.row);
}

/** The next sort after a click on `key`: the other way on the same column, else its natural way. */
export function nextSort<K extends string>(current: Sort<K>, key: K, textual: boolean): Sort<K> {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: textual ? 'asc' : 'desc' };
}

export function ariaSort<K extends string>(current: Sort<K>, key: K): 'ascending' | 'descending' | 'none' {
  if (current.key !== key) return 'none';
  return current.dir === 'asc' ? 'ascending' : 'descending';
}
