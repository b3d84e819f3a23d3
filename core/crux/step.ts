import { updateAgenda } from './agenda';
import { applyMove } from './apply-move';
import { checkMessage } from './checks';
import { recordPositionChange } from './conformity';
import { acceptChallenge, applyCruxCheck, applyReview } from './crux-review';
import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { applyAnalysis, requestCrystallization } from './crystallize';
import { afterDiscoveryMessage } from './discovery';
import { CruxInputError } from './errors';
import { afterEvidenceMessage } from './evidence';
import type { CruxEffect, CruxEvent } from './events';
import type { CruxInput } from './inputs';
import { afterLockMessage } from './lock';
import { intervene, moderatorMessage } from './moderator';
import type { CruxState, ThreadState, TranscriptEntry } from './state';
import { findThread, isAgent, isOpen, totalMessages } from './state';
import { afterAcceptedMessage, noteCruxChange, noteNewCrux } from './honesty';
import { applyRelation, applyRelationCheck, requestRelations } from './relations';
import { markStale, reviveAddressed } from './staleness';
import { mergeSameCrux } from './thread-merge';
import { openThread, proposeThread } from './threads';
import type { Stage } from './vocabulary';

export interface StepResult {
  state: CruxState;
  events: CruxEvent[];
  /** Requests for outside work; the driver answers each with a later input. */
  effects: CruxEffect[];
}

/**
 * The whole protocol: one input in, the next state and what happened out. The caller's state is
 * never touched: the step works on its own copy, so old states stay valid (for undo, for diffing,
 * for replaying a log). Inputs the machine cannot make sense of throw a CruxInputError.
 */
export function step(state: CruxState, input: CruxInput): StepResult {
  return advance(copy(state), input);
}

/**
 * The same transition applied to `state` itself, for drivers that keep only the latest state (the
 * replay driver, the live engine). Copying a state that grows with every message would make a long
 * debate quadratic; advancing in place keeps it linear. After a CruxInputError the state may be
 * partly changed, so a driver treats that error as the end of the run.
 */
export function advance(state: CruxState, input: CruxInput): StepResult {
  const ctx: StepContext = { state, events: [], effects: [] };
  switch (input.kind) {
    case 'thread':
      openThread(ctx, input.id, input.topic, input.binaryQuestion);
      break;
    case 'propose_thread':
      proposeThread(ctx, input);
      break;
    case 'message':
      handleMessage(ctx, input);
      break;
    case 'moderator_message':
      moderatorMessage(ctx, requireThread(ctx.state, input.thread), input.content);
      break;
    case 'crystallize_output':
      applyAnalysis(ctx, input.thread, input.output);
      requestRelations(ctx, requireThread(ctx.state, input.thread));
      noteNewCrux(ctx.state);
      noteCruxChange(ctx.state);
      break;
    case 'crux_check':
      applyCruxCheck(ctx, input);
      break;
    case 'crux_relation':
      applyRelation(ctx, input);
      break;
    case 'relation_check':
      applyRelationCheck(ctx, input);
      noteCruxChange(ctx.state);
      break;
    case 'crux_review':
      applyReview(ctx, input.thread, input.answer);
      noteCruxChange(ctx.state);
      break;
    case 'coalition_labels':
      for (const l of input.labels) {
        for (const m of l.members) if (!isAgent(ctx.state, m)) throw new CruxInputError(`unknown agent id "${m}"`);
      }
      ctx.state.coalitionLabels = input.labels.map((l) => ({ members: [...l.members], label: l.label }));
      ctx.state.coalitionsLabelled = true;
      emit(ctx, { type: 'coalition_labels_set', labels: ctx.state.coalitionLabels });
      break;
    case 'close_thread': {
      const thread = requireThread(ctx.state, input.thread);
      if (isOpen(thread)) {
        thread.awaitingAnalysis = false;
        closeThread(ctx, thread, input.status, 'closed by the engine');
      }
      break;
    }
    case 'stop':
      ctx.state.stoppedBy = input.reason;
      emit(ctx, { type: 'debate_stopped', reason: input.reason });
      break;
  }
  // Whatever the input changed, the agenda follows: every pick is an event in the log.
  updateAgenda(ctx);
  return ctx;
}

function copy(state: CruxState): CruxState {
  // The state is plain JSON by design, so a JSON round trip is a faithful deep copy.
  return JSON.parse(JSON.stringify(state)) as CruxState;
}

