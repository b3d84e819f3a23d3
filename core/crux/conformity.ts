import { z } from 'zod';
import { count } from './schema-parts';
import type { CruxState, Stance, ThreadState, TranscriptEntry } from './state';
import { type Move, SIDES } from './vocabulary';

// Conformity against real agreement. Every position change (a CONCEDE, or an UPDATE_POSITION that
// moves a side or a confidence) is recorded when it is applied, with what preceded it: a new
// argument aimed at the agent, or only the weight of the other agents' sides. The result reports
// per debate how many changes were majority adoptions and how much dissent survived, and labels a
// consensus built mostly on adoptions "possibly conformity". docs/crux-protocol.md has the rules.

const side = z.enum(SIDES);
const stanceSchema = z.object({ side, confidence: z.number().optional() });

/** Why a change happened, as far as the transcript can tell. */
export const CHANGE_BASES = ['argument', 'majority', 'none'] as const;
export type ChangeBasis = (typeof CHANGE_BASES)[number];

export const positionChangeSchema = z.object({
  thread: z.string(),
  messageId: z.string(),
  agent: z.string(),
  move: z.enum(['UPDATE_POSITION', 'CONCEDE']),
  /** `side` and `confidence`: what moved; `concession`: a CONCEDE that left the stance as it was. */
  kind: z.enum(['side', 'confidence', 'concession']),
  /** The agent's stance before and after; null when it had none. */
  from: stanceSchema.nullable(),
  to: stanceSchema.nullable(),
  /**
   * `argument`: a new argument or evidence aimed at the agent preceded it; `majority`: none did, and
   * the change moved toward the side most other agents held; `none`: neither.
   */
  basis: z.enum(CHANGE_BASES),
  /** The new arguments aimed at the agent (message ids, in order). */
  arguments: z.array(z.string()),
  /** The side held by most of the other agents when the change came, or null when none was. */
  majority: z.enum(['YES', 'NO']).nullable(),
});
export type PositionChange = z.infer<typeof positionChangeSchema>;

export const CONFORMITY_LABEL = 'possibly conformity';

export const conformitySchema = z.object({
  changes: z.array(positionChangeSchema),
  afterArgument: count,
  majorityAdoptions: count,
  unexplained: count,
  /** majorityAdoptions / changes, 4 decimals. */
  majorityAdoptionRate: z.number(),
  /** Agents in the smaller YES/NO camp of each thread, summed: at the first commitments and at the end. */
  dissent: z.object({ initial: count, final: count }),
  /** Threads whose crux of full agreement was built mostly on majority adoptions. */
  conformityThreads: z.array(z.string()),
  label: z.literal(CONFORMITY_LABEL).nullable(),
});
export type Conformity = z.infer<typeof conformitySchema>;

