import type Database from 'better-sqlite3';
import type { TranscriptMessage } from '../../../contract';
import type { CruxEvent } from '../../../crux/events';
import { STAGES } from '../../../crux/vocabulary';
import { debateEventsAfter, lastDebateSeq } from '../../sqlite/debate-view-queries';

/** The events that are a message of the transcript, in the order the debate's log holds them. */
export const TRANSCRIPT_EVENTS = [
  'message_posted',
  'message_blocked',
  'moderator_intervention',
  'moderator_message',
] as const;

interface Cached {
  /** The highest record number read so far (events are appended, never rewritten). */
  seq: number;
  messages: TranscriptMessage[];
}

/**
 * Every debate's transcript as a list of messages, numbered from 0 in log order (the number is the
 * `m` of a deep link, and the same everywhere: reader, search, crux map, ledger). Read from the
 * index's mirror of the logs; a growing debate is read on from where it was, so a live transcript
 * costs only its new rows.
 */
export class Transcripts {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly db: Database.Database) {}

  messages(debateId: string): TranscriptMessage[] {
    const seq = lastDebateSeq(this.db, debateId);
    let cached = this.cache.get(debateId);
    if (cached && cached.seq > seq) cached = undefined; // the index was rebuilt with less: read afresh
    if (cached && cached.seq === seq) return cached.messages;
    const from = cached?.seq ?? -1;
    const messages = cached?.messages ?? [];
    for (const row of debateEventsAfter(this.db, debateId, from, TRANSCRIPT_EVENTS)) {
      const event = (JSON.parse(row.json) as { event: CruxEvent }).event;
      const message = messageOf(event, messages.length, row.at);
      if (message) messages.push(message);
    }
    this.cache.set(debateId, { seq, messages });
    return messages;
  }

  /** `messageId → index` for one debate. */
  indexById(debateId: string): Map<string, number> {
    return new Map(this.messages(debateId).map((m) => [m.id, m.index]));
  }
}

function messageOf(event: CruxEvent, index: number, at: string): TranscriptMessage | null {
  const base = { index, replyTo: null, reason: null, intervention: null, target: null, at };
  switch (event.type) {
    case 'message_posted':
      return {
        ...base,
        id: event.id,
        thread: event.thread,
        kind: 'message',
        agent: event.agent,
        move: event.move,
        stage: (STAGES as readonly string[]).includes(event.stage) ? event.stage : null,
        content: event.content,
        replyTo: event.replyTo ?? null,
      };
    case 'message_blocked':
      return {
        ...base,
        id: event.id,
        thread: event.thread,
        kind: 'blocked',
        agent: event.agent,
        move: event.move,
        stage: null,
        content: event.detail,
        reason: event.reason,
      };
    case 'moderator_intervention':
      return {
        ...base,
        id: event.id,
        thread: event.thread,
        kind: 'moderator',
        agent: null,
        move: null,
        stage: null,
        content: event.content,
        reason: event.kind,
        intervention: event.kind,
        target: event.target ?? null,
      };
    case 'moderator_message':
      return {
        ...base,
        id: event.id,
        thread: event.thread,
        kind: 'moderator',
        agent: null,
        move: null,
        stage: null,
        content: event.content,
      };
    default:
      return null;
  }
}

/** About `width` characters of `text` around the first of `words` (lower-case) found in it. */
export function snippetAround(text: string, words: readonly string[], width = 180): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLocaleLowerCase();
  const positions = words.map((w) => lower.indexOf(w)).filter((p) => p >= 0);
  const first = positions.length > 0 ? Math.min(...positions) : 0;
  const start = Math.max(0, first - Math.floor(width / 3));
  const end = Math.min(flat.length, start + width);
  const piece = flat.slice(start, end);
  return `${start > 0 ? '…' : ''}${piece}${end < flat.length ? '…' : ''}`;
}
