import type { Workspace } from '../workspace/workspace';

/** Values handed out by a memo: the same object on every call until the index changes. */
const kept = new WeakSet<object>();

/** True for an object an IndexMemo keeps (a handler may then reuse its checked output). */
export function isKept(value: unknown): boolean {
  return typeof value === 'object' && value !== null && kept.has(value);
}

/**
 * An answer a handler computes on every call but hands out as the same object while it stays the
 * same (`SameAnswer`): checked against the contract and frozen once, like a memo's.
 */
export class SameAnswer<T extends object> {
  private last: { text: string; value: T } | null = null;

  /** `value`, or the object handed out last when `value` says the same thing. */
  of(value: T): T {
    const text = JSON.stringify(value);
    if (this.last?.text === text) return this.last.value;
    kept.add(value);
    this.last = { text, value };
    return value;
  }
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
