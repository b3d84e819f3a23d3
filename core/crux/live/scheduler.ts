import { keywords } from '../keywords';
import { lockFailures } from '../lock';
import type { CruxState, ThreadState, TranscriptEntry } from '../state';
import { isOpen } from '../state';
import type { BlockReason, Move, Side, Stage } from '../vocabulary';
import { isDecided } from '../vocabulary';

/**
 * Who speaks next in a thread, and what the protocol needs from them. A pure function of the state,
 * so a resumed debate asks exactly what an uninterrupted one would have asked.
 */
export type Ask =
  | { kind: 'DISCUSS' }
  | { kind: 'PROPOSE_CRUX' }
  | { kind: 'COMMIT_POSITION' }
  | { kind: 'DECLARE_FALSIFIER' }
  | { kind: 'STEELMAN'; target: string }
  | { kind: 'GRADE_STEELMAN'; from: string; attempts: number }
  | { kind: 'CLARIFY' }
  | { kind: 'PROVIDE_EVIDENCE'; targetFalsifierOf?: string }
  | { kind: 'CHALLENGE_EVIDENCE'; replyTo: string; author: string };

export interface Turn {
  thread: string;
  agent: string;
  ask: Ask;
  /** 0 for a first ask; 1 and 2 for re-asks after a blocked move. */
  attempt: number;
  lastBlock?: { reason: BlockReason; detail: string; move: Move | null };
}

export const MAX_REASKS = 2;

function threadCount(thread: ThreadState): number {
  return thread.messages.DISCOVERY + thread.messages.CRUX_LOCK + thread.messages.EVIDENCE;
}

function threadEntries(state: CruxState, thread: string): TranscriptEntry[] {
  return state.transcript.filter((m) => m.thread === thread);
}

/** The trailing run of blocked messages by one agent (moderator lines in between do not break it). */
function trailingBlocks(
  entries: readonly TranscriptEntry[],
): { agent: string; count: number; last: TranscriptEntry } | null {
  let agent: string | null = null;
  let count = 0;
  let last: TranscriptEntry | null = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as TranscriptEntry;
    if (e.author === null) continue;
    if (e.accepted) break;
    if (agent !== null && e.author !== agent) break;
    agent = e.author;
    last ??= e;
    count++;
  }
  return agent !== null && last !== null ? { agent, count, last } : null;
}

function sideOf(thread: ThreadState, agent: string): Side | null {
  return thread.stances[agent]?.side ?? null;
}

/** Attention: how much an agent's interests overlap the words of the last message. */
function attention(interests: ReadonlySet<string>, text: string): number {
  let score = 0;
  for (const word of new Set(keywords(text))) if (interests.has(word)) score++;
  return score;
}

