import type { CruxEvent } from '../crux/events';
import type { CruxInput } from '../crux/inputs';
import { type CruxAsk, type CruxRunState, cruxProtocol, type PersonaPrompt } from '../crux/live/protocol';
import { buildResult, type CruxResult } from '../crux/result';
import { initialState } from '../crux/live/entry';
import type { CruxState } from '../crux/state';
import type { Llm, LlmRequest } from '../ports/llm';
import { LlmError } from '../ports/llm';
import type { DebateHeader, DebateRecord, DebateStatus, NewDebateRecord } from './debate-record';
import { Runner } from './runner';

export type { PersonaPrompt } from '../crux/live/protocol';

/** Where the engine writes its log (a JSONL file and the index, in the app). */
export interface DebateSink {
  append(records: readonly NewDebateRecord[]): void;
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

/**
 * A crux debate run by the one runner (`runner.ts`) with the crux protocol (`core/crux/live/protocol.ts`):
 * what the app and the CLI hold while a debate runs, with the debate's own words for its outcome.
 */
export class CruxEngine {
  private readonly runner: Runner<CruxRunState, CruxInput, CruxAsk>;

  private constructor(
    readonly header: DebateHeader,
    deps: CruxEngineDeps,
    /** Time already spent in earlier runs of this debate (a resumed debate keeps its clock). */
    elapsedBefore: number,
  ) {
    const crux = initialState(header);
    const protocol = cruxProtocol({
      subject: header.subject,
      topic: header.topic,
      agents: header.agents,
      limits: header.limits,
      personas: deps.personas,
      crystallizer: deps.crystallizer,
      now: deps.now,
    });
    const { limits } = header;
    this.runner = new Runner(
      protocol,
      { crux, spawnOffered: new Set() },
      // A budget of 0 is no limit for a debate (the simulator, a local model).
      {
        budgetUsd: limits.budgetUsd > 0 ? limits.budgetUsd : null,
        timeLimitMs: limits.maxDurationMs,
        concurrency: limits.concurrency,
      },
      {
        llm: deps.llm,
        append: (records) => deps.sink.append(records as readonly NewDebateRecord[]),
        estimateCostUsd: deps.estimateCostUsd,
        now: deps.now,
        ...(deps.yieldControl ? { yieldControl: deps.yieldControl } : {}),
      },
      elapsedBefore,
    );
  }

  /** A new debate: its header and first thread go into the log before anything is asked. */
  static start(
    header: DebateHeader,
    deps: CruxEngineDeps,
    firstThread: { topic: string; binaryQuestion?: string },
  ): CruxEngine {
    const engine = new CruxEngine(header, deps, 0);
    engine.runner.apply({
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
    if (engine.currentState.threads.length === 0)
      engine.runner.apply({ kind: 'thread', id: 't1', topic: engine.header.topic });
    return engine;
  }

  private static fromLog(records: readonly DebateRecord[], deps: CruxEngineDeps): CruxEngine {
    const first = records[0];
    if (first?.type !== 'debate_created') throw new Error('a debate log starts with its header');
    const firstAt = Date.parse(first.at);
    const lastAt = Date.parse(records[records.length - 1]?.at ?? first.at);
    const engine = new CruxEngine(first.header, deps, Math.max(0, lastAt - firstAt));
    for (const record of records)
      if (record.type !== 'debate_created' && record.type !== 'run_created') engine.runner.fold(record);
    return engine;
  }

  /** A debate folded from its log that only reads: it makes no calls and writes nothing. */
  static reading(records: readonly DebateRecord[]): CruxEngine {
    const inert: CruxEngineDeps = {
      llm: { provider: 'none', call: () => Promise.reject(new LlmError('cancelled', 'reading a log makes no calls')) },
      sink: { append: () => {} },
      personas: new Map(),
      crystallizer: { systemPrompt: '', tier: 'standard', interests: [] },
      estimateCostUsd: () => 0,
      now: () => 0,
    };
    return CruxEngine.fromLog(records, inert);
  }

  /** The outcome a log records so far, without running anything (for reading finished debates). */
  static outcomeOf(records: readonly DebateRecord[]): CruxOutcome {
    return CruxEngine.reading(records).outcome();
  }

  onEvents(listener: (events: CruxEvent[]) => void): () => void {
    return this.runner.onEvents((events) => listener(events as CruxEvent[]));
  }

  /** Drafts of the turns being answered (see `CruxDraft`); only providers that stream send them. */
  onDrafts(listener: (draft: CruxDraft) => void): () => void {
    return this.runner.onDrafts(({ ask, draft }) => {
      if (ask.kind !== 'turn') return;
      const { thread, agent } = ask.turn;
      const shown = draft as { move: string | null; content: string } | null;
      listener({ thread, agent, move: shown?.move ?? null, content: shown?.content ?? null });
    });
  }

  get currentState(): CruxState {
    return this.runner.currentState.crux;
  }

  get spentUsd(): number {
    return this.runner.spentUsd;
  }

  pause(): void {
    this.runner.pause();
  }

  resume(): void {
    this.runner.resume();
  }

  cancel(): void {
    this.runner.cancel();
  }

  /** Runs until every thread is closed, a limit stops it, or it is cancelled. */
  async run(): Promise<CruxOutcome> {
    await this.runner.run();
    return this.outcome();
  }

  outcome(): CruxOutcome {
    const { status, reason } = this.runner.currentStatus;
    const result = buildResult(this.currentState, { ...this.runner.usage });
    const degraded = this.runner.degradedAgents;
    const degradedAgents = this.header.agents.map((a) => a.id).filter((id) => degraded.has(id));
    const notes: string[] = [];
    if (degradedAgents.length > 0) {
      notes.push(
        `${degradedAgents.join(', ')} kept failing and stopped being asked; the result rests on the other ${this.header.agents.length - degradedAgents.length} agents.`,
      );
    }
    if (status === 'partial' && reason)
      notes.push(`The debate stopped early: ${reason}. Everything up to that point is saved.`);
    return { status, reason, result, degradedAgents, notes };
  }
}
