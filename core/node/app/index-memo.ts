import type { Workspace } from '../workspace/workspace';

/** Values handed out by a memo: the same object on every call until the index changes. */
const kept = new WeakSet<object>();

/** True for an object an IndexMemo keeps (a handler may then reuse its checked output). */
export function isKept(value: unknown): boolean {
  return typeof value === 'object' && value !== null && kept.has(value);
}

/**
 * A list answer a handler computes on every call but hands out as the same object while its rows
 * stay the same (each row the same object as last time, or one whose fields are the same values):
 * checked against the contract and frozen once, like a memo's. Rows are compared, not serialized
 * (10,000 rows are megabytes of text): for lists whose rows are mostly objects kept elsewhere.
 */
export class SameRows<R extends object, T extends object> {
  private last: { rows: readonly R[]; value: T } | null = null;

  /** `wrap(rows)`, or the object handed out last when its rows are the same as `rows`. */
  of(rows: readonly R[], wrap: (rows: readonly R[]) => T): T {
    if (this.last && sameRows(this.last.rows, rows)) return this.last.value;
    const value = wrap(rows);
    kept.add(value);
    this.last = { rows, value };
    return value;
  }
}

function sameRows<R extends object>(a: readonly R[], b: readonly R[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    if (x === y) continue;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) if (x[k] !== y[k] || !(k in y)) return false;
  }
  return true;
}

/**
 * Answers computed from the index (the whole library, the leaderboard), kept until the next sync
 * pass that changes the index. Every write to the ideas' rows is such a pass (the watcher, a
 * capture, a stage move, an evaluation's synthesis), so a kept answer is never older than the
 * index; asking again for 10,000 ideas while nothing changed costs nothing.
 */
export class IndexMemo {
  private readonly values = new Map<string, unknown>();
  private readonly stop: () => void;

  constructor(ws: Workspace) {
    this.stop = ws.onChange(() => this.values.clear());
  }

  get<T>(key: string, compute: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = compute();
    if (typeof value === 'object' && value !== null) kept.add(value);
    this.values.set(key, value);
    return value;
  }

  close(): void {
    this.stop();
    this.values.clear();
  }
}
