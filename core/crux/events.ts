import { z } from 'zod';
import { agendaItemSchema } from './agenda';
import { falsifierSchema } from './falsifier';
import { coalitionLabelSchema, cruxRecordSchema, cruxRelationSchema, lockedCruxSchema } from './record-schemas';
import { count } from './schema-parts';
import {
  BLOCK_REASONS,
  CRUX_CHALLENGES,
  GIVEN_GRADES,
  INTERVENTION_KINDS,
  MOVES,
  SIDES,
  SPAWN_REJECTIONS,
  STAGES,
  THREAD_STATUSES,
} from './vocabulary';

// Everything the state machine decides, as plain data. An engine appends these to a log and a UI
// streams them; each carries what a reader needs without looking the state up. The schema comes
// first so the contract derives its view of the events (core/contract/crux.ts) from this one.

const event = <const T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });
const thread = z.string();
const side = z.enum(SIDES);
const stage = z.enum(STAGES);

export const cruxEventSchema = z.discriminatedUnion('type', [
  event('thread_opened', { thread, topic: z.string(), binaryQuestion: z.string().nullable() }),
  event('thread_spawned', {
    thread,
    topic: z.string(),
    binaryQuestion: z.string(),
    by: z.string(),
    supporters: z.array(z.string()),
  }),
  event('thread_spawn_rejected', { thread, by: z.string(), reason: z.enum(SPAWN_REJECTIONS), detail: z.string() }),
  event('message_posted', {
    id: z.string(),
    thread,
    agent: z.string(),
    move: z.enum(MOVES),
    stage,
    content: z.string(),
    replyTo: z.string().optional(),
    meta: z.record(z.string(), z.unknown()),
  }),
  event('message_blocked', {
    id: z.string(),
    thread,
    agent: z.string(),
    move: z.enum(MOVES),
    reason: z.enum(BLOCK_REASONS),
    detail: z.string(),
  }),
  event('moderator_intervention', {
    id: z.string(),
    kind: z.enum(INTERVENTION_KINDS),
    thread,
    target: z.string().optional(),
    content: z.string(),
  }),
  event('moderator_message', { id: z.string(), thread, content: z.string() }),
  event('binary_question_set', { thread, question: z.string(), by: z.string(), messageId: z.string() }),
  event('candidate_crux', { thread, question: z.string(), by: z.string(), messageId: z.string() }),
  event('steelman_opened', { thread, from: z.string(), to: z.string(), attempt: count, messageId: z.string() }),
  event('steelman_graded', {
    thread,
    from: z.string(),
    to: z.string(),
    grade: z.enum(GIVEN_GRADES),
    messageId: z.string(),
  }),
  event('position_committed', { thread, agent: z.string(), side, messageId: z.string() }),
  event('falsifier_recorded', { thread, agent: z.string(), falsifier: falsifierSchema, messageId: z.string() }),
  event('position_changed', { thread, agent: z.string(), from: side.nullable(), to: side, messageId: z.string() }),
  event('concession', {
    thread,
    agent: z.string(),
    proposition: z.string(),
    cheap: z.boolean(),
    messageId: z.string(),
  }),
  event('discovery_extended', { thread, budget: count }),
  event('stage_transition', { thread, from: stage, to: stage, reason: z.string() }),
  event('lock_attempt', { thread, attempt: count, ok: z.boolean(), failures: z.array(z.string()) }),
  event('lock_failed', { thread, attempt: count, failures: z.array(z.string()) }),
  event('crux_locked', { thread, crux: lockedCruxSchema }),
  event('crystallization_requested', { thread, reason: z.enum(['budget', 'stability', 'hardCap']) }),
  event('crystallized', { thread, crux: cruxRecordSchema }),
  event('primary_crux_changed', { from: z.string().nullable(), to: z.string() }),
  event('crux_challenged', {
    id: z.string(),
    thread,
    agent: z.string(),
    challenge: z.enum(CRUX_CHALLENGES),
    content: z.string(),
  }),
  event('crux_checked', { thread, agent: z.string(), outcome: z.enum(['ACCEPTED', 'GAVE_UP']), version: count }),
  event('crux_reviewed', { thread, outcome: z.enum(['REEXTRACTED', 'NEEDS_CLARIFICATION']), crux: cruxRecordSchema }),
  event('thread_closed', { thread, status: z.enum(THREAD_STATUSES), reason: z.string() }),
  event('coalition_labels_set', { labels: z.array(coalitionLabelSchema) }),
  /** A relation between two cruxes as the first call proposed it (DISMISSED below the thresholds). */
  event('crux_relation_proposed', { relation: cruxRelationSchema }),
  /** The second call's verdict on it (CONFIRMED or REJECTED). */
  event('crux_relation_checked', { relation: cruxRelationSchema }),
  /** A confirmed duplicate: `thread`'s crux is the same question as `into`'s, and is merged into it. */
  event('crux_merged', { thread, into: z.string() }),
  /** No crux was proposed by the configured count: a devil's advocate joins the debate (./honesty.ts). */
  event('devils_advocate_joined', { agent: z.string(), afterMessages: count, thread }),
  /** Two open threads came to work on the same crux: `thread` is merged into `into` (./thread-merge.ts). */
  event('threads_merged', { thread, into: z.string(), similarity: z.number(), messageId: z.string() }),
  /** A thread gone stale for inactivity was addressed again and is back in `status` (./staleness.ts). */
  event('thread_revived', { thread, status: stage, by: z.string(), messageId: z.string(), reason: z.string() }),
  /** The agenda manager picked the open question a thread works on next (./agenda.ts). */
  event('agenda_set', { thread, item: agendaItemSchema }),
  event('debate_stopped', { reason: z.string() }),
]);
export type CruxEvent = z.infer<typeof cruxEventSchema>;

/** Work the state machine needs from outside, answered by the driver with another input. */
export type CruxEffect =
  | { kind: 'analyse'; thread: string }
  | { kind: 'review'; thread: string }
  /** Ask what crux `a` is to crux `b` (both crystallized, `a` first). */
  | { kind: 'relate'; a: string; b: string }
  /** Ask a second opinion on the relation proposed between `a` and `b`. */
  | { kind: 'check_relation'; a: string; b: string };
