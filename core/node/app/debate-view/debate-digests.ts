import type Database from 'better-sqlite3';
import type { CruxState } from '../../../crux/state';
import { CruxEngine, type CruxEngineDeps, type CruxOutcome } from '../../../engine/crux-engine';
import type { DebateHeader, DebateRecord } from '../../../engine/debate-record';
import { readDebateLog } from '../../debates/journal';
import { LlmError } from '../../../ports/llm';
import type { DebateService } from '../../debates/debate-service';
import { lastDebateSeq } from '../../sqlite/debate-view-queries';

/** A debate's log folded into the protocol's state: what the progress, map and ledger views read. */
export interface DebateDigest {
  header: DebateHeader;
  /** The fold's state. Its transcript is dropped to keep the cache small; transcripts have their own. */
  state: Omit<CruxState, 'transcript'>;
  /** Accepted REFRAME messages offering a new thread (`meta.spawnQuestion`): what a spawned thread came from. */
  reframes: { id: string; thread: string; author: string; question: string }[];
  /** The message behind each agent's latest valid falsifier, by `<thread>/<agent>`. */
  falsifierMessages: Record<string, string>;
  outcome: CruxOutcome;
  /** Milliseconds between the first and the last record. */
  elapsedMs: number;
  /** The highest record number folded (the cache key). */
  seq: number;
}

/**
 * Folds debate logs on demand and keeps the result until the log grows: a finished debate is read
 * once per app run, a running one again when asked after new records. The index says how far each
 * log has got (`run_events` mirrors every record in the same append), so checking is one lookup.
 */
export class DebateDigests {
  private readonly cache = new Map<string, DebateDigest>();

  constructor(
    private readonly root: string,
    private readonly db: Database.Database,
    private readonly service: DebateService,
  ) {}

  /** Throws the service's "no debate" UserError for an unknown id. */
  get(id: string): DebateDigest {
    const rel = this.service.logPathOf(id);
    const seq = lastDebateSeq(this.db, id);
    const cached = this.cache.get(id);
    if (cached && cached.seq === seq) return cached;
    const { records } = readDebateLog(this.root, rel);
    const digest = digestOf(records);
    this.cache.set(id, digest);
    return digest;
  }
}

/** An engine that only reads: folding a log makes no calls (as CruxEngine.outcomeOf does). */
const READ_ONLY: CruxEngineDeps = {
  llm: { provider: 'none', call: () => Promise.reject(new LlmError('cancelled', 'reading a log makes no calls')) },
  sink: { append: () => {} },
  personas: new Map(),
  crystallizer: { systemPrompt: '', tier: 'standard', interests: [] },
  estimateCostUsd: () => 0,
  now: () => 0,
};

export function digestOf(records: readonly DebateRecord[]): DebateDigest {
  const first = records[0];
  if (first?.type !== 'debate_created') throw new Error('a debate log starts with its header');
  const engine = CruxEngine.resume(records, READ_ONLY);
  const { transcript, ...state } = engine.currentState;
  const reframes = transcript.flatMap((entry) =>
    entry.accepted && entry.move === 'REFRAME' && entry.author && typeof entry.meta?.spawnQuestion === 'string'
      ? [{ id: entry.id, thread: entry.thread, author: entry.author, question: entry.meta.spawnQuestion }]
      : [],
  );
  const falsifierMessages: Record<string, string> = {};
  for (const record of records) {
    if (record.type !== 'event' || record.event.type !== 'falsifier_recorded') continue;
    const { thread, agent, messageId } = record.event as { thread: string; agent: string; messageId: string };
    falsifierMessages[`${thread}/${agent}`] = messageId;
  }
  const last = records[records.length - 1] ?? first;
  return {
    header: first.header,
    state: structuredClone(state),
    reframes,
    falsifierMessages,
    outcome: engine.outcome(),
    elapsedMs: Math.max(0, Date.parse(last.at) - Date.parse(first.at)) || 0,
    seq: last.seq,
  };
}
