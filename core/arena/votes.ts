import { type ConsensusLevel, levelReaches } from './config';

/** One agent's vote as the arena keeps it. */
export interface Ballot {
  vote: string;
  confidence: number;
  reason: string;
}

/** A vote's outcome, as the result shows it (`consensus`, `firstVote`). */
export interface VoteOutcome {
  level: ConsensusLevel;
  reached: boolean;
  leader: string;
  /** Proposals with at least one vote, leader first. */
  tally: Record<string, number>;
}

/**
 * Counts one vote. The leading proposal has the most votes; ties go to the larger sum of its voters'
 * confidence, then to the earlier agent. With V voters and the leader's count v: unanimous when
 * v = V, supermajority when v ≥ ⌈2V/3⌉, majority when v > V/2, else none.
 */
export function countVotes(
  agents: readonly string[],
  ballots: Readonly<Record<string, Ballot>>,
  needed: ConsensusLevel,
): VoteOutcome {
  const counts = new Map<string, { votes: number; confidence: number }>();
  const cast = agents.flatMap((a) => (ballots[a] ? [ballots[a]] : []));
  for (const b of cast) {
    const c = counts.get(b.vote) ?? { votes: 0, confidence: 0 };
    counts.set(b.vote, { votes: c.votes + 1, confidence: c.confidence + b.confidence });
  }
  const order = [...counts.keys()].sort((x, y) => {
    const a = counts.get(x) as { votes: number; confidence: number };
    const b = counts.get(y) as { votes: number; confidence: number };
    return b.votes - a.votes || b.confidence - a.confidence || agents.indexOf(x) - agents.indexOf(y);
  });
  const leader = order[0] ?? agents[0] ?? '';
  const v = counts.get(leader)?.votes ?? 0;
  const V = cast.length;
  const level: ConsensusLevel =
    V > 0 && v === V
      ? 'unanimous'
      : v >= Math.ceil((2 * V) / 3) && V > 0
        ? 'supermajority'
        : v > V / 2
          ? 'majority'
          : 'none';
  return {
    level,
    reached: levelReaches(level, needed),
    leader,
    tally: Object.fromEntries(order.map((id) => [id, counts.get(id)?.votes ?? 0])),
  };
}

/** The judge's ranking: by overall score, then by the last vote's tally, then by agent order. */
export function rankByScores(
  agents: readonly string[],
  scores: Readonly<Record<string, number>>,
  tally: Readonly<Record<string, number>>,
): string[] {
  return [...agents].sort(
    (x, y) =>
      (scores[y] ?? 0) - (scores[x] ?? 0) || (tally[y] ?? 0) - (tally[x] ?? 0) || agents.indexOf(x) - agents.indexOf(y),
  );
}

/** Whether the top score leads the second by at least 1.0 (differences read to 1e-9, so 7.3 − 6.3 counts). */
export function clearLead(ranking: readonly string[], scores: Readonly<Record<string, number>>): boolean {
  const [first, second] = ranking;
  if (first === undefined || second === undefined) return true;
  const lead = (scores[first] ?? 0) - (scores[second] ?? 0);
  return Math.round(lead * 1e9) / 1e9 >= 1;
}
