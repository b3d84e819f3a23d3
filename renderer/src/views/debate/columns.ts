import type { CruxEventView } from '../../../../core/contract';
import { plainWords } from '../../ui/glossary';
import { clip } from './format';
import { lockFailedNote, validationFailureWords } from './lock-words';

/** One line of a thread's column, in the order the protocol decided it. */
export type ColumnItem =
  | {
      kind: 'message';
      id: string;
      /** The message's place in the debate's transcript (the `m` of its deep link). */
      index: number;
      agent: string;
      move: string;
      content: string;
      replyTo: string | null;
      replies: string[];
    }
  | { kind: 'blocked'; id: string; index: number; agent: string; move: string; reason: string; detail: string }
  | {
      kind: 'moderator';
      id: string;
      index: number;
      intervention: string | null;
      target: string | null;
      content: string;
    }
  | {
      kind: 'note';
      key: string;
      text: string;
      tone: '' | 'ok' | 'warn' | 'danger';
      /** The codes and ids behind the words. */
      title?: string;
      /** The glossary term the note is about, for a (?) beside it. */
      term?: string;
    };

export interface Column {
  id: string;
  topic: string;
  question: string | null;
  items: ColumnItem[];
}

export interface Columns {
  columns: Column[];
  /** Debate-level happenings: spawn refusals, primary crux changes, a stop (`title`: the full text or codes). */
  notes: { key: string; text: string; title?: string; term?: string }[];
  /** Accepted agent messages so far. */
  posted: number;
}

/**
 * The live view's columns, folded from the debate's events: one per thread, holding its messages,
 * refused moves, the moderator's interventions, and short notes for stage changes, lock attempts
 * and crystallization. Recomputed from the whole list on each batch (a debate holds hundreds of
 * events, not millions).
 */
/** What the notes name things by: debaters by their display names, the lock attempts' limit. */
export interface NoteContext {
  agentName?: (agent: string) => string;
  /** The most lock attempts a thread may make (the debate's maxLockAttempts), when known. */
  maxLockAttempts?: number;
}

/** Why a thread is being crystallized, in words. */
const CRYSTALLIZE_WHY: Record<string, string> = {
  budget: 'its evidence budget is spent',
  stability: 'the positions stopped moving',
  hardCap: 'it reached its message cap',
};

