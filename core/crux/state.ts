import type { AgendaItem } from './agenda';
import type { CruxConfig } from './config';
import type { PositionChange } from './conformity';
import { type CruxCounters, emptyCounters } from './counters';
import type { Falsifier } from './falsifier';
import type { CoalitionLabel, Commitment, Concession, CruxRecord, CruxRelation, LockedCrux, SteelmanPair } from './record-schemas';
import type {
  BlockReason,
  CruxChallenge,
  Horizon,
  InterventionKind,
  Move,
  Side,
  Stage,
  SteelmanGrade,
  ThreadStatus,
} from './vocabulary';

export type { CruxCounters } from './counters';
export type {
  CoalitionLabel,
  Commitment,
  Concession,
  CruxRecord,
  CruxRelation,
  Dcg,
  FinalPosition,
  LockedCrux,
  SteelmanPair,
} from './record-schemas';

// The whole debate as one plain JSON value: no classes, no Maps, no functions. That keeps it
// serializable, comparable with toEqual, and rebuildable later by folding the event log.
// Records keyed by agent id hold data only; whenever order matters the code walks `agents`.

export interface AgentProfile {
  id: string;
  name: string;
  /** Set only on the devil's advocate the debate brought in (./honesty.ts): it argues, it never commits. */
  role?: 'devils-advocate';
  topClaim?: { statement: string; side: Side; confidence: number };
  defaultHorizon?: Horizon;
  /** Keywords of what the agent cares about (its persona's, or the script's): what its attention follows (./attention.ts). */
  interests?: string[];
}

export interface TranscriptEntry {
  /** `m<n>` for agent messages (blocked ones included), `mod<n>` for the moderator. */
  id: string;
  thread: string;
  /** null for the moderator. */
  author: string | null;
  move: Move | null;
  content: string;
  replyTo?: string;
  meta?: Record<string, unknown>;
  /** The thread's status when the message arrived. */
  status: ThreadStatus;
  accepted: boolean;
  blockedReason?: BlockReason;
  /** What exactly was wrong, in words an agent can act on when it is asked again. */
  blockedDetail?: string;
  intervention?: InterventionKind;
  target?: string;
  /** Set on accepted messages that changed the author's side; evidence stability reads it. */
  sideChanged?: boolean;
}

/** An agent's current side in a thread: set by a commit, moved by updates and concessions. */
export interface Stance {
  side: Side;
  confidence?: number;
}

export interface SteelmanAttempt {
  from: string;
  to: string;
  grade: SteelmanGrade;
  /** STEELMAN messages for this from→to so far; the latest one is the live attempt. */
  attempts: number;
  /** The message that opened the live attempt; its number orders "latest PENDING". */
  messageId: string;
  openedAt: number;
  /** The live attempt's structure (claim, strongest reason, falsifier), when it gave one. */
  steelman?: SteelmanPair['steelman'];
  /** What the target said the live attempt missed, when it graded it short and said so. */
  corrections?: string;
}

export interface CandidateCrux {
  by: string;
  question: string;
  messageId: string;
}

export interface StageCounts {
  DISCOVERY: number;
  CRUX_LOCK: number;
  EVIDENCE: number;
}

export interface ThreadState {
  id: string;
  topic: string;
  status: ThreadStatus;
  binaryQuestion: string | null;
  /** `script` for a thread line (no gate), `spawn` for an accepted proposal. */
  origin: 'script' | 'spawn';
  proposedBy?: string;
  supporters?: string[];
  /** Current budgets, grown by extensions and lock retries. */
  budgets: StageCounts;
  /** Accepted agent messages per stage. */
  messages: StageCounts;
  discoveryAuthors: string[];
  discoveryExtensionsUsed: number;
  /** Counted lock attempts: failures plus the success, if any. */
  lockAttempts: number;
  lockFailureCount: number;
  lastLockFailures: string[];
  participants: string[];
  commitments: Record<string, Commitment>;
  stances: Record<string, Stance>;
  /** Each agent's latest *valid* falsifier in this thread. */
  falsifiers: Record<string, Falsifier>;
  steelmans: SteelmanAttempt[];
  horizonAlignmentIssued: boolean;
  /** Ids of the accepted EVIDENCE messages, in order: stability and orbiting windows. */
  evidenceMessages: string[];
  /** EVIDENCE message count at the last orbiting intervention (0 = none yet). */
  orbitMark: number;
  candidateCruxes: CandidateCrux[];
  concessions: Concession[];
  /** Every CONCEDE, and every UPDATE_POSITION that moved a side or a confidence, with what preceded it. */
  positionChanges: PositionChange[];
  lockedCrux: LockedCrux | null;
  /** Crystallization was requested and its analysis has not arrived yet. */
  awaitingAnalysis: boolean;
  /** A challenge of the crystallized crux waits for the crystallizer's review. */
  awaitingReview: { messageId: string; agent: string; challenge: CruxChallenge } | null;
  crux: CruxRecord | null;
  /**
   * Set on a MERGED thread: the thread it was merged into, because the cross-thread analysis found its
   * crux a duplicate (./relations.ts) or because it came to work on the same crux while open (./thread-merge.ts).
   */
  mergedInto?: string;
  /** Threads merged into this one while open, in order (./thread-merge.ts). */
  absorbed?: string[];
  /** messageSeq when the thread last had an accepted message, opened or came back: its inactivity clock (./staleness.ts). */
  lastActiveAt: number;
  /** On a thread gone STALE for inactivity: the stage it goes back to when something addresses it again. */
  staleFrom?: Stage;
  /**
   * The version of the crux (its number of reviews) a live debate last asked an agent to check, so
   * each version is put to an agent once (./crux-review.ts, `pendingCruxChecks`).
   */
  cruxChecked?: number;
}

