import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayScript } from '../../core/crux';
import type { DebateSink } from '../../core/engine/crux-engine';
import type { DebateHeader, NewDebateRecord } from '../../core/engine/debate-record';
import { parseDebateLog } from '../../core/engine/log-reader';
import { DEFAULT_LIMITS } from '../../core/node/debates/debate-service';
import { DebateJournal } from '../../core/node/debates/journal';
import type { Workspace } from '../../core/node/workspace/workspace';
import { planReplay, type ReplayOutcome, type ReplayPlan, runReplayPlan } from './replay';
import { median, progress } from './stats';
import { openTempWorkspace } from './workspace';

/**
 * Records per `journal.append`. The journal fsyncs every append (its durability promise to a live
 * debate, where one append follows one model call of a second or more). Appending each message's
 * records on its own would make this benchmark a measure of the disk's fsync latency (~0.1–10 ms,
 * i.e. 100–10 000 messages/s whatever the engine does), not of the engine; a resume or import that
 * writes a whole log at once would batch the same way. 500 records is about 250 messages per fsync,
 * which leaves the JSON encoding, the file write and the SQLite mirror — the per-record costs — in
 * the figure.
 */
export const RECORDS_PER_APPEND = 500;

/** Buffers records and hands them to the journal `batch` at a time; `flush` writes what is left. */
class BatchingSink implements DebateSink {
  private pending: NewDebateRecord[] = [];

  constructor(
    private readonly journal: DebateJournal,
    private readonly batch: number,
  ) {}

  append(records: readonly NewDebateRecord[]): void {
    for (const record of records) this.pending.push(record);
    if (this.pending.length >= this.batch) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.journal.append(this.pending);
    this.pending = [];
  }
}

export interface ReplayFigures {
  messages: number;
  inputs: number;
  events: number;
  /** Milliseconds of each timed run. */
  persistedMs: number[];
  bareMs: number[];
}

function replayHeader(plan: ReplayPlan, id: string): DebateHeader {
  return {
    id,
    protocol: 'crux',
    topic: plan.topic,
    ideaSlug: null,
    agents: plan.agents.map((a) => ({ ...a, persona: null, interests: [], tier: 'standard' as const })),
    config: plan.config as Record<string, unknown>,
    provider: 'replay',
    seed: null,
    limits: DEFAULT_LIMITS,
    createdAt: new Date().toISOString(),
  };
}

/** The bare replay: the protocol alone. The plan is built before the clock starts. */
function timeBare(scriptText: string): { ms: number; outcome: ReplayOutcome } {
  const plan = planReplay(scriptText);
  const started = performance.now();
  const outcome = runReplayPlan(plan, null);
  return { ms: performance.now() - started, outcome };
}

/**
 * The replay with every record journaled, in a workspace of its own so each run starts from an
 * empty index. The clock covers the replay, the appends and the final flush and close; opening the
 * workspace and creating the journal (its header record) are set-up.
 */
function timePersisted(scriptText: string, run: number): { ms: number; outcome: ReplayOutcome } {
  const temp = openTempWorkspace('crucible-bench-replay-');
  try {
    const plan = planReplay(scriptText);
    const journal = DebateJournal.create(temp.ws.root, temp.ws.db, replayHeader(plan, `bench-replay-${run}`));
    const sink = new BatchingSink(journal, RECORDS_PER_APPEND);
    const started = performance.now();
    const outcome = runReplayPlan(plan, sink);
    sink.flush();
    journal.close();
    const ms = performance.now() - started;
    verifyJournal(temp.ws, journal, outcome);
    return { ms, outcome };
  } finally {
    temp.dispose();
  }
}

/** The log on disk and its index mirror must hold exactly the inputs and events of the run. */
function verifyJournal(ws: Workspace, journal: DebateJournal, outcome: ReplayOutcome): void {
  const { records } = parseDebateLog(readFileSync(join(ws.root, journal.relPath), 'utf8'));
  const inputs = records.filter((r) => r.type === 'input').length;
  const events = records.filter((r) => r.type === 'event').length;
  if (inputs !== outcome.inputs || events !== outcome.events || records.length !== 1 + inputs + events) {
    throw new Error(`journal holds ${inputs} inputs and ${events} events of ${outcome.inputs} and ${outcome.events}`);
  }
  const indexed = (
    ws.db.prepare('SELECT COUNT(*) AS n FROM run_events WHERE run_id = ?').get(journal.header.id) as { n: number }
  ).n;
  if (indexed !== records.length) throw new Error(`the index mirrors ${indexed} of ${records.length} records`);
}

/** The bench's driver must be the same replay as `replayScript`, or its figure means nothing. */
function checkAgainstReplayScript(scriptText: string): void {
  const reference = replayScript(scriptText);
  const ours = runReplayPlan(planReplay(scriptText), null);
  const same =
    reference.events.length === ours.events &&
    JSON.stringify(reference.state.counters) === JSON.stringify(ours.state.counters) &&
    reference.state.transcript.length === ours.state.transcript.length;
  if (!same) throw new Error('the bench replay differs from replayScript on the generated script');
}

/** One warm-up of each kind, then `runs` timed runs of each, interleaved so drift hits both. */
export function measureReplay(scriptText: string, runs: number): ReplayFigures {
  checkAgainstReplayScript(scriptText);
  progress('replay: warm-up');
  const warm = timePersisted(scriptText, 0);
  timeBare(scriptText);
  const persistedMs: number[] = [];
  const bareMs: number[] = [];
  for (let run = 1; run <= runs; run++) {
    persistedMs.push(timePersisted(scriptText, run).ms);
    bareMs.push(timeBare(scriptText).ms);
    progress(
      `replay: run ${run}/${runs}: persisted ${persistedMs.at(-1)?.toFixed(1)} ms, bare ${bareMs.at(-1)?.toFixed(1)} ms`,
    );
  }
  progress(`replay: median persisted ${median(persistedMs).toFixed(1)} ms, bare ${median(bareMs).toFixed(1)} ms`);
  return {
    messages: warm.outcome.messages,
    inputs: warm.outcome.inputs,
    events: warm.outcome.events,
    persistedMs,
    bareMs,
  };
}
