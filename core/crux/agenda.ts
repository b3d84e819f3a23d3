import { z } from 'zod';
import type { StepContext } from './context';
import { emit } from './context';
import { jaccard, keywords } from './keywords';
import { count } from './schema-parts';
import type { CruxState, ThreadState } from './state';
import { isOpen } from './state';
import { isDecided } from './vocabulary';

// The agenda manager (seed 000): which open question each open thread works on next. A pure
// function of the state, recomputed after every input; each change is an `agenda_set` event, so the
// log records every pick and folding the log's inputs makes the same picks again.
//
// A thread that has its binary question works on it: the stage machine is built around that
// question. A discovery thread that has none yet is given the most decision-relevant open question
// nobody is working on: a deeper crux an agent put forward in another thread's evidence, a
// crystallized crux that failed its validation, or the question of a thread gone stale. Failing
// those, it frames the crux of its own topic.

export const AGENDA_SOURCES = ['thread', 'deeper', 'unsettled', 'stale', 'topic'] as const;
export type AgendaSource = (typeof AGENDA_SOURCES)[number];

export const agendaItemSchema = z.object({
  question: z.string(),
  source: z.enum(AGENDA_SOURCES),
  /** The thread the question comes from (the thread itself for `thread`); null for `topic`. */
  from: z.string().nullable(),
  /** The message that put a deeper crux forward; null otherwise. */
  messageId: z.string().nullable(),
  /** How many agents the question matters to, when it was picked (0 for `thread` and `topic`). */
  relevance: count,
  /** Why this question, in a sentence a reader of the debate view can follow. */
  reason: z.string(),
});
export type AgendaItem = z.infer<typeof agendaItemSchema>;

/**
 * A question is decision-relevant when it matters to at least two agents: the same bar as crux
 * validation's NOT_DECISION_RELEVANT (fewer than two agents would flip).
 */
export const MIN_RELEVANCE = 2;

/** Two questions are the same question past this keyword overlap: the spawn gate's line. */
const SAME_QUESTION = 0.5;

interface OpenQuestion {
  question: string;
  source: Exclude<AgendaSource, 'thread' | 'topic'>;
  from: string;
  messageId: string | null;
  relevance: number;
  reason: string;
}

const sameQuestion = (a: string, b: string) => jaccard(keywords(a), keywords(b)) > SAME_QUESTION;

/** Everyone but the devil's advocate, who holds no position (./honesty.ts; not imported, to keep events.ts free of cycles). */
function debaters(agents: CruxState['agents']) {
  return agents.filter((a) => a.role !== 'devils-advocate');
}

/** Agents holding YES or NO in a thread now. */
function decidedIn(state: CruxState, thread: ThreadState): number {
  return debaters(state.agents).filter((a) => isDecided(thread.stances[a.id]?.side)).length;
}

/**
 * The questions on the table that no thread is working on, in a fixed order: deeper cruxes by
 * thread and message, then unvalidated cruxes in crystallization order, then stale threads' questions.
 */
export function openQuestions(state: CruxState): OpenQuestion[] {
  const out: OpenQuestion[] = [];
  for (const t of state.threads) {
    if (t.status === 'MERGED') continue;
    for (const c of t.candidateCruxes) {
      const relevance = decidedIn(state, t);
      out.push({
        question: c.question,
        source: 'deeper',
        from: t.id,
        messageId: c.messageId,
        relevance,
        reason: `a deeper crux ${c.by} put forward in ${t.id} (${c.messageId}); ${relevance} agents hold a side there`,
      });
    }
  }
  for (const id of state.crystallized) {
    const t = state.threads.find((x) => x.id === id);
    const crux = t?.crux;
    if (!t || !crux || crux.validated || t.status === 'MERGED') continue;
    const relevance = debaters(state.agents).filter((a) => crux.counterfactual[a.id]?.wouldFlip === true).length;
    out.push({
      question: crux.question,
      source: 'unsettled',
      from: t.id,
      messageId: null,
      relevance,
      reason: `the crux of ${t.id} did not validate (${crux.validationFailures.join(', ')}); ${relevance} agents would change their minds on it`,
    });
  }
  for (const t of state.threads) {
    if (t.status !== 'STALE' || t.binaryQuestion === null) continue;
    const relevance = t.participants.length;
    out.push({
      question: t.binaryQuestion,
      source: 'stale',
      from: t.id,
      messageId: null,
      relevance,
      reason: `the question of ${t.id}, which went stale; ${relevance} agents had worked on it`,
    });
  }
  // Questions already being argued, or settled by a validated crux, are not open.
  const asked = [
    ...state.threads.filter((t) => isOpen(t) && t.binaryQuestion !== null).map((t) => t.binaryQuestion as string),
    ...state.threads.filter((t) => t.status !== 'MERGED' && t.crux?.validated).map((t) => t.crux?.question as string),
  ];
  return out.filter((q) => !asked.some((a) => sameQuestion(a, q.question)));
}

/** The agenda of every open thread, in thread order (an earlier thread picks first). */
export function agendaOf(state: CruxState): Record<string, AgendaItem> {
  const agenda: Record<string, AgendaItem> = {};
  const taken: string[] = [];
  const pool = openQuestions(state).filter((q) => q.relevance >= MIN_RELEVANCE);
  for (const t of state.threads) {
    if (!isOpen(t)) continue;
    if (t.binaryQuestion !== null) {
      agenda[t.id] = {
        question: t.binaryQuestion,
        source: 'thread',
        from: t.id,
        messageId: null,
        relevance: 0,
        reason: "the thread's own binary question",
      };
      continue;
    }
    const topic = keywords(t.topic);
    const ranked = pool
      .map((q, order) => ({ q, order, near: jaccard(topic, keywords(q.question)) }))
      .filter(({ q }) => !taken.some((x) => sameQuestion(x, q.question)))
      .sort((a, b) => b.q.relevance - a.q.relevance || b.near - a.near || a.order - b.order);
    const best = ranked[0]?.q;
    if (best) {
      taken.push(best.question);
      agenda[t.id] = {
        question: best.question,
        source: best.source,
        from: best.from,
        messageId: best.messageId,
        relevance: best.relevance,
        reason: best.reason,
      };
    } else {
      agenda[t.id] = {
        question: t.topic,
        source: 'topic',
        from: null,
        messageId: null,
        relevance: 0,
        reason: 'no open question yet: frame the crux of the thread\u2019s topic',
      };
    }
  }
  return agenda;
}

const pickKey = (item: AgendaItem) => `${item.source}\u0001${item.from ?? ''}\u0001${item.question}`;

/**
 * After an input: recompute the agenda, record each thread whose pick changed (`agenda_set`), and
 * drop the picks of threads that closed. A pick that only changed its relevance is not a new pick.
 */
export function updateAgenda(ctx: StepContext): void {
  const { state } = ctx;
  const next = agendaOf(state);
  const kept: Record<string, AgendaItem> = {};
  for (const [thread, item] of Object.entries(next)) {
    const before = state.agenda[thread];
    if (before && pickKey(before) === pickKey(item)) {
      kept[thread] = before;
      continue;
    }
    kept[thread] = item;
    emit(ctx, { type: 'agenda_set', thread, item });
  }
  state.agenda = kept;
}
