import type { CruxEventView } from '../../../../core/contract';
import { plainWords } from '../../ui/glossary';
import { clip } from './format';

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
  | { kind: 'note'; key: string; text: string; tone: '' | 'ok' | 'warn' | 'danger'; title?: string };

export interface Column {
  id: string;
  topic: string;
  question: string | null;
  items: ColumnItem[];
}

export interface Columns {
  columns: Column[];
  /** Debate-level happenings: spawn refusals, primary crux changes, a stop (`title`: the full text or codes). */
  notes: { key: string; text: string; title?: string }[];
  /** Accepted agent messages so far. */
  posted: number;
}

/**
 * The live view's columns, folded from the debate's events: one per thread, holding its messages,
 * refused moves, the moderator's interventions, and short notes for stage changes, lock attempts
 * and crystallization. Recomputed from the whole list on each batch (a debate holds hundreds of
 * events, not millions).
 */
export function columnsFrom(events: readonly CruxEventView[]): Columns {
  const columns = new Map<string, Column>();
  const notes: { key: string; text: string; title?: string }[] = [];
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
  const note = (thread: string, key: string, text: string, tone: '' | 'ok' | 'warn' | 'danger' = '', title?: string) =>
    column(thread).items.push({ kind: 'note', key, text, tone, ...(title ? { title } : {}) });
  /** A thread named by its question (shortened; the id after it), the way a reader knows it. */
  const named = (thread: string) => {
    const question = cruxQuestion.get(thread) ?? columns.get(thread)?.question ?? null;
    return question
      ? { text: `“${clip(question, 80)}” (${thread})`, full: `${question} (thread ${thread})` }
      : { text: thread, full: `thread ${thread}` };
  };

  events.forEach((e, n) => {
    switch (e.type) {
      case 'thread_opened':
        column(e.thread, e.topic).question = e.binaryQuestion;
        break;
      case 'thread_spawned': {
        const c = column(e.thread, e.topic);
        c.question = e.binaryQuestion;
        note(e.thread, `n${n}`, `spawned by ${e.by} with ${e.supporters.join(', ')}`);
        break;
      }
      case 'thread_spawn_rejected':
        notes.push({ key: `n${n}`, text: `A new thread proposed by ${e.by} was refused (${e.reason}): ${e.detail}` });
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
        note(e.thread, `n${n}`, `${e.by} set the question: ${e.question}`);
        break;
      case 'candidate_crux':
        note(e.thread, `n${n}`, `${e.by} proposed a deeper crux: ${e.question}`);
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
        note(e.thread, `n${n}`, `lock attempt ${e.attempt} failed: ${e.failures.join(', ')}`, 'warn');
        break;
      case 'crux_locked':
        note(e.thread, `n${n}`, `crux locked on attempt ${e.crux.attempt}: ${e.crux.question}`, 'ok');
        break;
      case 'crystallization_requested':
        note(e.thread, `n${n}`, `crystallizing (${e.reason})`);
        break;
      case 'crystallized':
        cruxQuestion.set(e.thread, e.crux.question);
        note(
          e.thread,
          `n${n}`,
          `crystallized: DCG ${e.crux.dcg.score.toFixed(2)}, ${e.crux.validated ? 'validated' : `not validated (${e.crux.validationFailures.join(', ')})`}`,
          e.crux.validated ? 'ok' : 'warn',
        );
        break;
      case 'thread_closed':
        note(
          e.thread,
          `n${n}`,
          `closed: ${plainWords(e.status)}${e.reason ? ` (${e.reason})` : ''}`,
          e.status === 'CONVERGED' ? 'ok' : 'danger',
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
      case 'threads_merged':
        note(e.thread, `n${n}`, `merged into ${e.into}: the same crux (${e.messageId})`, 'warn');
        note(e.into, `n${n}m`, `${e.thread} merged into this thread: the same crux (${e.messageId})`);
        break;
      case 'thread_revived':
        note(e.thread, `n${n}`, `back in ${e.status}: ${e.reason}`, 'ok');
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
