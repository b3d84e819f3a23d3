import type { StepContext } from './context';
import { emit } from './context';
import { CruxInputError } from './errors';
import { jaccard, keywords } from './keywords';
import type { CruxState, ThreadState } from './state';
import { findThread, isAgent, isOpen, newThread } from './state';
import type { SpawnRejection } from './vocabulary';

// Threads come from two places: declared outright (a script's `thread` line, no gate) or proposed
// during the debate, in which case they must earn their place: room, backing, a question, and a
// question that is not a rewording of one already being argued.

function assertNewId(state: CruxState, id: string): void {
  if (findThread(state, id)) throw new CruxInputError(`thread id "${id}" already exists`);
}

export function openThread(ctx: StepContext, id: string, topic: string, binaryQuestion?: string): void {
  assertNewId(ctx.state, id);
  const question = binaryQuestion?.trim() ? binaryQuestion.trim() : null;
  const thread = newThread(id, topic, question, ctx.state.config, 'script');
  // Its inactivity clock starts now, not at the debate's start (./staleness.ts).
  thread.lastActiveAt = ctx.state.messageSeq;
  ctx.state.threads.push(thread);
  emit(ctx, { type: 'thread_opened', thread: id, topic, binaryQuestion: question });
}

export interface ThreadProposal {
  id: string;
  by: string;
  topic: string;
  binaryQuestion?: string | null;
  supporters: string[];
}

export type SpawnGate = { ok: true; question: string } | { ok: false; reason: SpawnRejection; detail: string };

/** The spawn gates, in the protocol's order. */
export function checkSpawn(state: CruxState, p: ThreadProposal): SpawnGate {
  const active = state.threads.filter(isOpen);
  if (active.length >= state.config.maxActiveThreads) {
    return { ok: false, reason: 'maxThreads', detail: `${active.length} threads are already active` };
  }
  const supporters = new Set(p.supporters);
  if (supporters.size < 2) {
    return { ok: false, reason: 'supporters', detail: `${supporters.size} distinct supporter(s), 2 needed` };
  }
  const question = p.binaryQuestion?.trim() ?? '';
  if (question === '') return { ok: false, reason: 'noQuestion', detail: 'no binary question' };

  const mine = keywords(question);
  for (const t of active) {
    const theirs = keywords(t.binaryQuestion ?? t.topic);
    const similarity = jaccard(mine, theirs);
    if (similarity > 0.5) {
      return {
        ok: false,
        reason: 'notOrthogonal',
        detail: `keyword similarity ${similarity.toFixed(2)} with thread ${t.id}`,
      };
    }
  }
  return { ok: true, question };
}

export function proposeThread(ctx: StepContext, p: ThreadProposal): ThreadState | null {
  const { state } = ctx;
  for (const id of [p.by, ...p.supporters]) {
    if (!isAgent(state, id)) throw new CruxInputError(`unknown agent id "${id}"`);
  }
  assertNewId(state, p.id);

  const gate = checkSpawn(state, p);
  if (!gate.ok) {
    state.counters.threadSpawnRejections[gate.reason] += 1;
    emit(ctx, { type: 'thread_spawn_rejected', thread: p.id, by: p.by, reason: gate.reason, detail: gate.detail });
    return null;
  }
  const thread = newThread(p.id, p.topic, gate.question, state.config, 'spawn');
  thread.proposedBy = p.by;
  thread.supporters = [...new Set(p.supporters)];
  thread.lastActiveAt = state.messageSeq;
  state.threads.push(thread);
  state.counters.threadsSpawned += 1;
  // A spawned thread's question is a new crux, and a new thread keeps the coalitions from being stable.
  state.lastNewCruxAt = state.counters.messagesTotal;
  state.lastSpawnAt = state.counters.messagesTotal;
  emit(ctx, {
    type: 'thread_spawned',
    thread: p.id,
    topic: p.topic,
    binaryQuestion: gate.question,
    by: p.by,
    supporters: thread.supporters,
  });
  return thread;
}
