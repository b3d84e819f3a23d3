import type { CruxEffect, CruxEvent } from './events';
import type { CruxState, ThreadState } from './state';
import type { ThreadStatus } from './vocabulary';

/**
 * One step's working area. `state` is a private deep copy made by `step`, so the helpers below may
 * mutate it freely while the caller's state stays untouched; `events` and `effects` collect the
 * step's output in the order things happened.
 */
export interface StepContext {
  state: CruxState;
  events: CruxEvent[];
  effects: CruxEffect[];
}

export function emit(ctx: StepContext, event: CruxEvent): void {
  ctx.events.push(event);
}

export function closeThread(ctx: StepContext, thread: ThreadState, status: ThreadStatus, reason: string): void {
  thread.status = status;
  emit(ctx, { type: 'thread_closed', thread: thread.id, status, reason });
}