/** The moves that carry an argument or evidence; commitments, updates and concessions only show a side. */
const ARGUMENT_MOVES: readonly Move[] = ['CLAIM', 'CHALLENGE', 'REFRAME', 'PROVIDE_EVIDENCE', 'CHALLENGE_EVIDENCE'];
const STANCE_MOVES: readonly Move[] = ['COMMIT_POSITION', 'UPDATE_POSITION', 'CONCEDE'];

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` names the agent by id or name, as a whole word (also the attention filter's "addressed"). */
export function names(text: string, id: string, name: string): boolean {
  return [id, name].some(
    (n) => n !== '' && new RegExp(`(^|[^\\p{L}\\p{N}])${escaped(n)}($|[^\\p{L}\\p{N}])`, 'iu').test(text),
  );
}

/**
 * The new arguments aimed at `agent` before `entry`: accepted argument moves by other agents in the
 * thread, since the agent last took a stance there (it had not answered them yet), that reply to
 * one of its messages, target its falsifier or name it, or that the change itself replies to.
 */
function newArgumentsFor(state: CruxState, thread: ThreadState, entry: TranscriptEntry): string[] {
  const agent = entry.author as string;
  const name = state.agents.find((a) => a.id === agent)?.name ?? agent;
  const earlier = state.transcript.slice(0, state.transcript.indexOf(entry));
  const inThread = earlier.filter((m) => m.thread === thread.id && m.accepted);
  let since = 0;
  inThread.forEach((m, i) => {
    if (m.author === agent && m.move !== null && STANCE_MOVES.includes(m.move)) since = i + 1;
  });
  const own = new Set(inThread.filter((m) => m.author === agent).map((m) => m.id));
  return inThread
    .slice(since)
    .filter(
      (m) =>
        m.author !== null &&
        m.author !== agent &&
        m.move !== null &&
        ARGUMENT_MOVES.includes(m.move) &&
        ((m.replyTo !== undefined && own.has(m.replyTo)) ||
          m.meta?.targetFalsifierOf === agent ||
          names(m.content, agent, name) ||
          entry.replyTo === m.id),
    )
    .map((m) => m.id);
}

/**
 * The YES/NO side that at least two of the other agents hold, and more than half of those with a
 * stance in the thread: one other agent is a peer, not a majority.
 */
function majoritySide(thread: ThreadState, agent: string): 'YES' | 'NO' | null {
  const others = Object.entries(thread.stances)
    .filter(([a]) => a !== agent)
    .map(([, s]) => s.side);
  for (const s of ['YES', 'NO'] as const) {
    const held = others.filter((o) => o === s).length;
    if (held >= 2 && held * 2 > others.length) return s;
  }
  return null;
}

/** Whether going from `from` to `to` moves toward `majority` (a concession yields to the other side). */
function towards(majority: 'YES' | 'NO', from: Stance | undefined, to: Stance | undefined, move: Move): boolean {
  const opposite = majority === 'YES' ? 'NO' : 'YES';
  if (to && from?.side !== to.side) return to.side === majority || (from?.side === opposite && to.side === 'UNCERTAIN');
  if (from && to && from.confidence !== undefined && to.confidence !== undefined && from.confidence !== to.confidence) {
    return to.side === majority
      ? to.confidence > from.confidence
      : to.side === opposite && to.confidence < from.confidence;
  }
  // A concession that kept the stance: yielding while in the minority.
  return move === 'CONCEDE' && from?.side === opposite;
}

/**
 * Records an accepted UPDATE_POSITION or CONCEDE as a position change when it is one: a CONCEDE
 * always, an UPDATE_POSITION when the side or the confidence moved. `before` is the stance it was
 * applied to; the thread's stances already hold the new one.
 */
export function recordPositionChange(
  state: CruxState,
  thread: ThreadState,
  entry: TranscriptEntry,
  before: Stance | undefined,
): void {
  const agent = entry.author;
  const move = entry.move;
  if (agent === null || (move !== 'UPDATE_POSITION' && move !== 'CONCEDE')) return;
  const after = thread.stances[agent];
  const sideMoved = after !== undefined && before?.side !== after.side;
  const confidenceMoved = !sideMoved && after?.confidence !== before?.confidence;
  if (move === 'UPDATE_POSITION' && !sideMoved && !confidenceMoved) return;
  const found = newArgumentsFor(state, thread, entry);
  const majority = majoritySide(thread, agent);
  const basis: ChangeBasis =
    found.length > 0 ? 'argument' : majority !== null && towards(majority, before, after, move) ? 'majority' : 'none';
  thread.positionChanges.push({
    thread: thread.id,
    messageId: entry.id,
    agent,
    move,
    kind: sideMoved ? 'side' : confidenceMoved ? 'confidence' : 'concession',
    from: before ? { ...before } : null,
    to: after ? { ...after } : null,
    basis,
    arguments: found,
    majority,
  });
}

/** The smaller of the YES and NO camps among these sides (a tie counts one camp). */
function smallerCamp(sides: readonly string[]): number {
  return Math.min(sides.filter((s) => s === 'YES').length, sides.filter((s) => s === 'NO').length);
}

/** Each agent's first committed side in the thread, from its accepted commitments. */
function firstSides(state: CruxState, thread: ThreadState): string[] {
  const first = new Map<string, string>();
  for (const m of state.transcript) {
    if (m.thread !== thread.id || !m.accepted || m.move !== 'COMMIT_POSITION' || m.author === null) continue;
    if (!first.has(m.author) && typeof m.meta?.side === 'string') first.set(m.author, m.meta.side);
  }
  return [...first.values()];
}

/**
 * The debate's conformity report, or null when no position changed (a result without one reads as
 * it always did). `agreed` says whether a thread's crux is one of full agreement.
 */
export function conformityOf(
  state: CruxState,
  agreed: (thread: ThreadState) => boolean,
  rate: (value: number) => number,
): Conformity | null {
  const changes = state.threads.flatMap((t) => t.positionChanges);
  if (changes.length === 0) return null;
  const by = (basis: ChangeBasis, list: readonly PositionChange[]) => list.filter((c) => c.basis === basis).length;
  // "Mostly": more than half of the thread's changes were adoptions of the majority's side.
  const conformityThreads = state.threads
    .filter((t) => agreed(t) && by('majority', t.positionChanges) * 2 > t.positionChanges.length)
    .map((t) => t.id);
  return {
    changes,
    afterArgument: by('argument', changes),
    majorityAdoptions: by('majority', changes),
    unexplained: by('none', changes),
    majorityAdoptionRate: rate(by('majority', changes) / changes.length),
    dissent: {
      initial: state.threads.reduce((n, t) => n + smallerCamp(firstSides(state, t)), 0),
      final: state.threads.reduce((n, t) => n + smallerCamp(Object.values(t.stances).map((s) => s.side)), 0),
    },
    conformityThreads,
    label: conformityThreads.length > 0 ? CONFORMITY_LABEL : null,
  };
}
