import type { StepContext } from './context';
import { requestCrystallization } from './crystallize';
import { repetitionRatio } from './keywords';
import { intervene } from './moderator';
import type { ThreadState, TranscriptEntry } from './state';

// EVIDENCE ends when its budget runs out or positions have settled; while it runs, the moderator
// watches for orbiting, i.e. agents repeating themselves without conceding or reframing.

/** Orbiting looks at this many messages, and fires at most once per this many. */
export const ORBIT_WINDOW = 8;
/** Keywords per distinct keyword above which the window counts as repetitive. */
export const ORBIT_RATIO = 2.0;

export function afterEvidenceMessage(ctx: StepContext, thread: ThreadState): void {
  const { state } = ctx;
  const cfg = state.config;
  const count = thread.messages.EVIDENCE;
  const entries = thread.evidenceMessages
    .map((id) => state.transcript.find((m) => m.id === id))
    .filter((m): m is TranscriptEntry => m !== undefined);

  if (count >= thread.budgets.EVIDENCE) {
    requestCrystallization(ctx, thread, 'budget');
    return;
  }
  const recent = entries.slice(-cfg.evidenceStability.window);
  if (count >= cfg.evidenceStability.minMessages && !recent.some((m) => m.sideChanged === true)) {
    requestCrystallization(ctx, thread, 'stability');
    return;
  }

  if (count - thread.orbitMark < ORBIT_WINDOW) return;
  const window = entries.slice(-ORBIT_WINDOW);
  const moving = window.some((m) => m.move === 'CONCEDE' || m.move === 'PROPOSE_CRUX');
  if (!moving && repetitionRatio(window.map((m) => m.content)) > ORBIT_RATIO) {
    thread.orbitMark = count;
    intervene(ctx, thread, 'COMMIT_REQUEST');
  }
}
