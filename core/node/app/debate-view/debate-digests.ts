import type { CruxState } from '../../../crux/state';
import { CruxEngine, type CruxOutcome } from '../../../engine/crux-engine';
import type { DebateHeader, DebateRecord } from '../../../engine/debate-record';

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

export function digestOf(records: readonly DebateRecord[]): DebateDigest {
  const first = records[0];
  if (first?.type !== 'debate_created') throw new Error('a debate log starts with its header');
  const engine = CruxEngine.reading(records);
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
