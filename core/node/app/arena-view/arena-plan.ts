import type { ArenaConfig } from '../../../arena/config';
import type { CallPlan, PlannedCalls } from '../../../engine/cost-plan';
import type { ModelTier } from '../../../ports/llm';

/**
 * How many calls an arena makes, before it starts (ARENA-PROTOCOL.md): every agent proposes,
 * critiques, revises each revision round, and votes; the judge scores once (and measures agreement
 * after each revision round when the measure is judged); the trickster challenges at most once.
 * The likely case is the simulator's and the shared examples': the proposals agree after about two
 * revision rounds half the time (the other half needs the refinement), a third of the consensuses
 * with the trickster on are hollow, and an extended round is rare. The worst case runs every
 * revision round, the refinement, the trickster's round and every extended round.
 */

export interface ArenaPlanInput {
  /** Each agent's tier, in the arena's order. */
  agents: readonly ModelTier[];
  judge: ModelTier;
  /** Null when the trickster is off. */
  trickster: ModelTier | null;
  config: Pick<ArenaConfig, 'similarity' | 'revisionRounds' | 'maxExtendedRounds'>;
}

/** Revision rounds an arena likely runs before its proposals agree (or the rounds run out). */
const LIKELY_REVISION_ROUNDS = 2;
/** Arenas that need the refinement (no early agreement). */
const REFINEMENT_SHARE = 0.5;
/** Consensuses the trickster finds hollow. */
const HOLLOW_SHARE = 1 / 3;
/** Extended rounds an arena likely runs (most end at their first judgment). */
const LIKELY_EXTENDED = 0.25;

export function planArena(input: ArenaPlanInput): CallPlan {
  const { config } = input;
  const n = input.agents.length;
  const rounds = config.revisionRounds;
  const likelyRounds = Math.min(rounds, LIKELY_REVISION_ROUNDS);
  const extended = config.maxExtendedRounds;
  const likelyExtended = Math.min(extended, LIKELY_EXTENDED);
  const hollow = input.trickster === null ? 0 : HOLLOW_SHARE;
  const tricksterRounds = input.trickster === null ? 0 : 1;
  const judged = config.similarity === 'judged';

  // Calls every agent makes, split by tier so each is priced at its own model.
  const byTier = new Map<ModelTier, number>();
  for (const tier of input.agents) byTier.set(tier, (byTier.get(tier) ?? 0) + 1);
  const perAgent = (kind: string, likely: number, worst: number): PlannedCalls[] =>
    [...byTier.entries()].map(([tier, k]) => ({ kind, likely: likely * k, worst: worst * k, tier }));

  const calls: PlannedCalls[] = [
    ...perAgent('proposal', 1, 1),
    ...perAgent('critique', 1, 1),
    ...perAgent('revision', likelyRounds + hollow + likelyExtended, rounds + tricksterRounds + extended),
    ...perAgent('refinement', REFINEMENT_SHARE, 1),
    ...perAgent('vote', 1 + hollow + likelyExtended, 1 + tricksterRounds + extended),
    ...(judged ? [{ kind: 'similarity', likely: likelyRounds, worst: rounds, tier: input.judge }] : []),
    ...(input.trickster !== null ? [{ kind: 'trickster', likely: hollow, worst: 1, tier: input.trickster }] : []),
    { kind: 'judge', likely: 1 + likelyExtended, worst: 1 + extended, tier: input.judge },
  ];
  const likely = Math.round(calls.reduce((s, c) => s + c.likely, 0));
  const worst = calls.reduce((s, c) => s + c.worst, 0);
  return {
    protocol: 'arena',
    size: n,
    calls,
    basis:
      `about ${likely} calls: ${n} proposals, ${n} critique lists, about ${likelyRounds} revision round${likelyRounds === 1 ? '' : 's'} of ${n}` +
      `${judged ? ' each with the judge measuring agreement' : ''}, ${n} votes and the judge` +
      `${input.trickster !== null ? ', and now and then the trickster’s challenge with a revision and a re-vote' : ''}; ` +
      `at most ${worst} calls with all ${rounds} revision round${rounds === 1 ? '' : 's'}, the refinement` +
      `${input.trickster !== null ? ', the trickster’s round' : ''} and ${extended} extended round${extended === 1 ? '' : 's'}`,
  };
}
