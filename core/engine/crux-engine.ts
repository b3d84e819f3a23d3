import type { AnalysisOutput } from '../crux/analysis';
import { resolveConfig } from '../crux/config';
import type { CruxEvent } from '../crux/events';
import type { CruxInput } from '../crux/inputs';
import { CruxInputError } from '../crux/errors';
import { analysisOutputTokens, checkAnalysis, checkMove, prepareAnalysis } from '../crux/live/answer-checks';
import { agentTurnRequest, analysisRequest, type TurnContext } from '../crux/live/brief';
import { gradingRuleOf } from '../crux/live/grading-rule';
import { isoDay, subjectOrTopic } from '../crux/live/subject';
import type { AgentMove } from '../crux/live/answer';
import { nextTurn, nextTurns, type Turn } from '../crux/live/scheduler';
import { buildResult, type CruxResult } from '../crux/result';
import { type CruxState, createState, isOpen, type ThreadState } from '../crux/state';
import { advance } from '../crux/step';
import type { Llm, LlmCallRecord, LlmRequest } from '../ports/llm';
import { LlmError } from '../ports/llm';
import type { DebateHeader, DebateRecord, DebateStatus, NewDebateRecord } from './debate-record';
import { runPooled } from './pool';

/** Where the engine writes its log (a JSONL file and the index, in the app). */
export interface DebateSink {
  append(records: readonly NewDebateRecord[]): void;
}

export interface PersonaPrompt {
  systemPrompt: string;
  tier: 'fast' | 'standard' | 'deep';
  interests: readonly string[];
}

export interface CruxEngineDeps {
  llm: Llm;
  sink: DebateSink;
  /** The persona of each agent id, and of the crystallizer. */
  personas: ReadonlyMap<string, PersonaPrompt>;
  crystallizer: PersonaPrompt;
  /** Worst-case cost of a call before it is made (for the budget check). */
  estimateCostUsd: (request: LlmRequest<unknown>) => number;
  /** Milliseconds; injected so tests control time. */
  now: () => number;
  /** Awaited once per round, so a host serving a UI stays responsive while a debate runs. */
  yieldControl?: () => Promise<void>;
}

export interface CruxOutcome {
  status: DebateStatus;
  reason: string | null;
  result: CruxResult;
  degradedAgents: string[];
  /** Plain words for the researcher when the result rests on fewer agents or stopped early. */
  notes: string[];
}

/**
 * What an agent has written so far of a turn still being answered, for a live view. Never logged:
 * the message that counts is the one the protocol accepts. `content` null: the draft is gone (its
 * message was applied, or the turn failed or was left unanswered).
 */
export interface CruxDraft {
  thread: string;
  agent: string;
  move: string | null;
  content: string | null;
}

/** A turn that failed this many times in a row marks its agent degraded. */
const FAILURES_BEFORE_DEGRADED = 2;
const ANALYSIS_ATTEMPTS = 3;

/**
 * Runs a crux debate against a model: asks the scheduler who speaks, asks the model (several
 * threads at once, up to the concurrency limit), feeds each answer to the protocol, and logs every
 * input, event and call before going on. The state is only ever a fold of the logged inputs, so a
 * debate killed at any point resumes exactly where its log ends.
 */
