import type { RunRecord } from '../../engine/protocol';
import { Runner } from '../../engine/runner';
import type { Llm, LlmCallRecord } from '../../ports/llm';
import type { Drive } from '../drive';
import type { EvaluationEvent } from '../events';
import type { EvaluationInput } from '../inputs';
import type { EvaluationAsk, EvaluationState } from '../state';
import { addRoundRefusal } from '../step';
import { evaluationProtocol } from './protocol';
import type { EvaluationPrompts, requestFor } from './requests';

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
  /** Every input as it is applied. */
  onInput?: (input: EvaluationInput) => void;
  /** Where the runner writes the run's records (the run log to resume from), in order. */
  append?: (records: readonly RunRecord[]) => void;
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
  /**
   * Asked when a limit (the budget, the time) is about to end the evaluation, which would lock it at
   * once from its figures (no call is allowed any more, so no step of the host comes between): true
   * leaves it where it stands instead, unlocked and resumable, as a `stop` of `control` does. The
   * pipeline's review gate holds an evaluation with CRITICAL challenges this way; resumed, the same
   * limit is met again and, if this answers false then, locks it.
   */
  holdAtLimit?: (state: EvaluationState, limit: 'budget' | 'time') => boolean;
}

/** `add_round`: the researcher grants one more round (fed only when `addRoundRefusal` allows it). */
export type DriveControl = 'stop' | 'approve' | 'add_round' | null;

export interface LiveDrive extends Drive {
  calls: LlmCallRecord[];
  costUsd: number;
  /** `control` asked to stop: the state is neither locked nor failed. */
  stopped: boolean;
}

/**
 * Runs an evaluation against a model to its lock, through the one runner: every outstanding ask is
 * answered concurrently (up to the limit), and the answers are applied in the order the asks were
 * made, so the run does not depend on which call returns first.
 */
export async function driveLive(start: EvaluationState, options: LiveDriveOptions): Promise<LiveDrive> {
  const own = evaluationProtocol({ prompts: options.prompts, now: options.now });
  const holdAtLimit = options.holdAtLimit;
  /** A limit was met and the host chose to hold: the next look at `control` stops the run. */
  let holding = false;
  const protocol: typeof own = holdAtLimit
    ? {
        ...own,
        stop(state, cause) {
          if ((cause.kind === 'budget' || cause.kind === 'time') && holdAtLimit(state, cause.kind)) {
            holding = true;
            // No input: the state stays as it was; the runner goes round once more and asks `control`.
            return { inputs: [], after: 'continue' };
          }
          return own.stop(state, cause);
        },
      }
    : own;
  const runner = new Runner(
    protocol,
    start,
    { budgetUsd: options.budgetUsd, timeLimitMs: options.timeLeftMs ?? null, concurrency: options.concurrency },
    {
      llm: options.llm,
      append: options.append ?? (() => {}),
      estimateCostUsd: options.estimateUsd,
      now: options.clockMs ?? (() => Date.now()),
      control: async () => {
        if (holding) return { kind: 'stop' };
        const control = options.control ? await options.control() : null;
        if (control === 'stop') return { kind: 'stop' };
        const phase = runner.currentState.phase;
        if (control === 'approve' && (phase === 'DEBATING' || phase === 'SYNTHESIZING'))
          return { kind: 'input', input: { kind: 'user_approved', at: options.now() } };
        // Through the runner like any input: logged, so a resume and the replay script grant it too.
        if (control === 'add_round' && addRoundRefusal(runner.currentState) === null)
          return { kind: 'input', input: { kind: 'add_round', at: options.now() } };
        return null;
      },
    },
    0,
    options.spentBefore ?? 0,
  );
  const inputs: EvaluationInput[] = [];
  const events: EvaluationEvent[] = [];
  runner.onInput((input) => {
    inputs.push(input);
    options.onInput?.(input);
  });
  runner.onEvents((happened) => events.push(...(happened as EvaluationEvent[])));
  runner.onCall((call, ask) => {
    if (ask) options.onCall?.(call, ask);
  });
  const outcome = await runner.run();
  return {
    state: outcome.state,
    inputs,
    events,
    calls: [...runner.calls],
    costUsd: runner.spentUsd,
    stopped: outcome.interrupted,
  };
}
