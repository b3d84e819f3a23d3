import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { jaccard, keywords } from './keywords';
import type { ThreadState, TranscriptEntry } from './state';
import { isOpen } from './state';
import { SAME_CRUX } from './thread-merge';
import type { Stage } from './vocabulary';

// Inactivity (seed 000's staleness, counted in turns rather than seconds so a replay decides as a
// live debate did): a thread that has had no accepted message while the debate took `staleAfter`
// turns (agent messages, refused ones included, in any thread) is marked STALE and leaves the
// schedule. It is not dead: a message elsewhere that addresses it again (a reply to one of its
// messages, or a proposed crux asking its question) brings it back to the stage it was in.

/** After every agent message: the open threads idle for `staleAfter` turns go stale. */
export function markStale(ctx: StepContext): void {
  const { state } = ctx;
  const after = state.config.staleAfter;
  if (after <= 0) return;
  for (const t of state.threads) {
    // A thread waiting for its analysis is not idle: its crystallizer is at work.
    if (!isOpen(t) || t.awaitingAnalysis) continue;
    if (state.messageSeq - t.lastActiveAt < after) continue;
    t.staleFrom = t.status as Stage;
    closeThread(ctx, t, 'STALE', `no message in the last ${after} turns`);
  }
}

/** Why an accepted message in `thread` addresses a stale thread again, or null. */
function addresses(ctx: StepContext, stale: ThreadState, entry: TranscriptEntry): string | null {
  if (entry.replyTo !== undefined && ctx.state.transcript.some((m) => m.id === entry.replyTo && m.thread === stale.id))
    return `${entry.id} replies to ${entry.replyTo}`;
  const question = entry.move === 'PROPOSE_CRUX' ? entry.meta?.question : undefined;
  if (typeof question === 'string' && stale.binaryQuestion !== null) {
    const similarity = jaccard(keywords(question), keywords(stale.binaryQuestion));
    if (similarity > SAME_CRUX) return `${entry.id} proposes its question again`;
  }
  return null;
}

/**
 * After an accepted message in `thread`: stale threads it addresses come back to their stage, their
 * clock restarted. A revival needs room among the active threads, unless the message gave `thread`
 * that very question: the two are then merged at once and the count does not grow.
 */
export function reviveAddressed(ctx: StepContext, thread: ThreadState, entry: TranscriptEntry): void {
  const { state } = ctx;
  for (const stale of state.threads) {
    if (stale.status !== 'STALE' || stale === thread || stale.staleFrom === undefined) continue;
    const reason = addresses(ctx, stale, entry);
    if (reason === null) continue;
    const merging =
      isOpen(thread) &&
      thread.binaryQuestion !== null &&
      stale.binaryQuestion !== null &&
      jaccard(keywords(thread.binaryQuestion), keywords(stale.binaryQuestion)) > SAME_CRUX;
    if (!merging && state.threads.filter(isOpen).length >= state.config.maxActiveThreads) continue;
    stale.status = stale.staleFrom;
    delete stale.staleFrom;
    stale.lastActiveAt = state.messageSeq;
    emit(ctx, {
      type: 'thread_revived',
      thread: stale.id,
      status: stale.status as Stage,
      by: entry.author as string,
      messageId: entry.id,
      reason,
    });
  }
}
