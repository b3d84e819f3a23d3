import type { CourseThread, DebateCourse } from '../../../../core/contract';
import { clip } from '../debate/format';

/**
 * The rows recharts draws a debate's course from: one row per message index where anything changed
 * (and the last message), each series' value carried forward from its last point, so `stepAfter`
 * lines show what stood after each message. Pure, so it can be read without a browser.
 */

type Row = Record<string, number | null>;

/** The series keys of a thread's DCG: provisional (dashed, before crystallization) and the crux's own. */
export const provisionalKey = (thread: string) => `${thread}~`;
export const finalKey = (thread: string) => thread;

const lastAt = <P extends { index: number }>(points: readonly P[], x: number): P | undefined =>
  points.findLast((p) => p.index <= x);

function xs(end: number, indexes: Iterable<number>): number[] {
  return [...new Set([...indexes, end])].filter((x) => x <= end).sort((a, b) => a - b);
}

/** The DCG chart: for each thread, its provisional DCG up to crystallization, then the crux's DCG to the end. */
export function dcgRows(course: DebateCourse): Row[] {
  const end = Math.max(0, course.messages - 1);
  const all = course.threads.flatMap((t) => t.dcgPoints.map((p) => p.index));
  return xs(end, all).map((x) => {
    const row: Row = { index: x };
    for (const t of course.threads) {
      const provisional = t.dcgPoints.filter((p) => !p.final);
      const upTo = t.crystallizedAt ?? end;
      const before = lastAt(provisional, Math.min(x, upTo));
      // The dashed line runs on to the crystallization, where the solid one starts.
      row[provisionalKey(t.id)] = before && x <= upTo ? before.score : null;
      row[finalKey(t.id)] = t.crystallizedAt !== null && x >= t.crystallizedAt ? t.dcg : null;
    }
    return row;
  });
}

/** Where a side and confidence sit on the positions chart: YES above the line, NO below, UNCERTAIN on it. */
export function signed(point: { side: string; confidence: number | null }): number {
  const c = point.confidence ?? 0.5;
  return point.side === 'YES' ? c : point.side === 'NO' ? -c : 0;
}

/** The positions chart of one thread: each agent's signed confidence, from its first point to the thread's end. */
export function positionRows(thread: CourseThread, messages: number): Row[] {
  const end = Math.max(0, thread.crystallizedAt ?? messages - 1);
  const all = thread.positions.flatMap((a) => a.points.map((p) => p.index));
  return xs(end, all).map((x) => {
    const row: Row = { index: x };
    for (const a of thread.positions) {
      const p = lastAt(a.points, x);
      row[a.agent] = p ? signed(p) : null;
    }
    return row;
  });
}

/** The thread shown first: the primary crux, else the first crystallized one, else the first with positions. */
export function firstThread(course: DebateCourse): CourseThread | undefined {
  return (
    course.threads.find((t) => t.primary) ??
    course.threads.find((t) => t.crystallizedAt !== null) ??
    course.threads.find((t) => t.positions.length > 0) ??
    course.threads[0]
  );
}

/**
 * The legend's names of a thread's two DCG lines: the crux question, shortened, not its id ("t1 (so
 * far)" told a reader nothing); `title` holds the whole question and the id for a tooltip.
 */
export function dcgSeriesNames(thread: Pick<CourseThread, 'id' | 'question' | 'topic' | 'primary'>): {
  provisional: string;
  final: string;
  title: string;
} {
  const question = thread.question ?? thread.topic;
  const short = `“${clip(question, 40)}”`;
  return {
    provisional: `${short} so far`,
    final: thread.primary ? `${short} (primary crux)` : short,
    title: `${question} (thread ${thread.id})`,
  };
}
