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
  // Only the last few messages matter; looking them up from the end of the transcript keeps a long
  // debate linear instead of scanning the whole transcript for every evidence message.
  const entries = recentEntries(state.transcript, thread.evidenceMessages.slice(-Math.max(ORBIT_WINDOW, cfg.evidenceStability.window)));

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

/** The transcript entries with the given ids, in the order of `ids`, found by scanning backwards. */
function recentEntries(transcript: readonly TranscriptEntry[], ids: readonly string[]): TranscriptEntry[] {
  const wanted = new Set(ids);
  const found = new Map<string, TranscriptEntry>();
  for (let i = transcript.length - 1; i >= 0 && found.size < wanted.size; i--) {
    const entry = transcript[i] as TranscriptEntry;
    if (wanted.has(entry.id)) found.set(entry.id, entry);
  }
  return ids.map((id) => found.get(id)).filter((m): m is TranscriptEntry => m !== undefined);
}