export interface SchedulerOptions {
  /** Agents that failed too often to be asked again. */
  degraded: ReadonlySet<string>;
  /** Interests per agent (keywords), for attention scoring. */
  interests: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The next turn of every open thread that can take one (not waiting for its analysis). */
export function nextTurns(state: CruxState, options: SchedulerOptions): Turn[] {
  const turns: Turn[] = [];
  for (const thread of state.threads) {
    if (!isOpen(thread) || thread.awaitingAnalysis) continue;
    const turn = nextTurn(state, thread, options);
    if (turn) turns.push(turn);
  }
  return turns;
}

export function nextTurn(state: CruxState, thread: ThreadState, options: SchedulerOptions): Turn | null {
  const entries = threadEntries(state, thread.id);
  // The devil's advocate speaks only in discovery (core/crux/honesty.ts).
  const advocate = state.agents.find((a) => a.role === 'devils-advocate')?.id ?? null;
  const active = state.agents
    .map((a) => a.id)
    .filter((id) => !options.degraded.has(id) && (id !== advocate || thread.status === 'DISCOVERY'));
  if (active.length === 0) return null;

  // A blocked move is asked again (with the reason) up to twice; then the turn passes on.
  const blocks = trailingBlocks(entries);
  let passed: string | null = null;
  if (blocks && active.includes(blocks.agent)) {
    if (blocks.count <= MAX_REASKS) {
      const ask = askFor(state, thread, blocks.agent, entries) ?? fallbackAsk(thread.status as Stage);
      return {
        thread: thread.id,
        agent: blocks.agent,
        ask,
        attempt: blocks.count,
        lastBlock: {
          reason: blocks.last.blockedReason as BlockReason,
          detail: blockDetail(blocks.last),
          move: blocks.last.move,
        },
      };
    }
    passed = blocks.agent;
  }

  const accepted = entries.filter((e) => e.accepted && e.author !== null);
  const lastSpeaker = accepted[accepted.length - 1]?.author ?? null;
  const candidates = active.filter((id) => id !== passed);
  if (candidates.length === 0) return null;
  // Cooldown: nobody speaks twice in a row in a thread while someone else can.
  const rested = candidates.filter((id) => id !== lastSpeaker);
  const pool = rested.length > 0 ? rested : candidates;

  // A devil's advocate that has just joined speaks first: it was brought in to put a crux on the table.
  if (advocate && pool.includes(advocate) && !thread.discoveryAuthors.includes(advocate)) {
    const ask: Ask = thread.binaryQuestion ? { kind: 'DISCUSS' } : { kind: 'PROPOSE_CRUX' };
    return { thread: thread.id, agent: advocate, ask, attempt: 0 };
  }

  if (thread.status === 'CRUX_LOCK') {
    // The cooldown gives way when only the last speaker can supply what the lock still lacks.
    const owed = owedInLock(state, thread, pool) ?? owedInLock(state, thread, candidates);
    if (owed) return { thread: thread.id, agent: owed.agent, ask: owed.ask, attempt: 0 };
  }

  const agent = pickByAttention(thread, pool, accepted, options.interests);
  const ask = askFor(state, thread, agent, entries) ?? fallbackAsk(thread.status as Stage);
  return { thread: thread.id, agent, ask, attempt: 0 };
}

function blockDetail(entry: TranscriptEntry): string {
  return entry.blockedDetail ?? entry.blockedReason ?? 'blocked';
}

function fallbackAsk(stage: Stage): Ask {
  if (stage === 'DISCOVERY') return { kind: 'DISCUSS' };
  if (stage === 'CRUX_LOCK') return { kind: 'CLARIFY' };
  return { kind: 'PROVIDE_EVIDENCE' };
}

/**
 * In CRUX_LOCK the scheduler works down what the lock still lacks: grades owed first (they unblock
 * others), then commitments, falsifiers and steelmans.
 */
function owedInLock(
  state: CruxState,
  thread: ThreadState,
  pool: readonly string[],
): { agent: string; ask: Ask } | null {
  const rank = (ask: Ask) =>
    ask.kind === 'GRADE_STEELMAN'
      ? 0
      : ask.kind === 'COMMIT_POSITION'
        ? 1
        : ask.kind === 'DECLARE_FALSIFIER'
          ? 2
          : ask.kind === 'STEELMAN'
            ? 3
            : 9;
  let best: { agent: string; ask: Ask } | null = null;
  // Rotating the starting agent spreads the work when several owe the same kind of move. The
  // rotation follows the thread's own count, so one thread's turn never depends on another's.
  const offset = threadCount(thread) % pool.length;
  const rotated = [...pool.slice(offset), ...pool.slice(0, offset)];
  for (const agent of rotated) {
    const ask = lockAsk(state, thread, agent);
    if (ask && ask.kind !== 'CLARIFY' && (!best || rank(ask) < rank(best.ask))) best = { agent, ask };
  }
  return best;
}

function lockAsk(state: CruxState, thread: ThreadState, agent: string): Ask | null {
  const pendingForMe = [...thread.steelmans].reverse().find((s) => s.to === agent && s.grade === 'PENDING');
  if (pendingForMe) return { kind: 'GRADE_STEELMAN', from: pendingForMe.from, attempts: pendingForMe.attempts };
  if (!thread.commitments[agent]) return { kind: 'COMMIT_POSITION' };
  const side = sideOf(thread, agent);
  if (!isDecided(side ?? undefined)) return { kind: 'CLARIFY' };
  if (!thread.falsifiers[agent]) return { kind: 'DECLARE_FALSIFIER' };
  const failures = lockFailures(thread, state.agents, state.config.steelmanRule);
  const waiting = (to: string) =>
    thread.steelmans.some((s) => s.from === agent && s.to === to && s.grade === 'PENDING');
  const targets = steelmanTargets(state, thread, agent, failures).filter((to) => !waiting(to));
  const target = targets[0];
  if (target) return { kind: 'STEELMAN', target };
  return { kind: 'CLARIFY' };
}

/**
 * Whom `agent` still has to steelman. Under `each-across` the decided agents are paired across the
 * divide in agent order (the i-th YES with the i-th NO, wrapping the shorter side), which needs the
 * fewest steelmans that satisfy every agent's give and receive; under `pairwise` every opposite
 * agent. A pair already graded ACCURATE is done; an INCOMPLETE or WRONG one is tried again.
 */
function steelmanTargets(state: CruxState, thread: ThreadState, agent: string, failures: readonly string[]): string[] {
  if (state.config.steelmanRule === 'pairwise') {
    const prefix = `STEELMAN_PAIR:${agent}->`;
    return failures.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length));
  }
  const decided = (side: 'YES' | 'NO') =>
    state.agents.map((a) => a.id).filter((id) => thread.commitments[id] && sideOf(thread, id) === side);
  const yes = decided('YES');
  const no = decided('NO');
  if (yes.length === 0 || no.length === 0) return [];
  const accurate = (from: string, to: string) =>
    thread.steelmans.some((s) => s.from === from && s.to === to && s.grade === 'ACCURATE');
  const mine = yes.includes(agent) ? yes : no;
  const theirs = yes.includes(agent) ? no : yes;
  const index = mine.indexOf(agent);
  if (index < 0) return [];
  const out: string[] = [];
  // My designated partner, then anyone across whose receive is still missing and maps to me.
  const partner = theirs[index % theirs.length] as string;
  if (failures.includes(`STEELMAN_GIVE:${agent}`) && !accurate(agent, partner)) out.push(partner);
  theirs.forEach((other, j) => {
    if (
      mine[j % mine.length] === agent &&
      failures.includes(`STEELMAN_RECEIVE:${other}`) &&
      !accurate(agent, other) &&
      !out.includes(other)
    ) {
      out.push(other);
    }
  });
  return out;
}