export class CruxEngine {
  private state: CruxState;
  private readonly degraded = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly analysisFailures = new Map<string, number>();
  private readonly spawnOffered = new Set<string>();
  /** Calls of the last logged round that have no logged outcome yet (a debate killed mid-round). */
  private pending: { kind: 'turn' | 'analysis'; thread: string; agent: string | null }[] = [];
  private spent = 0;
  private usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 };
  private status: DebateStatus = 'running';
  private reason: string | null = null;
  private paused = false;
  private cancelled = false;
  private wake: (() => void) | null = null;
  private readonly startedAt: number;
  private readonly listeners = new Set<(events: CruxEvent[]) => void>();
  private readonly draftListeners = new Set<(draft: CruxDraft) => void>();
  /** Turns with a draft out, as `thread agent` keys, so that each is cleared exactly once. */
  private readonly drafting = new Set<string>();

  private constructor(
    readonly header: DebateHeader,
    private readonly deps: CruxEngineDeps,
    /** Time already spent in earlier runs of this debate (a resumed debate keeps its clock). */
    private readonly elapsedBefore: number,
  ) {
    this.state = createState({
      topic: header.topic,
      agents: header.agents.map((a) => ({
        id: a.id,
        name: a.name,
        ...(a.topClaim ? { topClaim: a.topClaim } : {}),
        ...(a.defaultHorizon ? { defaultHorizon: a.defaultHorizon } : {}),
      })),
      config: resolveConfig(header.config),
    });
    this.startedAt = deps.now();
  }

  /** A new debate: its header and first thread go into the log before anything is asked. */
  static start(
    header: DebateHeader,
    deps: CruxEngineDeps,
    firstThread: { topic: string; binaryQuestion?: string },
  ): CruxEngine {
    const engine = new CruxEngine(header, deps, 0);
    engine.apply({
      kind: 'thread',
      id: 't1',
      topic: firstThread.topic,
      ...(firstThread.binaryQuestion ? { binaryQuestion: firstThread.binaryQuestion } : {}),
    });
    return engine;
  }

  /** Rebuilds a debate from its log (the header record first) and carries on from there. */
  static resume(records: readonly DebateRecord[], deps: CruxEngineDeps): CruxEngine {
    const engine = CruxEngine.fromLog(records, deps);
    // Killed after its header was logged but before its first thread was: open that thread as
    // `start` does (DebateService starts every debate on its header's topic), or the debate would
    // end at once with nothing said.
    if (engine.state.threads.length === 0) engine.apply({ kind: 'thread', id: 't1', topic: engine.header.topic });
    return engine;
  }

  private static fromLog(records: readonly DebateRecord[], deps: CruxEngineDeps): CruxEngine {
    const first = records[0];
    if (first?.type !== 'debate_created') throw new Error('a debate log starts with its header');
    const firstAt = Date.parse(first.at);
    const lastAt = Date.parse(records[records.length - 1]?.at ?? first.at);
    const engine = new CruxEngine(first.header, deps, Math.max(0, lastAt - firstAt));
    for (const record of records) engine.fold(record);
    return engine;
  }

  /** The outcome a log records so far, without running anything (for reading finished debates). */
  static outcomeOf(records: readonly DebateRecord[]): CruxOutcome {
    const inert: CruxEngineDeps = {
      llm: { provider: 'none', call: () => Promise.reject(new LlmError('cancelled', 'reading a log makes no calls')) },
      sink: { append: () => {} },
      personas: new Map(),
      crystallizer: { systemPrompt: '', tier: 'standard', interests: [] },
      estimateCostUsd: () => 0,
      now: () => 0,
    };
    return CruxEngine.fromLog(records, inert).outcome();
  }

  private fold(record: DebateRecord): void {
    switch (record.type) {
      case 'round':
        this.pending = record.planned.map((p) => ({ ...p }));
        break;
      case 'input': {
        const input = record.input as unknown as CruxInput;
        advance(this.state, input);
        if (input.kind === 'message') {
          this.failures.set(input.agent, 0);
          this.settle('turn', input.thread, input.agent);
        }
        if (input.kind === 'crystallize_output' || input.kind === 'close_thread')
          this.settle('analysis', input.thread, null);
        if (input.kind === 'propose_thread') this.spawnOffered.add(spawnKey(input.by, input.topic));
        break;
      }
      case 'llm_call':
        this.meter(record.call);
        break;
      case 'turn_failed':
        if (record.thread?.startsWith('analysis:')) {
          const t = record.thread.slice('analysis:'.length);
          this.analysisFailures.set(t, (this.analysisFailures.get(t) ?? 0) + 1);
          this.settle('analysis', t, null);
        } else {
          this.failures.set(record.agent, (this.failures.get(record.agent) ?? 0) + 1);
          if (record.thread) this.settle('turn', record.thread, record.agent);
        }
        break;
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

  private settle(kind: 'turn' | 'analysis', thread: string, agent: string | null): void {
    const i = this.pending.findIndex(
      (p) => p.kind === kind && p.thread === thread && (kind === 'analysis' || p.agent === agent),
    );
    if (i >= 0) this.pending.splice(i, 1);
  }

  onEvents(listener: (events: CruxEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drafts of the turns being answered (see `CruxDraft`); only providers that stream send them. */
  onDrafts(listener: (draft: CruxDraft) => void): () => void {
    this.draftListeners.add(listener);
    return () => this.draftListeners.delete(listener);
  }

  private draft(thread: string, agent: string, partial: unknown): void {
    if (this.draftListeners.size === 0 || typeof partial !== 'object' || partial === null) return;
    const { move, content } = partial as { move?: unknown; content?: unknown };
    if (typeof content !== 'string' || content === '') return;
    this.drafting.add(`${thread} ${agent}`);
    this.tellDraft({ thread, agent, move: typeof move === 'string' ? move : null, content });
  }

  private clearDraft(thread: string, agent: string): void {
    if (!this.drafting.delete(`${thread} ${agent}`)) return;
    this.tellDraft({ thread, agent, move: null, content: null });
  }

  /** A draft listener's failure is its own: the debate goes on. */
  private tellDraft(draft: CruxDraft): void {
    for (const l of this.draftListeners) {
      try {
        l(draft);
      } catch {
        // Drafts are a courtesy to a live view; the logged messages are what count.
      }
    }
  }

  private clearDrafts(): void {
    for (const key of [...this.drafting]) {
      const [thread = '', agent = ''] = key.split(' ');
      this.clearDraft(thread, agent);
    }
  }

  get currentState(): CruxState {
    return this.state;
  }

  get spentUsd(): number {
    return this.spent;
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

  /** Applies one input, logs it with what it caused, and tells listeners. */
  private apply(input: CruxInput, extra: NewDebateRecord[] = []): void {
    const { events } = advance(this.state, input);
    const records: NewDebateRecord[] = [
      ...extra,
      { type: 'input', input: input as unknown as Record<string, unknown> },
      ...events.map(
        (event): NewDebateRecord => ({ type: 'event', event: event as unknown as Record<string, unknown> }),
      ),
    ];
    this.deps.sink.append(records);
    if (events.length > 0) for (const l of this.listeners) l(events);
  }

  private log(records: NewDebateRecord[]): void {
    if (records.length > 0) this.deps.sink.append(records);
  }

  private callRecords(calls: readonly LlmCallRecord[], agent: string | null, purpose: string): NewDebateRecord[] {
    for (const call of calls) this.meter(call);
    return calls.map((call) => ({ type: 'llm_call', agent, purpose, call }));
  }

  private setStatus(status: DebateStatus, reason?: string): void {
    if (status !== 'running') this.clearDrafts();
    this.status = status;
    this.reason = reason ?? null;
    this.log([{ type: 'status', status, ...(reason ? { reason } : {}) }]);
  }

  private elapsed(): number {
    return this.elapsedBefore + (this.deps.now() - this.startedAt);
  }

  /** Why the debate must stop now, or null. */
  private limitReached(): string | null {
    const { limits } = this.header;
    if (this.state.counters.messagesTotal >= limits.maxMessages)
      return `reached the limit of ${limits.maxMessages} messages`;
    if (this.elapsed() >= limits.maxDurationMs)
      return `reached the time limit of ${Math.round(limits.maxDurationMs / 1000)} s`;
    if (this.spent >= limits.budgetUsd && limits.budgetUsd > 0)
      return `spent the budget of $${limits.budgetUsd.toFixed(2)}`;
    let stalled = 0;
    for (let i = this.state.transcript.length - 1; i >= 0; i--) {
      const entry = this.state.transcript[i];
      if (!entry || entry.author === null) continue;
      if (entry.accepted) break;
      stalled++;
    }
    if (stalled >= limits.stagnationTurns)
      return `stagnated: ${stalled} move${stalled === 1 ? '' : 's'} in a row refused`;
    return null;
  }

  private async waitWhilePaused(): Promise<void> {
    if (!this.paused || this.cancelled) return;
    this.setStatus('paused');
    while (this.paused && !this.cancelled) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    if (!this.cancelled) this.setStatus('running');
  }

  /** Runs until every thread is closed, a limit stops it, or it is cancelled. */
  async run(): Promise<CruxOutcome> {
    if (this.status === 'completed' || this.status === 'partial' || this.status === 'cancelled') return this.outcome();
    if (this.status !== 'running') this.setStatus('running');
    for (;;) {
      await this.deps.yieldControl?.();
      await this.waitWhilePaused();
      if (this.cancelled) {
        this.setStatus('cancelled', 'cancelled by the researcher');
        return this.outcome();
      }
      if (!this.state.threads.some(isOpen)) {
        this.setStatus('completed');
        return this.outcome();
      }
      const limit = this.limitReached();
      if (limit) return this.stop(limit);

      const planned = this.plan();
      const { analyses, resumed } = planned;
      // Never plan more turns than the message limit has room for, so the limit holds exactly.
      const turns = planned.turns.slice(
        0,
        Math.max(0, this.header.limits.maxMessages - this.state.counters.messagesTotal),
      );
      if (analyses.length === 0 && turns.length === 0) return this.stop('no agent is left to take a turn');

      // Reserve the worst case of every call of this round before making any of them.
      const context = this.context();
      const requests = [
        ...analyses.map((t) => ({ kind: 'analysis' as const, thread: t, request: this.analysisCall(t, context) })),
        ...turns.map((turn) => {
          const thread = this.state.threads.find((t) => t.id === turn.thread) as ThreadState;
          const request = {
            ...agentTurnRequest(this.state, thread, turn, this.persona(turn.agent), context),
            onPartial: (partial: unknown) => this.draft(turn.thread, turn.agent, partial),
            check: checkMove(this.state),
          };
          return { kind: 'turn' as const, turn, request };
        }),
      ];
      const reserved = requests.reduce(
        (sum, r) => sum + this.deps.estimateCostUsd(r.request as LlmRequest<unknown>),
        0,
      );
      if (this.header.limits.budgetUsd > 0 && this.spent + reserved > this.header.limits.budgetUsd) {
        return this.stop(
          `the next round of calls could exceed the budget of $${this.header.limits.budgetUsd.toFixed(2)}`,
        );
      }

      if (!resumed) {
        this.log([
          {
            type: 'round',
            planned: requests.map((r) =>
              r.kind === 'analysis'
                ? { kind: 'analysis' as const, thread: r.thread.id, agent: null }
                : { kind: 'turn' as const, thread: r.turn.thread, agent: r.turn.agent },
            ),
          },
        ]);
      }
      this.pending = [];
      const results = await runPooled(
        requests.map((r) => () => this.deps.llm.call(r.request as LlmRequest<unknown>)),
        this.header.limits.concurrency,
      );
      // Answers are applied in the order the calls were planned, not the order they came back.
      let budgetStop: string | null = null;
      results.forEach((settled, i) => {
        const planned = requests[i];
        if (!planned) return;
        if (planned.kind === 'analysis')
          this.applyAnalysis(
            planned.thread,
            settled as PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>,
          );
        else {
          const stop = this.applyTurn(
            planned.turn,
            settled as PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>,
          );
          budgetStop ??= stop;
        }
      });
      if (budgetStop) return this.stop(budgetStop);
    }
  }

  /**
   * The calls of the next round. A debate killed mid-round first finishes that round: the same
   * calls in the same order, so its answers land exactly where they would have.
   */
  private plan(): { analyses: ThreadState[]; turns: Turn[]; resumed: boolean } {
    const options = { degraded: this.degraded, interests: this.interests() };
    if (this.pending.length > 0) {
      const analyses: ThreadState[] = [];
      const turns: Turn[] = [];
      for (const p of this.pending) {
        const thread = this.state.threads.find((t) => t.id === p.thread);
        if (!thread || !isOpen(thread)) continue;
        if (p.kind === 'analysis' && thread.awaitingAnalysis) analyses.push(thread);
        if (p.kind === 'turn' && !thread.awaitingAnalysis) {
          const turn = nextTurn(this.state, thread, options);
          if (turn) turns.push(turn);
        }
      }
      if (analyses.length + turns.length > 0) return { analyses, turns, resumed: true };
    }
    return {
      analyses: this.state.threads.filter((t) => isOpen(t) && t.awaitingAnalysis),
      turns: nextTurns(this.state, options),
      resumed: false,
    };
  }

  /**
   * The crystallizer's request, held to the agents of this debate (its maps are keyed by their ids)
   * and given room for a position and a counterfactual per agent.
   */
  private analysisCall(thread: ThreadState, context: TurnContext): LlmRequest<AnalysisOutput> {
    const request = analysisRequest(this.state, thread, this.deps.crystallizer, context);
    return {
      ...request,
      maxTokens: Math.max(request.maxTokens, analysisOutputTokens(this.state.agents.length)),
      prepare: prepareAnalysis(this.state),
      check: checkAnalysis(this.state),
    };
  }

  private interests(): Map<string, Set<string>> {
    return new Map(
      this.header.agents.map((a) => [a.id, new Set(this.persona(a.id).interests.map((w) => w.toLowerCase()))]),
    );
  }

  /** What every request of this round carries besides the state: the subject, today, the grading rules. */
  private context(): TurnContext {
    return {
      subject: subjectOrTopic(this.header.subject, this.header.topic),
      today: isoDay(this.deps.now()),
      gradingRuleOf: (agent) => {
        const persona = this.deps.personas.get(agent);
        return persona ? gradingRuleOf(persona.systemPrompt) : null;
      },
    };
  }

  private persona(agent: string): PersonaPrompt {
    const persona = this.deps.personas.get(agent);
    if (!persona) throw new Error(`no persona for agent ${agent}`);
    return persona;
  }

  private applyAnalysis(
    thread: ThreadState,
    settled: PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>,
  ): void {
    if (settled.status === 'fulfilled') {
      const extra = this.callRecords(settled.value.calls, null, `analysis:${thread.id}`);
      try {
        this.apply(
          { kind: 'crystallize_output', thread: thread.id, output: settled.value.value as AnalysisOutput },
          extra,
        );
      } catch (error) {
        // The protocol refuses an analysis before it changes anything: a failed attempt, not the run's end.
        if (!(error instanceof CruxInputError)) throw error;
        this.analysisFailed(thread, extra, error.message);
      }
      return;
    }
    const error = settled.reason;
    const calls = error instanceof LlmError ? error.calls : [];
    this.analysisFailed(thread, this.callRecords(calls, null, `analysis:${thread.id}`), describe(error));
  }

  private analysisFailed(thread: ThreadState, calls: NewDebateRecord[], reason: string): void {
    const failures = (this.analysisFailures.get(thread.id) ?? 0) + 1;
    this.analysisFailures.set(thread.id, failures);
    this.log([...calls, { type: 'turn_failed', agent: 'crystallizer', thread: `analysis:${thread.id}`, reason }]);
    if (failures >= ANALYSIS_ATTEMPTS) {
      this.apply({ kind: 'close_thread', thread: thread.id, status: 'STALE' });
    }
  }

  /** Applies one agent's answer; returns a stop reason when the budget ran out. */
  private applyTurn(
    turn: Turn,
    settled: PromiseSettledResult<{ value: unknown; calls: LlmCallRecord[] }>,
  ): string | null {
    this.clearDraft(turn.thread, turn.agent);
    if (settled.status === 'fulfilled') {
      const move = settled.value.value as AgentMove;
      const extra = this.callRecords(settled.value.calls, turn.agent, `turn:${turn.thread}`);
      this.failures.set(turn.agent, 0);
      const meta = { ...move.meta } as Record<string, unknown>;
      this.apply(
        {
          kind: 'message',
          thread: turn.thread,
          agent: turn.agent,
          move: move.move,
          content: move.content,
          ...(move.replyTo ? { replyTo: move.replyTo } : {}),
          meta,
        },
        extra,
      );
      this.maybeSpawn(turn, move);
      return null;
    }
    const error = settled.reason;
    const calls = error instanceof LlmError ? error.calls : [];
    if (error instanceof LlmError && error.kind === 'budget') {
      this.log(this.callRecords(calls, turn.agent, `turn:${turn.thread}`));
      return `the budget of $${this.header.limits.budgetUsd.toFixed(2)} would be exceeded`;
    }
    if (error instanceof LlmError && error.kind === 'cancelled') return null;
    const failures = (this.failures.get(turn.agent) ?? 0) + 1;
    this.failures.set(turn.agent, failures);
    const records: NewDebateRecord[] = [
      ...this.callRecords(calls, turn.agent, `turn:${turn.thread}`),
      { type: 'turn_failed', agent: turn.agent, thread: turn.thread, reason: describe(error) },
    ];
    if (failures >= FAILURES_BEFORE_DEGRADED && !this.degraded.has(turn.agent)) {
      this.degraded.add(turn.agent);
      records.push({
        type: 'agent_degraded',
        agent: turn.agent,
        reason: `${failures} turns in a row failed: ${describe(error)}`,
      });
    }
    this.log(records);
    return null;
  }

  /**
   * A REFRAME carrying a separate question, taken up by another agent's reply, becomes a thread
   * proposal; the protocol's spawn gates decide whether it opens.
   */
  private maybeSpawn(turn: Turn, move: AgentMove): void {
    if (!move.replyTo) return;
    const target = this.state.transcript.find((m) => m.id === move.replyTo);
    const reply = this.state.transcript[this.state.transcript.length - 1];
    const question = target?.meta?.spawnQuestion;
    if (!target || !reply?.accepted || target.move !== 'REFRAME' || typeof question !== 'string' || !target.author)
      return;
    if (target.author === turn.agent) return;
    const key = spawnKey(target.author, question);
    if (this.spawnOffered.has(key)) return;
    this.spawnOffered.add(key);
    this.apply({
      kind: 'propose_thread',
      id: `t${this.state.threads.length + 1}`,
      by: target.author,
      topic: question,
      binaryQuestion: question.trim().endsWith('?') ? question.trim() : null,
      supporters: [target.author, turn.agent],
    });
  }

  private stop(reason: string): CruxOutcome {
    if (this.state.threads.some(isOpen)) {
      this.apply({ kind: 'stop', reason });
      this.setStatus('partial', reason);
    } else this.setStatus('completed');
    return this.outcome();
  }

  outcome(): CruxOutcome {
    const result = buildResult(this.state, this.usage);
    const degradedAgents = this.header.agents.map((a) => a.id).filter((id) => this.degraded.has(id));
    const notes: string[] = [];
    if (degradedAgents.length > 0) {
      notes.push(
        `${degradedAgents.join(', ')} kept failing and stopped being asked; the result rests on the other ${this.header.agents.length - degradedAgents.length} agents.`,
      );
    }
    if (this.status === 'partial' && this.reason)
      notes.push(`The debate stopped early: ${this.reason}. Everything up to that point is saved.`);
    return { status: this.status, reason: this.reason, result, degradedAgents, notes };
  }
}

function spawnKey(by: string, topic: string): string {
  return `${by}\u0001${topic}`;
}

function describe(error: unknown): string {
  if (error instanceof LlmError) return `${error.kind}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
