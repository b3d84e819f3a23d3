import type { Llm, LlmCallRecord } from '../../ports/llm';
import { LlmError } from '../../ports/llm';
import type { Drive } from '../drive';
import type { EvaluationEvent } from '../events';
import type { EvaluationInput } from '../inputs';
import type { EvaluationAsk, EvaluationState } from '../state';
import { EvaluationInputError } from '../errors';
import { step } from '../step';
import { heldRequest } from './answer-rules';
import { type EvaluationPrompts, inputFor, requestFor } from './requests';

export interface LiveDriveOptions {
  llm: Llm;
  prompts: EvaluationPrompts;
  /** Calls in flight at once (the six evaluators of nucleation run together). */
  concurrency: number;
  now: () => string;
  /** Spent so far and the limit, in USD: a call that would cross it is not made. */
  budgetUsd: number;
  estimateUsd: (request: ReturnType<typeof requestFor>) => number;
  onCall?: (call: LlmCallRecord, ask: EvaluationAsk) => void;
  /** Every input as it is applied (the caller logs it: the checkpoint to resume from). */
  onInput?: (input: EvaluationInput) => void;
  /** Money already spent on this evaluation before this run (a resumed one). */
  spentBefore?: number;
  /** Milliseconds left for the evaluation; when they run out it locks with TIMEOUT. */
  timeLeftMs?: number;
  /** Milliseconds since some fixed point (the time limit's clock). */
  clockMs?: () => number;
  /**
   * Asked before each batch of calls (a host that runs evaluations in the background): `stop` ends
   * the drive where it stands, unlocked, its inputs so far being the checkpoint to resume from;
   * `approve` feeds `user_approved` (the researcher accepts the scores as they stand) when the phase
   * allows it. Awaited, so a host can also give the event loop a turn here.
   */
  control?: () => DriveControl | Promise<DriveControl>;
}

/** How many times one ask is put to the model (each with its own re-asks) before the evaluation fails. */
const ASK_ATTEMPTS = 2;

export type DriveControl = 'stop' | 'approve' | null;

export interface LiveDrive extends Drive {
  calls: LlmCallRecord[];
  costUsd: number;
  /** `control` asked to stop: the state is neither locked nor failed. */
  stopped: boolean;
}

/**
 * Runs an evaluation against a model to its lock. Every outstanding ask is answered concurrently
 * (up to the limit), and the answers are applied in the order the asks were made, so the run does
 * not depend on which call returns first. A model that fails after its retries and re-asks fails the
 * evaluation visibly (FAILED, with the reason; a retry can start it again); the budget locks it with
 * the reason BUDGET.
 */
export async function driveLive(start: EvaluationState, options: LiveDriveOptions): Promise<LiveDrive> {
  let state = JSON.parse(JSON.stringify(start)) as EvaluationState;
  const inputs: EvaluationInput[] = [];
  const events: EvaluationEvent[] = [];
  const calls: LlmCallRecord[] = [];
  let spent = options.spentBefore ?? 0;
  const clock = options.clockMs ?? (() => Date.now());
  const deadline = options.timeLeftMs === undefined ? Number.POSITIVE_INFINITY : clock() + options.timeLeftMs;
  // Each input is applied to a copy: one the protocol refuses leaves the state as it was, and the
  // refusal is the evaluation's failure with its reason, never an exception out of the run.
  const feed = (input: EvaluationInput): string | null => {
    let next: ReturnType<typeof step>;
    try {
      next = step(state, input);
    } catch (error) {
      if (!(error instanceof EvaluationInputError)) throw error;
      return error.message;
    }
    state = next.state;
    inputs.push(input);
    events.push(...next.events);
    options.onInput?.(input);
    return null;
  };
  let stopped = false;
  const failedAsks = new Map<string, number>();
  let warmed = false;
  while (state.phase !== 'LOCKED' && state.phase !== 'FAILED') {
    if (state.phase === 'PENDING') {
      feed({ kind: 'start', at: options.now() });
      continue;
    }
    const control = options.control ? await options.control() : null;
    if (control === 'stop') {
      stopped = true;
      break;
    }
    if (control === 'approve' && (state.phase === 'DEBATING' || state.phase === 'SYNTHESIZING')) {
      feed({ kind: 'user_approved', at: options.now() });
      continue;
    }
    if (clock() >= deadline) {
      feed({ kind: 'timeout', at: options.now() });
      continue;
    }
    const asks = [...state.awaiting];
    if (asks.length === 0) throw new Error(`the evaluation is ${state.phase} but asks for nothing`);
    const asked = state;
    const requests = asks.map((ask) => heldRequest(requestFor(ask, asked, options.prompts), ask, asked, options.now));
    const worst = requests.reduce((sum, r) => sum + options.estimateUsd(r), 0);
    if (spent + worst > options.budgetUsd) {
      feed({ kind: 'budget_exhausted', at: options.now() });
      continue;
    }
    const results: PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>[] = new Array(asks.length);
    const ask = async (i: number, onStarted?: () => void) => {
      const request = requests[i] as ReturnType<typeof requestFor>;
      try {
        results[i] = {
          status: 'fulfilled',
          value: await options.llm.call(onStarted ? { ...request, onStarted } : request),
        };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    };
    let next = 0;
    const pending: Promise<void>[] = [];
    if (!warmed && asks.length > 1 && options.concurrency > 1) {
      // The first call of a run writes the head every call shares (the tools, the idea, the rubric).
      // Sent together, the first batch would each write a copy; the others wait until the first has
      // started answering (its head is cached by then) and read it instead.
      let started: () => void = () => {};
      const head = new Promise<void>((resolve) => {
        started = resolve;
      });
      const first = ask(0, started);
      pending.push(first);
      next = 1;
      // An `Llm` that never says it started (a simulator) is waited for to the end.
      await Promise.race([head, first]);
    }
    warmed = true;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= asks.length) return;
        await ask(i);
      }
    };
    const free = Math.min(options.concurrency, asks.length) - pending.length;
    await Promise.all([...pending, ...Array.from({ length: Math.max(0, free) }, worker)]);
    let failure: string | null = null;
    let budget = false;
    results.forEach((settled, i) => {
      const ask = asks[i] as EvaluationAsk;
      const made =
        settled.status === 'fulfilled'
          ? settled.value.calls
          : settled.reason instanceof LlmError
            ? settled.reason.calls
            : [];
      for (const call of made) {
        spent += call.costUsd;
        calls.push(call);
        options.onCall?.(call, ask);
      }
      if (failure || budget) return;
      if (settled.status === 'fulfilled') {
        const refused = feed(inputFor(ask, settled.value.value, options.now()));
        if (refused !== null) failure = `${ask.role} gave an answer the protocol refused: ${refused}`;
        return;
      }
      const error = settled.reason;
      if (error instanceof LlmError && error.kind === 'budget') {
        budget = true;
        return;
      }
      const why = `${ask.role} failed: ${error instanceof Error ? error.message : String(error)}`;
      // A call that failed after its own re-asks is asked once more in the next batch (its ask stays
      // outstanding); only an ask that fails again, or a programming error, fails the evaluation.
      const key = JSON.stringify(ask);
      const times = (failedAsks.get(key) ?? 0) + 1;
      failedAsks.set(key, times);
      if (!(error instanceof LlmError) || times >= ASK_ATTEMPTS) failure = why;
    });
    if (budget) feed({ kind: 'budget_exhausted', at: options.now() });
    else if (failure) feed({ kind: 'fail', reason: failure, at: options.now() });
  }
  return { state, inputs, events, calls, costUsd: spent, stopped };
}
