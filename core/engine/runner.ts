import type { Llm, LlmCallRecord, LlmRequest } from '../ports/llm';
import { LlmError } from '../ports/llm';
import { runPooled } from './pool';
import {
  type AskFailure,
  type AskInfo,
  type PlannedCall,
  plannedKey,
  type Protocol,
  type RunRecord,
  type RunStatus,
  type StopCause,
} from './protocol';

/** What the runner needs from the world besides the protocol. */
export interface RunnerDeps {
  llm: Llm;
  /** Where every record goes, in order, before the runner goes on (a JSONL log and the index, in the app). */
  append: (records: readonly RunRecord[]) => void;
  /** Worst-case cost of a call before it is made (for the budget check). */
  estimateCostUsd: (request: LlmRequest<unknown>) => number;
  /** Milliseconds; injected so tests control time. */
  now: () => number;
  /** Awaited once per round, so a host serving a UI stays responsive while a run goes on. */
  yieldControl?: () => Promise<void>;
  /**
   * Asked before each round: `stop` leaves the run where it stands (resumable, nothing logged);
   * an input is the researcher's, applied before the next round (e.g. approving scores as they stand).
   */
  control?: () => RunControl<unknown> | Promise<RunControl<unknown>>;
}

export type RunControl<Input> = { kind: 'stop' } | { kind: 'input'; input: Input } | null;

export interface RunLimits {
  /** USD for the whole run; null: no limit. */
  budgetUsd: number | null;
  /** Milliseconds for the whole run, earlier runs of it included; null: no limit. */
  timeLimitMs: number | null;
  /** Calls in flight at once. */
  concurrency: number;
}

export interface RunUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
}

export interface RunOutcome<State> {
  status: RunStatus;
  reason: string | null;
  state: State;
  degradedAgents: string[];
  /** `control` asked to stop: the run is neither finished nor failed, and can be resumed. */
  interrupted: boolean;
}

/** A draft of an answer being written; `draft` null: it is gone (applied, failed or left unanswered). */
export interface RunDraft<Ask> {
  ask: Ask;
  draft: unknown | null;
}

interface Pending {
  planned: PlannedCall;
}

/**
 * Drives any protocol against a model, one round at a time: asks the protocol which calls are due,
 * reserves the worst case of the round against the budget, logs the round, makes the calls through
 * one pool, then applies the answers in the order they were planned (never the order they came
 * back), logging every input, event and call before going on. The state is only ever a fold of the
 * logged inputs, so a run killed at any point resumes exactly where its log ends.
 */
