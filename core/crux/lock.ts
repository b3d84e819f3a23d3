import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { intervene } from './moderator';
import type { AgentProfile, ThreadState } from './state';
import { enterStage } from './transition';
import type { InterventionKind, SteelmanRule } from './vocabulary';
import { isDecided } from './vocabulary';

// CRUX_LOCK: the thread may only move on once there is a real split, each side has shown it
// understands the other, and every decided agent has said what would change its mind.

/** Every failing lock criterion, as failure codes (empty = the lock holds). */
export function lockFailures(thread: ThreadState, agents: readonly AgentProfile[], rule: SteelmanRule): string[] {
  const codes: string[] = [];
  const committed = agents.filter((a) => thread.commitments[a.id] !== undefined).map((a) => a.id);
  const sideOf = (id: string) => thread.stances[id]?.side;

  if (committed.length < 2) codes.push('MIN_COMMITMENTS');
  const yes = committed.filter((id) => sideOf(id) === 'YES');
  const no = committed.filter((id) => sideOf(id) === 'NO');
  if (yes.length === 0 || no.length === 0) codes.push('NO_SPLIT');

  const decided = committed.filter((id) => isDecided(sideOf(id)));
  const opposed = (a: string, b: string) => {
    const sa = sideOf(a);
    const sb = sideOf(b);
    return isDecided(sa) && isDecided(sb) && sa !== sb;
  };
  // Only the live attempt of each pair counts, and only when it is graded ACCURATE.
  const accurate = (from: string, to: string) =>
    thread.steelmans.some((s) => s.from === from && s.to === to && s.grade === 'ACCURATE');

  if (rule === 'each-across') {
    for (const a of decided) {
      if (!decided.some((b) => opposed(a, b) && accurate(a, b))) codes.push(`STEELMAN_GIVE:${a}`);
    }
    for (const a of decided) {
      if (!decided.some((b) => opposed(a, b) && accurate(b, a))) codes.push(`STEELMAN_RECEIVE:${a}`);
    }
  } else {
    for (const a of decided) {
      for (const b of decided) {
        if (opposed(a, b) && !accurate(a, b)) codes.push(`STEELMAN_PAIR:${a}->${b}`);
      }
    }
  }

  for (const a of decided) {
    if (thread.falsifiers[a] === undefined) codes.push(`FALSIFIER_MISSING:${a}`);
  }
  return codes;
}

/** The agent a failure code names, if any (`STEELMAN_PAIR:a->b` names the giver, a). */
function agentOf(code: string): string | undefined {
  const rest = code.split(':')[1];
  return rest?.split('->')[0];
}

function kindOf(code: string): InterventionKind {
  if (code.startsWith('STEELMAN_')) return 'STEELMAN_REQUEST';
  if (code.startsWith('FALSIFIER_')) return 'FALSIFIER_REQUEST';
  return 'COMMIT_REQUEST';
}

export function afterLockMessage(ctx: StepContext, thread: ThreadState, messageId: string): void {
  const { state } = ctx;
  const cfg = state.config;
  const failures = lockFailures(thread, state.agents, cfg.steelmanRule);

  if (failures.length === 0) {
    thread.lockAttempts += 1;
    state.counters.cruxLockAttempts += 1;
    state.counters.cruxLockSuccesses += 1;
    thread.lockedCrux = {
      question: thread.binaryQuestion ?? thread.topic,
      attempt: thread.lockAttempts,
      messageId,
      commitments: structuredCopy(thread.commitments),
    };
    emit(ctx, { type: 'lock_attempt', thread: thread.id, attempt: thread.lockAttempts, ok: true, failures: [] });
    emit(ctx, { type: 'crux_locked', thread: thread.id, crux: thread.lockedCrux });
    enterStage(ctx, thread, 'EVIDENCE', 'locked');
    return;
  }

  if (thread.messages.CRUX_LOCK < thread.budgets.CRUX_LOCK) return;

  // The budget ran out without a lock: that is one failed attempt.
  thread.lockAttempts += 1;
  thread.lockFailureCount += 1;
  thread.lastLockFailures = failures;
  state.counters.cruxLockAttempts += 1;
  state.counters.cruxLockFailures += 1;
  emit(ctx, { type: 'lock_attempt', thread: thread.id, attempt: thread.lockAttempts, ok: false, failures });
  emit(ctx, { type: 'lock_failed', thread: thread.id, attempt: thread.lockAttempts, failures });

  if (thread.lockFailureCount >= cfg.maxLockAttempts) {
    closeThread(ctx, thread, 'FAILED_LOCK', `${thread.lockFailureCount} failed lock attempts`);
    return;
  }

  // One intervention per kind of failure, aimed at the first agent that kind names.
  for (const kind of ['COMMIT_REQUEST', 'STEELMAN_REQUEST', 'FALSIFIER_REQUEST'] as const) {
    const first = failures.find((c) => kindOf(c) === kind);
    if (first !== undefined) intervene(ctx, thread, kind, agentOf(first));
  }
  if (thread.lockFailureCount === 2) intervene(ctx, thread, 'BINARY_FRAMING');
  thread.budgets.CRUX_LOCK += cfg.lockRetryBudget;
}

/** Plain-data copy: the locked crux must not change when later commits do. */
function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
