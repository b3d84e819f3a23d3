import type { LlmCallRecord, LlmRequest } from '../ports/llm';

/**
 * One interface for every protocol (crux, evaluation, and whatever comes next), so one runner
 * drives them all. A protocol is data and pure functions: it says what state a run starts from,
 * how an input changes it, which model calls are due, what each call sends and what its answer
 * means. The runner (`runner.ts`) does everything else: the round loop, the pool, the meter, the
 * budget and time limits, re-asking, degraded agents, pause, cancel, resume and the log. Neither
 * the runner nor the log ever names a protocol.
 */
export interface Protocol<State, Input, Ask> {
  readonly name: string;
  readonly version: number;
  /**
   * One input applied: the next state and what it caused. An input the protocol cannot take throws
   * (`isRefusal` says which errors are such refusals); the state the runner holds is then unchanged.
   */
  step(state: State, input: Input): { state: State; events: readonly unknown[] };
  isRefusal(error: unknown): boolean;
  /**
   * An input due before any call (starting a pending evaluation; standing in for an agent that is
   * degraded and no longer asked), or null.
   */
  due?(state: State, view: Pick<AskView, 'degraded'>): Input | null;
  /** The run has reached its end: nothing more is asked. */
  done(state: State): boolean;
  /** How a run that is done ended (default `completed`; an evaluation that failed says `failed`). */
  finalStatus?(state: State): RunStatus;
  /** Why a run that is done ended as it did (a failed one's cause), logged with its last status; none by default. */
  finalReason?(state: State): string | null;
  /**
   * The calls due now, in the order their answers are applied. `pending` lists the calls of the
   * last logged round with no outcome yet (a run killed mid-round): a protocol that logs rounds
   * plans those first, so a resumed run finishes the round it was in.
   */
  asks(state: State, view: AskView): { asks: Ask[]; resumed: boolean };
  /** How the runner names, meters and logs one ask. */
  describe(ask: Ask): AskInfo;
  /** The request a call sends (its schema, checks and repairs included). */
  request(state: State, ask: Ask): LlmRequest<unknown>;
  /** The input an accepted answer makes. */
  answer(state: State, ask: Ask, value: unknown): Input;
  /** Inputs that follow from an applied answer, decided on the state after it (e.g. a thread it opens). */
  followUps?(state: State, ask: Ask, value: unknown): Input[];
  /** What a failed call, or an answer the protocol refused, does to the run. */
  failed(state: State, ask: Ask, failure: AskFailure): Input[];
  /** The inputs that stop a run for `cause`, and what the run is after them. */
  stop(state: State, cause: StopCause): { inputs: Input[]; after: 'partial' | 'completed' | 'continue' };
  /** A cap of the protocol's own (a number of messages) reached: checked first, before every round. */
  capReached?(state: State): string | null;
  /** The protocol's other stop rules (stagnation), checked after the time and money limits. */
  stopRule?(state: State): string | null;
  /** For resuming from a log: the planned call an input answers, if any. */
  settles?(input: Input): PlannedCall | null;
  /** For resuming from a log: the planned call a failure record names, and whether it counted against its agent. */
  failureOf?(agent: string, failedAt: string | null): { planned: PlannedCall; degradable: boolean } | null;
  /** Consecutive failed calls of one agent after which it is no longer asked; never if absent. */
  readonly degradeAfter?: number;
  /**
   * Make the first call of a run alone until it starts answering, so the others read the head it
   * caches (the tools, the idea, the rubric) instead of each writing their own copy.
   */
  readonly warmFirstCall?: boolean;
  /**
   * The same for the first call of every round: for a protocol whose calls of one round share a head
   * that the round itself is the first to send (an arena's proposals as they stand), so one call
   * writes it and the others read it. Each round then waits for its first call to start answering.
   */
  readonly warmEachRound?: boolean;
  /** Draft text of an answer still being written, for a live view (null: not worth showing). */
  draftOf?(ask: Ask, partial: unknown): unknown | null;
}

export interface AskView {
  degraded: ReadonlySet<string>;
  pending: readonly PlannedCall[];
}

/**
 * One call of a round as the log records it before the call is made: its kind, where it belongs (a
 * thread, or any stable place name) and who answers. Failures are counted per planned call.
 */
export interface PlannedCall {
  kind: string;
  thread: string;
  agent: string | null;
}

export function plannedKey(planned: PlannedCall): string {
  return `${planned.kind}\u0001${planned.thread}\u0001${planned.agent ?? ''}`;
}

export interface AskInfo {
  /** Who answers: an agent id, or a role for the protocol's own calls. */
  agent: string;
  /** The meter record's agent (null for calls that belong to no debater). */
  meterAgent: string | null;
  /** What the call is for, in meter and failure records (`turn:t1`, `analysis:t1`, a role). */
  purpose: string;
  /** The thread or place a failure record names. */
  failedAt: string | null;
  /** The planned-call form of this ask (for the round record). */
  planned: PlannedCall;
  /** Whether failures count against the agent (a debater), or only against the ask. */
  degradable: boolean;
  /** Whether the answer's draft is shown while it is written (see `Protocol.draftOf`). */
  drafts?: boolean;
}

export interface AskFailure {
  /** The failure with its kind (`invalid_output: …`), as logged. */
  reason: string;
  /** The error's own message. */
  message: string;
  /** Failures of this ask so far, this one included. */
  attempts: number;
  /** The model answered, but the protocol refused the answer. */
  refused: boolean;
  /** A model error (after the provider's own retries and re-asks), not a programming error. */
  fromModel: boolean;
}

/** Why the runner stops asking: each protocol turns it into its own inputs. */
export type StopCause =
  | { kind: 'budget'; text: string }
  | { kind: 'time'; text: string }
  | { kind: 'rule'; text: string }
  | { kind: 'stuck'; text: string };

/** What a runner writes, in order; the log adds numbers and dates. */
export type RunRecord =
  | { type: 'round'; planned: PlannedCall[] }
  | { type: 'input'; input: Record<string, unknown> }
  | { type: 'event'; event: Record<string, unknown> }
  | { type: 'llm_call'; agent: string | null; purpose: string; call: LlmCallRecord }
  | { type: 'turn_failed'; agent: string; thread: string | null; reason: string }
  | { type: 'agent_degraded'; agent: string; reason: string }
  | { type: 'status'; status: RunStatus; reason?: string };

export const RUN_STATUSES = ['running', 'paused', 'completed', 'partial', 'cancelled', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses after which a run never runs again. */
export const ENDED_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'partial', 'cancelled', 'failed']);
