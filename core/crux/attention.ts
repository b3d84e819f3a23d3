import { names } from './conformity';
import { words } from './keywords';
import type { CruxState, TranscriptEntry } from './state';
import type { Move } from './vocabulary';

// Attention (seed 000's attention scorer, without embeddings): what an agent reads of a thread is
// filtered by how relevant each message is to it, not only by whose turn it is. Every message is
// scored for every agent as of the moment it was posted (what the agent had said and committed to
// by then), so a message seen once stays seen and one passed over stays passed over: what an agent
// reads only ever grows at its end, and each of its turns' transcripts is a prefix of the next one
// (the prompt cache depends on that).

/** The parts of a message's score; they sum to 1. */
export const ATTENTION_WEIGHTS = { interest: 0.5, participation: 0.3, move: 0.2 } as const;

/**
 * How much a move asks of the others: moves that take or change a position, dispute or propose the
 * crux come first, arguments and evidence next, clarifications and lock bookkeeping last.
 */
export const MOVE_WEIGHTS: Readonly<Record<Move, number>> = {
  CHALLENGE: 1,
  CHALLENGE_EVIDENCE: 1,
  CONCEDE: 1,
  PROPOSE_CRUX: 1,
  UPDATE_POSITION: 1,
  COMMIT_POSITION: 1,
  CHALLENGE_CRUX: 1,
  CLAIM: 0.7,
  REFRAME: 0.7,
  PROVIDE_EVIDENCE: 0.7,
  DECLARE_FALSIFIER: 0.7,
  CLARIFY: 0.4,
  STEELMAN: 0.4,
  GRADE_STEELMAN: 0.4,
};

/** Two interests named by a message are a full match. */
const FULL_INTEREST = 2;

/** Why an agent sees a message, or `below` when it does not. */
export type AttentionReason =
  | 'own'
  | 'moderator'
  | 'proposal'
  | 'addressed'
  | 'committed'
  | 'unfiltered'
  | 'relevant'
  | 'below';

/**
 * A message that puts a question to the whole thread: a proposed crux, or a reframe offering a new
 * thread. Everyone reads it, as everyone reads the moderator: it is how the debate finds its cruxes,
 * and a question nobody reads cannot be taken up.
 */
function putsAQuestion(entry: TranscriptEntry): boolean {
  return entry.move === 'PROPOSE_CRUX' || (entry.move === 'REFRAME' && typeof entry.meta?.spawnQuestion === 'string');
}

export interface Attention {
  entry: TranscriptEntry;
  /** 1 for what is always seen; otherwise the weighted score, rounded to 4 decimals. */
  score: number;
  seen: boolean;
  why: AttentionReason;
}

/** A word and an interest match ignoring case and a plural "s" ("costs" is the interest "cost"). */
function stem(word: string): string {
  const w = word.toLowerCase();
  return w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w;
}

/** How many of the agent's interests a message names (its text and the question it proposes). */
export function interestsNamed(entry: TranscriptEntry, interests: ReadonlySet<string>): number {
  const question = typeof entry.meta?.question === 'string' ? entry.meta.question : '';
  const said = new Set(words(`${entry.content} ${question}`).map(stem));
  let n = 0;
  for (const interest of interests) if (said.has(interest)) n++;
  return n;
}

/**
 * Every accepted message and moderator line of a thread, in order, with whether `agent` reads it
 * and why. Always read: its own messages, the moderator's (they carry the protocol's requests), a
 * proposed crux or a reframe offering a new thread (put to everyone), messages addressed to it (a reply to one of its messages, its name, a steelman of it, evidence
 * against its falsifier, the grade of its steelman), and everything after it committed on the
 * thread's crux. An agent with no interests, or a debate whose threshold is 0, reads everything.
 * Otherwise a message is read when 0.5·interest + 0.3·participation + 0.2·move reaches the threshold:
 * interest the share of a full match (two of its interests named), participation 1 when the agent
 * had posted in the thread before, move the weight of the message's move.
 */
export function attentionOf(state: CruxState, threadId: string, agent: string): Attention[] {
  const profile = state.agents.find((a) => a.id === agent);
  const interests = new Set((profile?.interests ?? []).map(stem));
  const threshold = state.config.attentionThreshold;
  const unfiltered = interests.size === 0 || threshold <= 0;
  const name = profile?.name ?? agent;
  const own = new Set<string>();
  /** Who opened each steelman still to be graded, by its target: a grade is addressed to its author. */
  const steelmanBy = new Map<string, string>();
  let posted = false;
  let committed = false;
  const out: Attention[] = [];
  for (const entry of state.transcript) {
    if (entry.thread !== threadId || !entry.accepted) continue;
    const author = entry.author;
    const attention = ((): Omit<Attention, 'entry'> => {
      if (author === agent) return { score: 1, seen: true, why: 'own' };
      if (author === null) return { score: 1, seen: true, why: 'moderator' };
      if (putsAQuestion(entry)) return { score: 1, seen: true, why: 'proposal' };
      const meta = entry.meta ?? {};
      const addressed =
        (entry.replyTo !== undefined && own.has(entry.replyTo)) ||
        meta.steelmanTarget === agent ||
        meta.targetFalsifierOf === agent ||
        (entry.move === 'GRADE_STEELMAN' && steelmanBy.get(author) === agent) ||
        names(entry.content, agent, name);
      if (addressed) return { score: 1, seen: true, why: 'addressed' };
      if (committed) return { score: 1, seen: true, why: 'committed' };
      if (unfiltered) return { score: 1, seen: true, why: 'unfiltered' };
      const w = ATTENTION_WEIGHTS;
      const interest = Math.min(1, interestsNamed(entry, interests) / FULL_INTEREST);
      const move = entry.move ? MOVE_WEIGHTS[entry.move] : 0;
      const score =
        Math.round((w.interest * interest + w.participation * (posted ? 1 : 0) + w.move * move) * 1e4) / 1e4;
      return score >= threshold ? { score, seen: true, why: 'relevant' } : { score, seen: false, why: 'below' };
    })();
    out.push({ entry, ...attention });
    // What the agent had done by then decides how it reads the next messages.
    if (author === agent) {
      own.add(entry.id);
      posted = true;
      if (entry.move === 'COMMIT_POSITION') committed = true;
    }
    if (entry.move === 'STEELMAN' && author !== null && typeof entry.meta?.steelmanTarget === 'string')
      steelmanBy.set(entry.meta.steelmanTarget, author);
  }
  return out;
}

/** The thread's accepted messages and moderator lines that `agent` reads, in order. */
export function visibleEntries(state: CruxState, threadId: string, agent: string): TranscriptEntry[] {
  return attentionOf(state, threadId, agent)
    .filter((a) => a.seen)
    .map((a) => a.entry);
}
