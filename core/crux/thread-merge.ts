import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { jaccard, keywords } from './keywords';
import type { ThreadState } from './state';
import { isOpen } from './state';
import type { Stage } from './vocabulary';

// Thread merging (seed 000's thread manager): two open threads that come to work on the same crux
// are one debate split in two. When a message gives a thread its binary question and another open
// thread asks the same question in other words, the less advanced of the two is merged into the
// other: it closes as MERGED (`mergedInto`), keeps its transcript and its record, and the other goes
// on. The spawn gate keeps a proposal from opening a duplicate; this catches the duplicates that
// arise later, from a PROPOSE_CRUX in discovery.

/** Past this keyword overlap two questions are the same crux: the spawn gate's line. */
export const SAME_CRUX = 0.5;

const STAGE_RANK: Record<Stage, number> = { DISCOVERY: 0, CRUX_LOCK: 1, EVIDENCE: 2 };

/** The thread that stays: the one further along (its lock or evidence is not thrown away), else the older. */
function survivor(threads: readonly ThreadState[], a: ThreadState, b: ThreadState): [ThreadState, ThreadState] {
  const rank = (t: ThreadState) => STAGE_RANK[t.status as Stage];
  if (rank(a) !== rank(b)) return rank(a) > rank(b) ? [a, b] : [b, a];
  return threads.indexOf(a) < threads.indexOf(b) ? [a, b] : [b, a];
}

/**
 * After `messageId` gave `thread` its question: merge it with every other open thread asking the
 * same one (the first that absorbs `thread` ends the search). Returns the thread that goes on.
 */
export function mergeSameCrux(ctx: StepContext, thread: ThreadState, messageId: string): ThreadState {
  const { state } = ctx;
  let current = thread;
  for (const other of state.threads) {
    if (other === current || !isOpen(other) || !isOpen(current)) continue;
    if (other.binaryQuestion === null || current.binaryQuestion === null) continue;
    const similarity = jaccard(keywords(current.binaryQuestion), keywords(other.binaryQuestion));
    if (similarity <= SAME_CRUX) continue;
    const [into, absorbed] = survivor(state.threads, current, other);
    absorbed.mergedInto = into.id;
    into.absorbed = [...(into.absorbed ?? []), absorbed.id];
    const rounded = Math.round(similarity * 100) / 100;
    closeThread(ctx, absorbed, 'MERGED', `working on the same crux as ${into.id} (keyword similarity ${rounded})`);
    emit(ctx, { type: 'threads_merged', thread: absorbed.id, into: into.id, similarity, messageId });
    current = into;
  }
  return current;
}
