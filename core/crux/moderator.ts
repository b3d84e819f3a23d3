import type { StepContext } from './context';
import { emit } from './context';
import type { ThreadState } from './state';
import type { InterventionKind } from './vocabulary';

// The moderator speaks in the transcript (ids mod1, mod2, …) but never counts toward a budget.
// Its texts are fixed templates: the replay must be deterministic and a live engine may rephrase.

function prompt(kind: InterventionKind, thread: ThreadState, target?: string): string {
  const question = thread.binaryQuestion ?? thread.topic;
  const who = target ? `${target}: ` : '';
  switch (kind) {
    case 'BINARY_FRAMING':
      return `${who}Frame the core disagreement as one yes/no question ending in "?", then propose it as the crux.`;
    case 'HORIZON_ALIGNMENT':
      return `${who}Your commitments use different time horizons. Align on one for "${question}" and say if your side changes.`;
    case 'COMMIT_REQUEST':
      return `${who}Time to commit on "${question}": YES, NO or UNCERTAIN, with a confidence, a horizon and one falsifier.`;
    case 'STEELMAN_REQUEST':
      return `${who}Before this crux can lock, state an opposing agent's strongest case and have that agent grade it.`;
    case 'FALSIFIER_REQUEST':
      return `${who}Name a concrete falsifier: a metric, a numeric threshold and a deadline that would change your mind.`;
  }
}

export function intervene(ctx: StepContext, thread: ThreadState, kind: InterventionKind, target?: string): void {
  const { state } = ctx;
  state.moderatorSeq += 1;
  const id = `mod${state.moderatorSeq}`;
  const content = prompt(kind, thread, target);
  state.transcript.push({
    id,
    thread: thread.id,
    author: null,
    move: null,
    content,
    status: thread.status,
    accepted: true,
    intervention: kind,
    ...(target === undefined ? {} : { target }),
  });
  state.counters.moderatorInterventions[kind] += 1;
  if (kind === 'HORIZON_ALIGNMENT') state.counters.horizonMismatches += 1;
  emit(ctx, {
    type: 'moderator_intervention',
    id,
    kind,
    thread: thread.id,
    ...(target === undefined ? {} : { target }),
    content,
  });
}

/** Moderator text supplied by a driver (always allowed, never budgeted, never counted as a kind). */
export function moderatorMessage(ctx: StepContext, thread: ThreadState, content: string): void {
  const { state } = ctx;
  state.moderatorSeq += 1;
  const id = `mod${state.moderatorSeq}`;
  state.transcript.push({
    id,
    thread: thread.id,
    author: null,
    move: null,
    content,
    status: thread.status,
    accepted: true,
  });
  emit(ctx, { type: 'moderator_message', id, thread: thread.id, content });
}