function pickByAttention(
  thread: ThreadState,
  pool: readonly string[],
  accepted: readonly TranscriptEntry[],
  interests: ReadonlyMap<string, ReadonlySet<string>>,
): string {
  const last = accepted[accepted.length - 1];
  const recent = new Set(accepted.slice(-pool.length).map((e) => e.author));
  // DISCOVERY needs two distinct voices before it can end: bring in a new one early.
  const newcomers = thread.status === 'DISCOVERY' ? pool.filter((id) => !thread.discoveryAuthors.includes(id)) : [];
  const field =
    thread.status === 'DISCOVERY' && thread.discoveryAuthors.length < 2 && newcomers.length > 0 ? newcomers : pool;
  const offset = threadCount(thread) % field.length;
  let best = field[offset] as string;
  let bestScore = -Infinity;
  field.forEach((id, i) => {
    const rotation = (i - offset + field.length) % field.length;
    let score = last ? attention(interests.get(id) ?? new Set(), last.content) * 2 : 0;
    if (!recent.has(id)) score += 1.5; // someone who has been quiet gets a turn
    if (thread.status === 'EVIDENCE' && last?.author && sideOf(thread, id) !== sideOf(thread, last.author)) score += 1;
    score -= rotation * 0.01; // stable tie-break that rotates with the debate
    if (score > bestScore) {
      bestScore = score;
      best = id;
    }
  });
  return best;
}

/** What the protocol needs from `agent` in the thread's current stage. */
export function askFor(
  state: CruxState,
  thread: ThreadState,
  agent: string,
  entries: readonly TranscriptEntry[],
): Ask | null {
  switch (thread.status) {
    case 'DISCOVERY': {
      const authors = new Set([...thread.discoveryAuthors, agent]);
      const messages = thread.messages.DISCOVERY;
      const left = thread.budgets.DISCOVERY - messages;
      const canExit = messages + 1 >= state.config.earlyExitMinMessages && authors.size >= 2;
      if (canExit || (left <= 2 && !thread.binaryQuestion)) return { kind: 'PROPOSE_CRUX' };
      return { kind: 'DISCUSS' };
    }
    case 'CRUX_LOCK':
      return lockAsk(state, thread, agent);
    case 'EVIDENCE': {
      const mySide = sideOf(thread, agent);
      // Only evidence is challenged, and only once by each agent: a concession, a proposal or a
      // definition is not evidence, and asking again after an answer invites repetition.
      const answered = new Set(
        entries.filter((e) => e.accepted && e.author === agent && e.replyTo).map((e) => e.replyTo),
      );
      const evidence = entries.filter(
        (e) =>
          e.accepted && e.author !== null && e.author !== agent && e.move === 'PROVIDE_EVIDENCE' && !answered.has(e.id),
      );
      const target = [...evidence].reverse().find((e) => {
        const theirs = sideOf(thread, e.author as string);
        return (
          isDecided(theirs ?? undefined) &&
          isDecided(mySide ?? undefined) &&
          theirs !== mySide &&
          (state.replyCounts[e.id] ?? 0) < state.config.maxReplies
        );
      });
      const understands = target
        ? thread.steelmans.some((s) => s.from === agent && s.to === target.author && s.grade === 'ACCURATE')
        : false;
      if (target && (understands || !isDecided(mySide ?? undefined))) {
        return { kind: 'CHALLENGE_EVIDENCE', replyTo: target.id, author: target.author as string };
      }
      const opponent = state.agents.find(
        (a) => a.id !== agent && thread.falsifiers[a.id] && sideOf(thread, a.id) !== mySide,
      );
      return opponent ? { kind: 'PROVIDE_EVIDENCE', targetFalsifierOf: opponent.id } : { kind: 'PROVIDE_EVIDENCE' };
    }
    default:
      return null;
  }
}
