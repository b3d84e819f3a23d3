import type { StepContext } from './context';
import { emit } from './context';
import { buildCrux, updatePrimary } from './crystallize';
import { CruxInputError } from './errors';
import type { CruxReviewAnswer } from './inputs';
import type { CruxReview } from './record-schemas';
import type { CruxInput } from './inputs';
import type { CruxState, ThreadState, TranscriptEntry } from './state';
import { isAgent } from './state';
import type { CruxChallenge } from './vocabulary';

// Self-correction. An agent may challenge a crystallized crux as mis-stated, not binary or not
// decision-relevant (CHALLENGE_CRUX, on a CONVERGED thread only). The thread waits for the
// crystallizer's review, asked for with a `review` effect: it re-extracts the crux from the same
// thread, or answers that it needs clarification first, which takes the crux out of the irreducible
// ones until a later review re-extracts it. Every review is kept on the crux, with the crux as it
// stood before, so its history stays visible.

/** Reviews one crux may have; a challenge after that is refused as `threadClosed`. */
export const MAX_CRUX_REVIEWS = 2;

export const NEEDS_CLARIFICATION = 'NEEDS_CLARIFICATION';

/** Why the crux of this thread cannot be challenged now, or null when it can. */
export function challengeClosed(thread: ThreadState): string | null {
  if (thread.status !== 'CONVERGED' || !thread.crux)
    return `thread ${thread.id} is ${thread.status}: it has no crux to challenge`;
  if (thread.awaitingReview) return `the crux of ${thread.id} is being reviewed`;
  const reviews = thread.crux.history?.length ?? 0;
  if (reviews >= MAX_CRUX_REVIEWS) return `the crux of ${thread.id} was already reviewed ${reviews} times`;
  return null;
}

/** An accepted CHALLENGE_CRUX: counted as an agent message, and the crystallizer is asked. */
export function acceptChallenge(
  ctx: StepContext,
  thread: ThreadState,
  entry: TranscriptEntry,
  challenge: CruxChallenge,
): void {
  const { state } = ctx;
  const agent = entry.author as string;
  entry.accepted = true;
  if (entry.replyTo !== undefined) state.replyCounts[entry.replyTo] = (state.replyCounts[entry.replyTo] ?? 0) + 1;
  if (!thread.participants.includes(agent)) thread.participants.push(agent);
  // An agent message all the same, though in no stage and so in no stage's budget.
  state.counters.messagesTotal += 1;
  thread.awaitingReview = { messageId: entry.id, agent, challenge };
  // A challenge answers the check of this version; the review makes the next version.
  thread.cruxChecked = cruxVersion(thread);
  emit(ctx, { type: 'crux_challenged', id: entry.id, thread: thread.id, agent, challenge, content: entry.content });
  ctx.effects.push({ kind: 'review', thread: thread.id });
}

/** Applies the crystallizer's answer to a `review` effect. */
export function applyReview(ctx: StepContext, threadId: string, answer: CruxReviewAnswer): void {
  const { state } = ctx;
  const thread = state.threads.find((t) => t.id === threadId);
  if (!thread) throw new CruxInputError(`unknown thread id "${threadId}"`);
  const waiting = thread.awaitingReview;
  const before = thread.crux;
  if (!waiting || !before) throw new CruxInputError(`the crux of "${threadId}" is not waiting for a review`);

  const review = (outcome: CruxReview['outcome'], note: string | null): CruxReview => ({
    challenge: { messageId: waiting.messageId, agent: waiting.agent, reason: waiting.challenge },
    outcome,
    note,
    before: {
      question: before.question,
      validated: before.validated,
      validationFailures: [...before.validationFailures],
    },
  });
  const history = before.history ?? [];

  if ('output' in answer) {
    const { output } = answer;
    for (const id of [...Object.keys(output.positions), ...Object.keys(output.counterfactual)]) {
      if (!isAgent(state, id)) throw new CruxInputError(`unknown agent id "${id}" in the review of "${threadId}"`);
    }
    // Re-extracted from the same thread: positions, DCG and validation all computed afresh.
    thread.crux = { ...buildCrux(state, thread, output), history: [...history, review('REEXTRACTED', null)] };
  } else {
    // Kept as it was, but not irreducible until a later review re-extracts it.
    thread.crux = {
      ...before,
      validated: false,
      validationFailures: [...before.validationFailures.filter((f) => f !== NEEDS_CLARIFICATION), NEEDS_CLARIFICATION],
      history: [...history, review(NEEDS_CLARIFICATION, answer.needsClarification)],
    };
  }
  thread.awaitingReview = null;
  const latest = thread.crux.history?.at(-1) as CruxReview;
  emit(ctx, { type: 'crux_reviewed', thread: thread.id, outcome: latest.outcome, crux: thread.crux });
  updatePrimary(ctx);
}

/** A crux's version: how many reviews it has had (0 as crystallized). */
export function cruxVersion(thread: ThreadState): number {
  return thread.crux?.history?.length ?? 0;
}

/**
 * Who a live debate asks whether a crux stands as stated: the first agent, in the debate's order, of
 * the smaller camp on it (the camp a crystallizer is likeliest to have mis-stated; NO on a tie), else
 * the first agent with any position; null when nobody holds one.
 */
export function checkerOf(state: Pick<CruxState, 'agents'>, thread: ThreadState): string | null {
  const positions = thread.crux?.positions ?? {};
  const on = (side: string) => state.agents.map((a) => a.id).filter((id) => positions[id]?.side === side);
  const yes = on('YES');
  const no = on('NO');
  const camp = yes.length > 0 && (no.length === 0 || yes.length < no.length) ? yes : no;
  return camp[0] ?? state.agents.map((a) => a.id).find((id) => positions[id] !== undefined) ?? null;
}

/** The cruxes a live debate still has to put to an agent: each version of each challengeable crux, once. */
export function pendingCruxChecks(state: CruxState): { thread: string; agent: string }[] {
  return state.threads.flatMap((t) => {
    if (challengeClosed(t) !== null || t.cruxChecked === cruxVersion(t)) return [];
    const agent = checkerOf(state, t);
    return agent ? [{ thread: t.id, agent }] : [];
  });
}

/** An agent asked about the crux did not challenge it: this version has been checked. */
export function applyCruxCheck(ctx: StepContext, input: Extract<CruxInput, { kind: 'crux_check' }>): void {
  const { state } = ctx;
  const thread = state.threads.find((t) => t.id === input.thread);
  if (!thread) throw new CruxInputError(`unknown thread id "${input.thread}"`);
  if (!isAgent(state, input.agent)) throw new CruxInputError(`unknown agent id "${input.agent}"`);
  thread.cruxChecked = cruxVersion(thread);
  emit(ctx, {
    type: 'crux_checked',
    thread: thread.id,
    agent: input.agent,
    outcome: input.outcome,
    version: thread.cruxChecked,
  });
}
