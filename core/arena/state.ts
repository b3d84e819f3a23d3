import type {
  Change,
  CritiqueAnswer,
  ProposalAnswer,
  RevisionAnswer,
  Severity,
  TricksterAnswer,
  VoteAnswer,
} from './answers';
import type { ArenaConfig, SimilarityMeasure } from './config';
import type { HollowReport } from './hollow';
import type { Ballot, VoteOutcome } from './votes';

/** One contestant: an agent id (a persona in the app) and the name shown for it. */
export interface ArenaAgent {
  id: string;
  name: string;
}

/**
 * Where a proposal version or a revision comes from: 1 (the proposal), 3–5 (revision rounds), 6
 * (refinement), `T` (the revision after the trickster's challenge), `X1`, `X2` … (extended rounds).
 */
export type ArenaRound = number | 'T' | `X${number}`;

/** Which vote or judgment of the arena: the main one (rounds 7 and 8), the re-vote `T`, or an extended round's. */
export type ArenaPass = 'main' | 'T' | `X${number}`;

export interface ProposalVersion extends ProposalAnswer {
  round: ArenaRound;
}

export interface Critique {
  /** `c<round>-<author>-<k>`, k from 1 in the author's order. */
  id: string;
  author: string;
  target: string;
  claim?: string;
  severity: Severity;
  text: string;
  fix?: string;
}

/** What a revision-shaped answer (a revision, the refinement, T, an extended round) changed and answered. */
export interface RevisionRecord {
  agent: string;
  round: ArenaRound;
  changes: Change[];
  addressed: string[];
}

export interface ConvergencePoint {
  round: number;
  score: number;
  measure: SimilarityMeasure;
}

export interface VoteRound {
  pass: ArenaPass;
  ballots: Record<string, Ballot>;
  outcome: VoteOutcome;
}

export interface Judgment {
  pass: ArenaPass;
  scores: Record<string, { overall: number; reasons: string }>;
  summary: string;
  ranking: string[];
}

/** What the arena is waiting for. Per-agent stages collect every agent's answer before any counts. */
export type ArenaStage =
  | { kind: 'proposal' }
  | { kind: 'critique' }
  | { kind: 'revision'; round: ArenaRound }
  | { kind: 'similarity'; round: number }
  | { kind: 'refinement' }
  | { kind: 'vote'; pass: ArenaPass }
  | { kind: 'trickster' }
  | { kind: 'judge'; pass: ArenaPass }
  | { kind: 'done' };

export type AgentAnswer = ProposalAnswer | CritiqueAnswer | RevisionAnswer | VoteAnswer;

export type ArenaOutcome = 'CONSENSUS' | 'JUDGED' | 'SPLIT';

/** How a run ended short of its outcome (the runner's limits, a call that kept failing). */
export interface ArenaStop {
  status: 'partial' | 'failed';
  reason: string;
}

export interface ArenaState {
  topic: string;
  agents: ArenaAgent[];
  /** Who judges (and, with the judged measure, scores agreement). */
  judge: string;
  config: ArenaConfig;
  /**
   * Ratings from before the arena, by agent id (1500 when absent). In a tournament's arena the agents
   * stand for their ideas, and these are the ideas' ratings.
   */
  ratings: Record<string, number>;
  /** In a tournament's arena: the idea each agent champions, by agent id; null otherwise. */
  champions: Record<string, string> | null;
  stage: ArenaStage;
  /**
   * The answers of the current per-agent stage so far. They count only once the stage is complete,
   * so every request of a round is built from the same state, also when a run resumes mid-round.
   */
  buffer: Record<string, AgentAnswer>;
  /** Every version of each agent's proposal, oldest first. */
  proposals: Record<string, ProposalVersion[]>;
  critiques: Critique[];
  revisions: RevisionRecord[];
  convergence: ConvergencePoint[];
  earlyConsensus: boolean;
  votes: VoteRound[];
  /** The hollow-consensus check, once it has run. */
  hollow: HollowReport | null;
  challenge: TricksterAnswer | null;
  judgments: Judgment[];
  extendedRounds: number;
  /**
   * Agents that left the arena, each with why: an agent whose answer could not be had (its ask
   * failed three times) leaves, and the others go on without it. It is asked nothing more, counted
   * in no vote, scored by no judge, and its rating is left as it was.
   */
  withdrawn: Record<string, string>;
  /** Accepted answers, every kind included. */
  calls: number;
  outcome: ArenaOutcome | null;
  stopped: ArenaStop | null;
}

export interface ArenaSetupCore {
  topic: string;
  agents: ArenaAgent[];
  judge: string;
  config: ArenaConfig;
  ratings?: Record<string, number>;
  champions?: Record<string, string> | null;
}

export function createArena(setup: ArenaSetupCore): ArenaState {
  return {
    topic: setup.topic,
    agents: setup.agents.map((a) => ({ id: a.id, name: a.name })),
    judge: setup.judge,
    config: setup.config,
    ratings: { ...(setup.ratings ?? {}) },
    champions: setup.champions ? { ...setup.champions } : null,
    stage: { kind: 'proposal' },
    buffer: {},
    proposals: {},
    critiques: [],
    revisions: [],
    convergence: [],
    earlyConsensus: false,
    votes: [],
    hollow: null,
    challenge: null,
    judgments: [],
    extendedRounds: 0,
    withdrawn: {},
    calls: 0,
    outcome: null,
    stopped: null,
  };
}

export const agentIds = (state: Pick<ArenaState, 'agents'>): string[] => state.agents.map((a) => a.id);

/** The agents still in the arena (every agent but those that left), in agent order. */
export const activeIds = (state: Pick<ArenaState, 'agents' | 'withdrawn'>): string[] =>
  agentIds(state).filter((a) => !(a in (state.withdrawn ?? {})));

/** An agent's latest proposal version (the winning proposal is the leader's). */
export function currentProposal(state: Pick<ArenaState, 'proposals'>, agent: string): ProposalVersion | undefined {
  const versions = state.proposals[agent];
  return versions?.[versions.length - 1];
}

export function lastVote(state: Pick<ArenaState, 'votes'>): VoteRound | undefined {
  return state.votes[state.votes.length - 1];
}

export function lastJudgment(state: Pick<ArenaState, 'judgments'>): Judgment | undefined {
  return state.judgments[state.judgments.length - 1];
}
