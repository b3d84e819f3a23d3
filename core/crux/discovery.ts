import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { intervene } from './moderator';
import type { ThreadState } from './state';
import { enterStage } from './transition';
import type { Move } from './vocabulary';

// DISCOVERY ends in one of three ways: an early exit on a late enough PROPOSE_CRUX, the budget
// running out with a question and two voices, or (after the extensions) FAILED_DISCOVERY.

export function afterDiscoveryMessage(ctx: StepContext, thread: ThreadState, move: Move): void {
  const cfg = ctx.state.config;
  const count = thread.messages.DISCOVERY;
  const voices = thread.discoveryAuthors.length;

  if (move === 'PROPOSE_CRUX' && count >= cfg.earlyExitMinMessages && voices >= 2) {
    enterStage(ctx, thread, 'CRUX_LOCK', 'earlyExit');
    return;
  }
  if (count < thread.budgets.DISCOVERY) return;

  if (thread.binaryQuestion !== null && voices >= 2) {
    enterStage(ctx, thread, 'CRUX_LOCK', 'budget');
  } else if (thread.discoveryExtensionsUsed < cfg.discoveryExtensions) {
    thread.discoveryExtensionsUsed += 1;
    thread.budgets.DISCOVERY += cfg.discoveryExtensionBudget;
    emit(ctx, { type: 'discovery_extended', thread: thread.id, budget: thread.budgets.DISCOVERY });
    intervene(ctx, thread, 'BINARY_FRAMING');
  } else {
    closeThread(ctx, thread, 'FAILED_DISCOVERY', thread.binaryQuestion === null ? 'no binary question' : 'fewer than 2 agents');
  }
}
