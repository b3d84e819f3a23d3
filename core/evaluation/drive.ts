import type { EvaluationEvent } from './events';
import type { EvaluationInput } from './inputs';
import type { EvaluationAsk, EvaluationState } from './state';
import { advance } from './step';

// Checkpoints and resumption. The state after any input is plain JSON, and it is always the fold
// of the inputs so far over the state `createEvaluation` (or `reopen`) returned. So the log an
// engine keeps is that initial state plus the inputs; `resumeEvaluation` rebuilds the state, and
// `state.awaiting` says exactly which answers are still owed.

export interface Resumed {
  state: EvaluationState;
  events: EvaluationEvent[];
  /** The asks still unanswered: what a driver does next. */
  awaiting: EvaluationAsk[];
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Folds the inputs so far over the initial state (which is not changed). */
export function resumeEvaluation(initial: EvaluationState, inputsSoFar: readonly EvaluationInput[]): Resumed {
  const state = clone(initial);
  const events: EvaluationEvent[] = [];
  for (const input of inputsSoFar) events.push(...advance(state, input).events);
  return { state, events, awaiting: [...state.awaiting] };
}

/** Produces the input that answers an ask (a model call, a simulator, a script queue). */
export type Answerer = (ask: EvaluationAsk, state: Readonly<EvaluationState>) => EvaluationInput;

export interface Drive {
  state: EvaluationState;
  inputs: EvaluationInput[];
  events: EvaluationEvent[];
}

/**
 * Runs an evaluation to its end (LOCKED or FAILED), starting it when it is PENDING and answering
 * the oldest outstanding ask each time. The given state is not changed.
 */
export function driveEvaluation(start: EvaluationState, answer: Answerer, maxInputs = 10_000): Drive {
  const state = clone(start);
  const inputs: EvaluationInput[] = [];
  const events: EvaluationEvent[] = [];
  const feed = (input: EvaluationInput) => {
    inputs.push(input);
    events.push(...advance(state, input).events);
  };
  while (state.phase !== 'LOCKED' && state.phase !== 'FAILED') {
    if (inputs.length >= maxInputs) throw new Error(`driveEvaluation: no lock after ${maxInputs} inputs`);
    if (state.phase === 'PENDING') {
      feed({ kind: 'start' });
      continue;
    }
    const next = state.awaiting[0];
    if (!next) throw new Error(`driveEvaluation: the evaluation is ${state.phase} but asks for nothing`);
    feed(answer(next, state));
  }
  return { state, inputs, events };
}