export function columnsFrom(events: readonly CruxEventView[], context: NoteContext = {}): Columns {
  const name = context.agentName ?? ((a: string) => a);
  const names = (agents: readonly string[]) => agents.map(name).join(', ');
  const columns = new Map<string, Column>();
  const notes: Columns['notes'] = [];
  /** Each thread's crux question as crystallized (the analysis may word it anew). */
  const cruxQuestion = new Map<string, string>();
  const replies = new Map<string, string[]>();
  let index = 0;
  let posted = 0;
  const column = (id: string, topic = id): Column => {
    let c = columns.get(id);
    if (!c) {
      c = { id, topic, question: null, items: [] };
      columns.set(id, c);
    }
    return c;
  };
  const note = (
    thread: string,
    key: string,
    text: string,
    tone: '' | 'ok' | 'warn' | 'danger' = '',
    title?: string,
    term?: string,
  ) =>
    column(thread).items.push({
      kind: 'note',
      key,
      text,
      tone,
      ...(title ? { title } : {}),
      ...(term ? { term } : {}),
    });
  /** A thread named by its question (shortened; the id after it), the way a reader knows it. */
  const named = (thread: string) => {
    const question = cruxQuestion.get(thread) ?? columns.get(thread)?.question ?? null;
    return question
      ? { text: `“${clip(question, 80)}” (${thread})`, full: `${question} (thread ${thread})` }
      : { text: thread, full: `thread ${thread}` };
  };
  /** A text with thread ids in it (a closing's reason), each id named by its question. */
  const namedIn = (text: string) => text.replace(/\bt\d+\b/g, (id) => (columns.has(id) ? named(id).text : id));

  events.forEach((e, n) => {
    switch (e.type) {
      case 'thread_opened':
        column(e.thread, e.topic).question = e.binaryQuestion;
        break;
      case 'thread_spawned': {
        const c = column(e.thread, e.topic);
        c.question = e.binaryQuestion;
        note(
          e.thread,
          `n${n}`,
          `spawned by ${name(e.by)} with ${names(e.supporters)}`,
          '',
          `by ${e.by} with ${e.supporters.join(', ')}`,
        );
        break;
      }
      case 'thread_spawn_rejected':
        notes.push({
          key: `n${n}`,
          text: `A new thread proposed by ${name(e.by)} was refused: ${e.detail}`,
          title: `${e.reason} (proposed by ${e.by})`,
        });
        break;
      case 'message_posted': {
        posted++;
        const item: ColumnItem = {
          kind: 'message',
          id: e.id,
          index: index++,
          agent: e.agent,
          move: e.move,
          content: e.content,
          replyTo: e.replyTo ?? null,
          replies: [],
        };
        replies.set(e.id, item.replies);
        if (e.replyTo) replies.get(e.replyTo)?.push(e.id);
        column(e.thread).items.push(item);
        break;
      }
      case 'message_blocked':
        column(e.thread).items.push({
          kind: 'blocked',
          id: e.id,
          index: index++,
          agent: e.agent,
          move: e.move,
          reason: e.reason,
          detail: e.detail,
        });
        break;
      case 'moderator_intervention':
        column(e.thread).items.push({
          kind: 'moderator',
          id: e.id,
          index: index++,
          intervention: e.kind,
          target: e.target ?? null,
          content: e.content,
        });
        break;
      case 'moderator_message':
        column(e.thread).items.push({
          kind: 'moderator',
          id: e.id,
          index: index++,
          intervention: null,
          target: null,
          content: e.content,
        });
        break;
      case 'binary_question_set':
        column(e.thread).question = e.question;
        note(e.thread, `n${n}`, `${name(e.by)} set the question: ${e.question}`, '', `by ${e.by}`);
        break;
      case 'candidate_crux':
        note(e.thread, `n${n}`, `${name(e.by)} proposed a deeper crux: ${e.question}`, '', `by ${e.by}`);
        break;
      case 'stage_transition':
        note(
          e.thread,
          `n${n}`,
          `${plainWords(e.from)} → ${plainWords(e.to)} (${e.reason})`,
          'ok',
          `${e.from} → ${e.to}`,
        );
        break;
      case 'discovery_extended':
        note(e.thread, `n${n}`, `discovery extended to ${e.budget} messages`, 'warn');
        break;
      case 'lock_failed':
        note(
          e.thread,
          `n${n}`,
          lockFailedNote(e.attempt, context.maxLockAttempts, e.failures, name),
          'warn',
          `lock attempt ${e.attempt} failed: ${e.failures.join(', ')}`,
          'lock-attempts',
        );
        break;
      case 'crux_locked':
        note(e.thread, `n${n}`, `crux locked on attempt ${e.crux.attempt}: ${e.crux.question}`, 'ok');
        break;
      case 'crystallization_requested':
        note(e.thread, `n${n}`, `crystallizing: ${CRYSTALLIZE_WHY[e.reason] ?? e.reason}`, '', e.reason);
        break;
      case 'crystallized':
        cruxQuestion.set(e.thread, e.crux.question);
        note(
          e.thread,
          `n${n}`,
          `crystallized: DCG ${e.crux.dcg.score.toFixed(2)}, ${e.crux.validated ? 'validated' : `not validated (${validationFailureWords(e.crux.validationFailures, name).join('; ')})`}`,
          e.crux.validated ? 'ok' : 'warn',
          e.crux.validated ? undefined : `not validated: ${e.crux.validationFailures.join(', ')}`,
          'dcg',
        );
        break;
      case 'thread_closed':
        note(
          e.thread,
          `n${n}`,
          `closed: ${plainWords(e.status)}${e.reason ? ` (${namedIn(e.reason)})` : ''}`,
          e.status === 'CONVERGED' ? 'ok' : 'danger',
          e.reason ? `${e.status}: ${e.reason}` : e.status,
          e.status,
        );
        break;
      case 'primary_crux_changed': {
        // Named by its question: "t1" alone tells a reader nothing.
        const to = named(e.to);
        const from = e.from ? named(e.from) : null;
        notes.push({
          key: `n${n}`,
          text: `The primary crux is now ${to.text}${from ? `, no longer ${from.text}` : ''}.`,
          title: from ? `${to.full}; before: ${from.full}` : to.full,
        });
        break;
      }
      case 'threads_merged': {
        // Both threads named by their questions; the ids and the message in the tooltip.
        const into = named(e.into);
        const from = named(e.thread);
        const at = ` at ${e.messageId}`;
        note(
          e.thread,
          `n${n}`,
          `merged into ${into.text}: the same crux`,
          'warn',
          `${e.thread} merged into ${e.into}${at}`,
          'MERGED',
        );
        note(
          e.into,
          `n${n}m`,
          `${from.text} merged into this thread: the same crux`,
          '',
          `${e.thread} merged into ${e.into}${at}`,
          'MERGED',
        );
        break;
      }
      case 'thread_revived':
        note(e.thread, `n${n}`, `back to ${plainWords(e.status)}: ${e.reason}`, 'ok', e.status, e.status);
        break;
      case 'agenda_set':
        // The thread's own question and its topic are already in the column's head; a question taken
        // up from elsewhere is a decision worth a line.
        if (e.item.source !== 'thread' && e.item.source !== 'topic')
          note(e.thread, `n${n}`, `agenda: take up “${e.item.question}” (${e.item.reason})`);
        break;
      case 'debate_stopped':
        notes.push({ key: `n${n}`, text: `The debate stopped: ${e.reason}.` });
        break;
      default:
        break;
    }
  });
  return { columns: [...columns.values()], notes, posted };
}