export class Runner<State, Input, Ask> {
  private status: RunStatus = 'running';
  /** While set, what is logged is held and appended at once (see `together`). */
  private batch: { records: RunRecord[]; notify: (() => void)[] } | null = null;
  private reason: string | null = null;
  private readonly degraded = new Set<string>();
  /** Consecutive failures per agent (reset by an accepted answer). */
  private readonly agentFailures = new Map<string, number>();
  /** Failures per ask key, over the whole run. */
  private readonly askFailures = new Map<string, number>();
  private pending: Pending[] = [];
  private spent = 0;
  readonly usage: RunUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 };
  readonly calls: LlmCallRecord[] = [];
  private paused = false;
  private cancelled = false;
  private wake: (() => void) | null = null;
  private startedAt: number;
  private readonly eventListeners = new Set<(events: readonly unknown[]) => void>();
  private readonly draftListeners = new Set<(draft: RunDraft<Ask>) => void>();
  private readonly inputListeners = new Set<(input: Input) => void>();
  private readonly callListeners = new Set<(call: LlmCallRecord, ask: Ask | null) => void>();
  /** Asks with a draft out, by key, so that each is cleared exactly once. */
  private readonly drafting = new Map<string, Ask>();
  private warmed = false;

  constructor(
    readonly protocol: Protocol<State, Input, Ask>,
    private state: State,
    private readonly limits: RunLimits,
    private readonly deps: RunnerDeps,
    /** Time already spent in earlier runs (a resumed run keeps its clock). */
    private readonly elapsedBefore = 0,
    spentBefore = 0,
  ) {
    this.startedAt = deps.now();
    this.spent = spentBefore;
  }

  get currentState(): State {
    return this.state;
  }

  get spentUsd(): number {
    return this.spent;
  }

  get degradedAgents(): ReadonlySet<string> {
    return this.degraded;
  }

  get currentStatus(): { status: RunStatus; reason: string | null } {
    return { status: this.status, reason: this.reason };
  }

  /** Rebuilds the runner's own bookkeeping from one logged record (the protocol's state folds inputs). */
  fold(record: RunRecord): void {
    switch (record.type) {
      case 'round':
        this.pending = record.planned.map((planned) => ({ planned: { ...planned } }));
        break;
      case 'input': {
        const input = record.input as unknown as Input;
        this.state = this.protocol.step(this.state, input).state;
        const planned = this.protocol.settles?.(input);
        if (planned) {
          if (planned.agent !== null) this.agentFailures.set(planned.agent, 0);
          this.settle(planned);
        }
        break;
      }
      case 'llm_call':
        this.meter(record.call);
        break;
      case 'turn_failed': {
        const failure = this.protocol.failureOf?.(record.agent, record.thread);
        if (!failure) break;
        const key = plannedKey(failure.planned);
        if (failure.degradable) this.agentFailures.set(record.agent, (this.agentFailures.get(record.agent) ?? 0) + 1);
        this.askFailures.set(key, (this.askFailures.get(key) ?? 0) + 1);
        this.settle(failure.planned);
        break;
      }
      case 'agent_degraded':
        this.degraded.add(record.agent);
        break;
      case 'status':
        this.status = record.status;
        this.reason = record.reason ?? null;
        break;
      default:
        break;
    }
  }

  private settle(planned: PlannedCall): void {
    const key = plannedKey(planned);
    const i = this.pending.findIndex((p) => plannedKey(p.planned) === key);
    if (i >= 0) this.pending.splice(i, 1);
  }

  onEvents(listener: (events: readonly unknown[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onDrafts(listener: (draft: RunDraft<Ask>) => void): () => void {
    this.draftListeners.add(listener);
    return () => this.draftListeners.delete(listener);
  }

  onInput(listener: (input: Input) => void): () => void {
    this.inputListeners.add(listener);
    return () => this.inputListeners.delete(listener);
  }

  onCall(listener: (call: LlmCallRecord, ask: Ask | null) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
  }

  cancel(): void {
    this.cancelled = true;
    this.wake?.();
  }

  private meter(call: LlmCallRecord): void {
    this.spent += call.costUsd;
    this.usage.llmCalls += 1;
    this.usage.inputTokens += call.usage.inputTokens + call.usage.cacheReadTokens + call.usage.cacheWriteTokens;
    this.usage.outputTokens += call.usage.outputTokens;
    this.usage.cacheReadTokens += call.usage.cacheReadTokens;
    this.usage.costUsd += call.costUsd;
  }

  private callRecords(calls: readonly LlmCallRecord[], ask: Ask, info: AskInfo): RunRecord[] {
    for (const call of calls) {
      this.meter(call);
      this.calls.push(call);
      for (const l of this.callListeners) l(call, ask);
    }
    return calls.map((call) => ({ type: 'llm_call', agent: info.meterAgent, purpose: info.purpose, call }));
  }

  /**
   * Applies one input and logs it (after `before`, the records that led to it) with what it caused.
   * Returns the refusal's message when the protocol refused it; nothing is logged then but `before`.
   */
  apply(input: Input, before: RunRecord[] = []): string | null {
    let next: ReturnType<Protocol<State, Input, Ask>['step']>;
    try {
      next = this.protocol.step(this.state, input);
    } catch (error) {
      if (!this.protocol.isRefusal(error)) throw error;
      this.log(before);
      return error instanceof Error ? error.message : String(error);
    }
    this.state = next.state;
    this.log([
      ...before,
      { type: 'input', input: input as unknown as Record<string, unknown> },
      ...next.events.map((event): RunRecord => ({ type: 'event', event: event as Record<string, unknown> })),
    ]);
    const notify = () => {
      for (const l of this.inputListeners) l(input);
      if (next.events.length > 0) for (const l of this.eventListeners) l(next.events);
    };
    if (this.batch) this.batch.notify.push(notify);
    else notify();
    return null;
  }

  private log(records: readonly RunRecord[]): void {
    if (this.batch) this.batch.records.push(...records);
    else if (records.length > 0) this.deps.append(records);
  }

  /**
   * Runs `apply` with everything it logs written as one append, listeners told after it: an answer and
   * the inputs that follow from it (a thread it opens) reach the log together, so a kill -9 between
   * them cannot leave the answer without what it caused (a resumed run would never redo the latter).
   */
  private together<T>(apply: () => T): T {
    const batch: { records: RunRecord[]; notify: (() => void)[] } = { records: [], notify: [] };
    this.batch = batch;
    try {
      return apply();
    } finally {
      this.batch = null;
      this.log(batch.records);
      for (const notify of batch.notify) notify();
    }
  }

  private setStatus(status: RunStatus, reason?: string): void {
    if (status !== 'running') this.clearDrafts();
    this.status = status;
    this.reason = reason ?? null;
    this.log([{ type: 'status', status, ...(reason ? { reason } : {}) }]);
  }

  private elapsed(): number {
    return this.elapsedBefore + (this.deps.now() - this.startedAt);
  }

  private outcome(interrupted = false): RunOutcome<State> {
    return {
      status: this.status,
      reason: this.reason,
      state: this.state,
      degradedAgents: [...this.degraded],
      interrupted,
    };
  }

  /** Why the run must stop now, or null: the time and money limits, then the protocol's own rules. */
  private limitReached(): StopCause | null {
    const { budgetUsd, timeLimitMs } = this.limits;
    // A protocol's caps come first: a run that used up its messages says so, not that time ran out.
    const cap = this.protocol.capReached?.(this.state);
    if (cap) return { kind: 'rule', text: cap };
    if (timeLimitMs !== null && this.elapsed() >= timeLimitMs)
      return { kind: 'time', text: `reached the time limit of ${Math.round(timeLimitMs / 1000)} s` };
    if (budgetUsd !== null && budgetUsd > 0 && this.spent >= budgetUsd)
      return { kind: 'budget', text: `spent the budget of $${budgetUsd.toFixed(2)}` };
    const rule = this.protocol.stopRule?.(this.state);
    return rule ? { kind: 'rule', text: rule } : null;
  }

  private async waitWhilePaused(): Promise<void> {
    if (!this.paused || this.cancelled) return;
    this.setStatus('paused');
    while (this.paused && !this.cancelled) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    if (!this.cancelled) this.setStatus('running');
  }

  /** Runs until the protocol is done, a limit stops it, it is cancelled, or `control` stops it. */
  async run(): Promise<RunOutcome<State>> {
    if (this.status === 'completed' || this.status === 'partial' || this.status === 'cancelled') return this.outcome();
    if (this.status !== 'running') this.setStatus('running');
    for (;;) {
      await this.deps.yieldControl?.();
      await this.waitWhilePaused();
      if (this.cancelled) {
        this.setStatus('cancelled', 'cancelled by the researcher');
        return this.outcome();
      }
      const due = this.protocol.due?.(this.state, { degraded: this.degraded });
      if (due) {
        this.applyOrThrow(due);
        continue;
      }
      if (!this.protocol.done(this.state)) {
        const control = this.deps.control ? await this.deps.control() : null;
        if (control?.kind === 'stop') return this.outcome(true);
        if (control?.kind === 'input') {
          this.applyOrThrow(control.input as Input);
          continue;
        }
      }
      if (this.protocol.done(this.state)) {
        this.setStatus(
          this.protocol.finalStatus?.(this.state) ?? 'completed',
          this.protocol.finalReason?.(this.state) ?? undefined,
        );
        return this.outcome();
      }
      const limit = this.limitReached();
      if (limit) {
        const stopped = this.stop(limit);
        if (stopped) return stopped;
        continue;
      }

      const planned = this.protocol.asks(this.state, {
        degraded: this.degraded,
        pending: this.pending.map((p) => p.planned),
      });
      const { asks } = planned;
      if (asks.length === 0) {
        const stopped = this.stop({ kind: 'stuck', text: 'no agent is left to take a turn' });
        if (stopped) return stopped;
        continue;
      }

      // Reserve the worst case of every call of this round before making any of them.
      const asked = this.state;
      const round = asks.map((ask) => {
        const info = this.protocol.describe(ask);
        const base = this.protocol.request(asked, ask);
        const request: LlmRequest<unknown> = info.drafts
          ? { ...base, onPartial: (partial: unknown) => this.draft(ask, info, partial) }
          : base;
        return { ask, info, request };
      });
      const reserved = round.reduce((sum, r) => sum + this.deps.estimateCostUsd(r.request), 0);
      const { budgetUsd } = this.limits;
      if (budgetUsd !== null && this.spent + reserved > budgetUsd && (budgetUsd > 0 || reserved > 0)) {
        const stopped = this.stop({
          kind: 'budget',
          text: `the next round of calls could exceed the budget of $${budgetUsd.toFixed(2)}`,
        });
        if (stopped) return stopped;
        continue;
      }
      if (!planned.resumed) this.log([{ type: 'round', planned: round.map((r) => r.info.planned) }]);
      this.pending = [];

      const results = await this.callAll(round.map((r) => r.request));
      let budgetStop: StopCause | null = null;
      results.forEach((settled, i) => {
        const entry = round[i];
        if (!entry) return;
        const stop = this.settleCall(entry.ask, entry.info, settled);
        budgetStop ??= stop;
      });
      if (budgetStop) {
        const stopped = this.stop(budgetStop);
        if (stopped) return stopped;
      }
    }
  }

  /**
   * The round's calls through the pool; the first of a run (or of every round) alone until it has
   * started, if the protocol asks.
   */
  private async callAll(
    requests: LlmRequest<unknown>[],
  ): Promise<PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>[]> {
    const { concurrency } = this.limits;
    const call = (request: LlmRequest<unknown>) => () => this.deps.llm.call(request);
    const warm = this.protocol.warmEachRound === true || (this.protocol.warmFirstCall === true && !this.warmed);
    this.warmed = true;
    if (!warm || requests.length < 2 || concurrency < 2) return runPooled(requests.map(call), concurrency);
    let started: () => void = () => {};
    const head = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = requests[0] as LlmRequest<unknown>;
    const firstDone = runPooled([call({ ...first, onStarted: started })], 1);
    // An `Llm` that never says it started (a simulator) is waited for to the end.
    await Promise.race([head, firstDone]);
    const rest = runPooled(requests.slice(1).map(call), concurrency - 1);
    const [[one], others] = await Promise.all([firstDone, rest]);
    return [one as PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>, ...others];
  }

  /** One call's outcome applied; returns a stop cause when the budget ran out. */
  private settleCall(
    ask: Ask,
    info: AskInfo,
    settled: PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>,
  ): StopCause | null {
    this.clearDraft(plannedKey(info.planned));
    if (settled.status === 'fulfilled') {
      const calls = this.callRecords(settled.value.calls, ask, info);
      if (this.protocol.done(this.state)) {
        this.log(calls);
        return null;
      }
      const input = this.protocol.answer(this.state, ask, settled.value.value);
      if (info.degradable) this.agentFailures.set(info.agent, 0);
      const refused = this.together(() => {
        const refusal = this.apply(input, calls);
        if (refusal === null)
          for (const next of this.protocol.followUps?.(this.state, ask, settled.value.value) ?? [])
            this.applyOrThrow(next);
        return refusal;
      });
      if (refused !== null) {
        this.fail(ask, info, [], { reason: refused, message: refused, refused: true, fromModel: true });
        return null;
      }
      return null;
    }
    const error = settled.reason;
    const calls = error instanceof LlmError ? error.calls : [];
    if (error instanceof LlmError && error.kind === 'budget') {
      this.log(this.callRecords(calls, ask, info));
      return {
        kind: 'budget',
        text: `the budget of $${(this.limits.budgetUsd ?? 0).toFixed(2)} would be exceeded`,
      };
    }
    if (error instanceof LlmError && error.kind === 'cancelled') return null;
    const records = this.callRecords(calls, ask, info);
    if (this.protocol.done(this.state)) {
      this.log(records);
      return null;
    }
    this.fail(ask, info, records, {
      reason: describe(error),
      message: error instanceof Error ? error.message : String(error),
      refused: false,
      fromModel: error instanceof LlmError,
    });
    return null;
  }

  /** A failed call or refused answer: logged, counted, the agent degraded after too many, and the protocol told. */
  private fail(ask: Ask, info: AskInfo, before: RunRecord[], failure: Omit<AskFailure, 'attempts'>): void {
    const key = plannedKey(info.planned);
    const attempts = (this.askFailures.get(key) ?? 0) + 1;
    this.askFailures.set(key, attempts);
    const { reason } = failure;
    const records: RunRecord[] = [...before, { type: 'turn_failed', agent: info.agent, thread: info.failedAt, reason }];
    if (info.degradable) {
      const failures = (this.agentFailures.get(info.agent) ?? 0) + 1;
      this.agentFailures.set(info.agent, failures);
      const limit = this.protocol.degradeAfter;
      if (limit !== undefined && failures >= limit && !this.degraded.has(info.agent)) {
        this.degraded.add(info.agent);
        records.push({
          type: 'agent_degraded',
          agent: info.agent,
          reason: `${failures} turns in a row failed: ${reason}`,
        });
      }
    }
    this.log(records);
    for (const input of this.protocol.failed(this.state, ask, { ...failure, attempts })) this.applyOrThrow(input);
  }

  /** An input the runner or the protocol itself made: a refusal here is a defect, not a model's slip. */
  private applyOrThrow(input: Input): void {
    const refused = this.apply(input);
    if (refused !== null) throw new Error(`the ${this.protocol.name} protocol refused its own input: ${refused}`);
  }

  /** Stops for `cause`; returns the outcome, or null when the protocol carries on after its stop inputs. */
  private stop(cause: StopCause): RunOutcome<State> | null {
    const { inputs, after } = this.protocol.stop(this.state, cause);
    for (const input of inputs) this.applyOrThrow(input);
    if (after === 'continue') return null;
    if (after === 'partial') this.setStatus('partial', cause.text);
    else this.setStatus('completed');
    return this.outcome();
  }

  private draft(ask: Ask, info: AskInfo, partial: unknown): void {
    if (this.draftListeners.size === 0) return;
    const draft = this.protocol.draftOf?.(ask, partial) ?? null;
    if (draft === null) return;
    this.drafting.set(plannedKey(info.planned), ask);
    this.tellDraft({ ask, draft });
  }

  private clearDraft(key: string): void {
    const ask = this.drafting.get(key);
    if (ask === undefined) return;
    this.drafting.delete(key);
    this.tellDraft({ ask, draft: null });
  }

  /** A draft listener's failure is its own: the run goes on. */
  private tellDraft(draft: RunDraft<Ask>): void {
    for (const l of this.draftListeners) {
      try {
        l(draft);
      } catch {
        // Drafts are a courtesy to a live view; the logged inputs are what count.
      }
    }
  }

  private clearDrafts(): void {
    for (const key of [...this.drafting.keys()]) this.clearDraft(key);
  }
}

export function describe(error: unknown): string {
  if (error instanceof LlmError) return `${error.kind}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
