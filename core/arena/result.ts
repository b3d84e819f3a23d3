import { eloAfter, ELO_START, voteBrierScores } from './elo';
import type { HollowReport } from './hollow';
import { type ArenaOutcome, type ArenaState, activeIds, agentIds, lastJudgment, lastVote } from './state';
import type { VoteOutcome } from './votes';

/** The arena's result as the replay prints it and tests compare it (ARENA-PROTOCOL.md, "Scripts for tests"). */
export interface ArenaResult {
  topic: string;
  outcome: ArenaOutcome;
  earlyConsensus: boolean;
  convergence: { round: number; score: number; measure: string }[];
  consensus: VoteOutcome;
  firstVote?: VoteOutcome;
  judge: { scores: Record<string, number>; ranking: string[] };
  hollow?: HollowReport;
  elo: { before: Record<string, number>; after: Record<string, number> };
  voteBrier: Record<string, number>;
  counters: { calls: number; critiques: number; changes: number; adoptions: number; extendedRounds: number };
  /** The agents that left the arena, each with why (only when one did). */
  withdrawn?: Record<string, string>;
}

/** Scores and shares to 4 decimals, ratings to 1: enough to read, and stable to compare. */
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r1 = (x: number) => Math.round(x * 10) / 10;
const mapValues = (o: Record<string, number>, f: (x: number) => number) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/** Elo after a finished arena, unrounded: what the ratings fold carries from one arena to the next. */
export function arenaElo(state: ArenaState): { before: Record<string, number>; after: Record<string, number> } {
  const before = Object.fromEntries(agentIds(state).map((a) => [a, state.ratings[a] ?? ELO_START]));
  const judgment = lastJudgment(state);
  if (!judgment) return { before, after: before };
  // Only the agents still in the arena play its games; one that left keeps its rating.
  const ids = activeIds(state);
  const scores = Object.fromEntries(ids.map((a) => [a, judgment.scores[a]?.overall ?? 0]));
  return { before, after: { ...before, ...eloAfter(ids, scores, before, state.config.eloK) } };
}

/** The result of an arena that has an outcome; null while it runs or when it stopped short. */
export function arenaResult(state: ArenaState): ArenaResult | null {
  const vote = lastVote(state);
  const judgment = lastJudgment(state);
  if (state.outcome === null || !vote || !judgment) return null;
  const ids = activeIds(state);
  const challenged = state.votes.some((v) => v.pass === 'T');
  const firstVote = challenged ? state.votes[state.votes.length - 2]?.outcome : undefined;
  const changes = state.revisions.flatMap((r) => r.changes);
  const elo = arenaElo(state);
  const winner = judgment.ranking[0] ?? '';
  const hollow = state.config.trickster
    ? (() => {
        const h = state.hollow ?? { detected: false, reasons: [] };
        return {
          ...h,
          ...(h.adoptionShare !== undefined ? { adoptionShare: r4(h.adoptionShare) } : {}),
          ...(h.evidenceShare !== undefined ? { evidenceShare: r4(h.evidenceShare) } : {}),
        };
      })()
    : undefined;
  return {
    topic: state.topic,
    outcome: state.outcome,
    earlyConsensus: state.earlyConsensus,
    convergence: state.convergence.map((c) => ({ round: c.round, score: r4(c.score), measure: c.measure })),
    consensus: vote.outcome,
    ...(firstVote ? { firstVote } : {}),
    judge: {
      scores: Object.fromEntries(ids.map((a) => [a, judgment.scores[a]?.overall ?? 0])),
      ranking: judgment.ranking,
    },
    ...(hollow ? { hollow } : {}),
    elo: { before: mapValues(elo.before, r1), after: mapValues(elo.after, r1) },
    voteBrier: mapValues(voteBrierScores(vote.ballots, winner), r4),
    counters: {
      calls: state.calls,
      critiques: state.critiques.length,
      changes: changes.length,
      adoptions: changes.filter((c) => 'adopted' in c.because).length,
      extendedRounds: state.extendedRounds,
    },
    ...(Object.keys(state.withdrawn ?? {}).length > 0 ? { withdrawn: { ...state.withdrawn } } : {}),
  };
}
