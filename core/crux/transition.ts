import type { StepContext } from './context';
import { emit } from './context';
import type { ThreadState } from './state';
import type { Stage } from './vocabulary';
import { isStage } from './vocabulary';

/** Moves an open thread forward one stage; each stage starts with zero messages of its own. */
export function enterStage(ctx: StepContext, thread: ThreadState, to: Stage, reason: string): void {
  const from = thread.status;
  if (!isStage(from)) return;
  thread.status = to;
  emit(ctx, { type: 'stage_transition', thread: thread.id, from, to, reason });
}