function requireThread(state: CruxState, id: string): ThreadState {
  const thread = findThread(state, id);
  if (!thread) throw new CruxInputError(`unknown thread id "${id}"`);
  return thread;
}

function handleMessage(ctx: StepContext, input: Extract<CruxInput, { kind: 'message' }>): void {
  const { state } = ctx;
  const thread = requireThread(state, input.thread);
  if (!isAgent(state, input.agent)) throw new CruxInputError(`unknown agent id "${input.agent}"`);

  // Every agent message gets an id, blocked or not, so scripts can count lines to name replies.
  state.messageSeq += 1;
  const id = `m${state.messageSeq}`;
  const meta = input.meta ?? {};
  const reply = input.replyTo === undefined ? {} : { replyTo: input.replyTo };
  const base = { id, thread: thread.id, agent: input.agent, move: input.move };
  const entry: TranscriptEntry = {
    id,
    thread: thread.id,
    author: input.agent,
    move: input.move,
    content: input.content,
    ...reply,
    meta,
    status: thread.status,
    accepted: false,
  };
  state.transcript.push(entry);

  const check = checkMessage(state, thread, { agent: input.agent, move: input.move, meta, ...reply });
  if (!check.ok) {
    // Blocked messages stay in the transcript (the agent said it) but count toward nothing.
    entry.blockedReason = check.reason;
    entry.blockedDetail = check.detail;
    state.counters.messagesBlocked += 1;
    state.counters.reasonsBlocked[check.reason] += 1;
    emit(ctx, { type: 'message_blocked', ...base, reason: check.reason, detail: check.detail });
    if (check.reason === 'vagueFalsifier') intervene(ctx, thread, 'FALSIFIER_REQUEST', input.agent);
    // A refused move is still a turn the debate took: other threads idle on.
    markStale(ctx);
    return;
  }

  if (check.parsed.move === 'CHALLENGE_CRUX') {
    acceptChallenge(ctx, thread, entry, check.parsed.challenge);
    markStale(ctx);
    return;
  }

  // checkMessage accepts every other move only while the thread is in one of its stages.
  const stage = thread.status as Stage;
  entry.accepted = true;
  if (input.replyTo !== undefined) state.replyCounts[input.replyTo] = (state.replyCounts[input.replyTo] ?? 0) + 1;
  if (!thread.participants.includes(input.agent)) thread.participants.push(input.agent);
  thread.messages[stage] += 1;
  state.counters.messagesTotal += 1;
  if (stage === 'DISCOVERY' && !thread.discoveryAuthors.includes(input.agent)) {
    thread.discoveryAuthors.push(input.agent);
  }
  if (stage === 'EVIDENCE') thread.evidenceMessages.push(id);
  emit(ctx, { type: 'message_posted', ...base, stage, content: input.content, ...reply, meta });

  const before = thread.stances[input.agent];
  if (applyMove(ctx, thread, { id, agent: input.agent, content: input.content }, check.parsed)) {
    entry.sideChanged = true;
  }
  recordPositionChange(state, thread, entry, before && { ...before });

  if (stage === 'DISCOVERY') afterDiscoveryMessage(ctx, thread, input.move);
  else if (stage === 'CRUX_LOCK') afterLockMessage(ctx, thread, id);
  else afterEvidenceMessage(ctx, thread);

  // The hard cap comes last, after whatever transition this message caused.
  const cap = state.config.threadHardCap;
  if (isOpen(thread) && !thread.awaitingAnalysis && totalMessages(thread) >= cap) {
    if (thread.status === 'EVIDENCE') requestCrystallization(ctx, thread, 'hardCap');
    else closeThread(ctx, thread, 'FAILED_CAP', `reached the hard cap of ${cap} messages`);
  }
  // Then what keeps the debate as a whole honest: a new crux noted, a devil's advocate when none came.
  afterAcceptedMessage(ctx, thread, input.move);
  // And the thread manager: this thread is active; a stale thread it addresses comes back; a thread
  // it now shares its crux with is merged; threads idle for too long go stale.
  thread.lastActiveAt = state.messageSeq;
  reviveAddressed(ctx, thread, entry);
  if (input.move === 'PROPOSE_CRUX' && stage === 'DISCOVERY') mergeSameCrux(ctx, thread, id);
  markStale(ctx);
}