export interface CruxState {
  topic: string;
  agents: AgentProfile[];
  config: CruxConfig;
  /** In creation order, which is also the order of the result's thread list. */
  threads: ThreadState[];
  transcript: TranscriptEntry[];
  /** Accepted direct replies per message id. */
  replyCounts: Record<string, number>;
  messageSeq: number;
  moderatorSeq: number;
  counters: CruxCounters;
  /** Thread ids in crystallization order. */
  crystallized: string[];
  primaryCrux: string | null;
  coalitionLabels: CoalitionLabel[];
  /** Set when a debate-level limit stopped the debate. */
  stoppedBy: string | null;
  /** What the cross-thread analysis found between pairs of crystallized cruxes, in the order proposed. */
  relations: CruxRelation[];
  /** messagesTotal when the last new crux appeared (a proposal, a spawned thread, a crystallization). */
  lastNewCruxAt: number;
  /** messagesTotal when the last thread was spawned. */
  lastSpawnAt: number;
  /** The coalitions' member sets and the irreducible cruxes, as last computed, and when they last changed. */
  coalitionsKey: string;
  coalitionsChangedAt: number;
  /** There are coalitions and an irreducible crux: what the "coalitions stable" rule needs. */
  coalitionsHold: boolean;
  /** The coalitions were labelled (a `coalition_labels` input arrived), so a live debate asks no more. */
  coalitionsLabelled: boolean;
  /** The agenda manager's current pick for each open thread (./agenda.ts). */
  agenda: Record<string, AgendaItem>;
}

export interface DebateSetup {
  topic: string;
  agents: AgentProfile[];
  config: CruxConfig;
}

export function createState(setup: DebateSetup): CruxState {
  return {
    topic: setup.topic,
    agents: setup.agents.map((a) => ({ ...a })),
    config: setup.config,
    threads: [],
    transcript: [],
    replyCounts: {},
    messageSeq: 0,
    moderatorSeq: 0,
    counters: emptyCounters(),
    crystallized: [],
    primaryCrux: null,
    coalitionLabels: [],
    stoppedBy: null,
    relations: [],
    lastNewCruxAt: 0,
    lastSpawnAt: 0,
    coalitionsKey: '',
    coalitionsChangedAt: 0,
    coalitionsHold: false,
    coalitionsLabelled: false,
    agenda: {},
  };
}

export function newThread(
  id: string,
  topic: string,
  binaryQuestion: string | null,
  config: CruxConfig,
  origin: ThreadState['origin'],
): ThreadState {
  return {
    id,
    topic,
    status: 'DISCOVERY',
    binaryQuestion,
    origin,
    budgets: { ...config.budgets },
    messages: { DISCOVERY: 0, CRUX_LOCK: 0, EVIDENCE: 0 },
    discoveryAuthors: [],
    discoveryExtensionsUsed: 0,
    lockAttempts: 0,
    lockFailureCount: 0,
    lastLockFailures: [],
    participants: [],
    commitments: {},
    stances: {},
    falsifiers: {},
    steelmans: [],
    horizonAlignmentIssued: false,
    evidenceMessages: [],
    orbitMark: 0,
    candidateCruxes: [],
    concessions: [],
    positionChanges: [],
    lockedCrux: null,
    awaitingAnalysis: false,
    awaitingReview: null,
    crux: null,
    lastActiveAt: 0,
  };
}

/** Open = still in one of the three stages (a thread awaiting its analysis is still open). */
export function isOpen(thread: ThreadState): boolean {
  return thread.status === 'DISCOVERY' || thread.status === 'CRUX_LOCK' || thread.status === 'EVIDENCE';
}

export function totalMessages(thread: ThreadState): number {
  return thread.messages.DISCOVERY + thread.messages.CRUX_LOCK + thread.messages.EVIDENCE;
}

export function findThread(state: CruxState, id: string): ThreadState | undefined {
  return state.threads.find((t) => t.id === id);
}

export function isAgent(state: CruxState, id: unknown): id is string {
  return typeof id === 'string' && state.agents.some((a) => a.id === id);
}
