import type { CallPlan, PlannedCalls } from '../engine/cost-plan';
import type { ModelTier } from '../ports/llm';
import type { ArenaConfig } from './config';
import type { ArenaSetup } from './live/setup';
import { pairingAgents, type TournamentIdea, tournamentPairings } from './tournament';

/**
 * How many calls an arena makes, before it starts, by answer shape (the request's `schemaName`, the
 * token table's kind): the likely case and what the settings allow at most. A tournament is the sum
 * of its head-to-head arenas. The one plan of the arena: the CLI's `--estimate`, the app's
 * `arenas:estimate` (the start form, the library's tournament form) and a start's preview all price
 * it (core/node/arena/arena-estimate.ts).
 */

export interface ArenaPlanInput {
  config: ArenaConfig;
  /** The tier of each agent, in order. */
  agents: readonly ModelTier[];
  judge: ModelTier;
  /** The trickster's tier, when it is on. */
  trickster: ModelTier | null;
}

/** Revision rounds an arena likely takes before its proposals agree (or the rounds run out). */
const LIKELY_REVISION_ROUNDS = 2;

/**
 * Extended rounds an arena likely needs. Two agents who may not vote for themselves can never reach
 * consensus (each vote is 1–1), so a head-to-head ends on a clear lead or runs extended rounds; with
 * three agents or more most arenas end on a consensus.
 */
const likelyExtendedRounds = (n: number, config: ArenaConfig) =>
  Math.min(config.maxExtendedRounds, n === 2 && !config.selfVote ? 1 : 0.25);

export function planArena(input: ArenaPlanInput): CallPlan {
  const { config } = input;
  const n = input.agents.length;
  const revisions = Math.min(LIKELY_REVISION_ROUNDS, config.revisionRounds);
  // The refinement follows when the revision rounds run out without agreement: about half the time.
  const refinement = revisions < config.revisionRounds ? 0.5 : 1;
  const extended = likelyExtendedRounds(n, config);
  const challenge = config.trickster ? 0.3 : 0;
  const judged = config.similarity === 'judged';

  const perAgent = (kind: string, likely: number, worst: number): PlannedCalls[] =>
    [...new Set(input.agents)].map((tier) => {
      const count = input.agents.filter((t) => t === tier).length;
      return { kind, tier, likely: likely * count, worst: worst * count };
    });
  const calls: PlannedCalls[] = [
    ...perAgent('arena_proposal', 1, 1),
    ...perAgent('arena_critiques', 1, 1),
    ...perAgent(
      'arena_revision',
      revisions + refinement + extended + challenge,
      config.revisionRounds + 1 + config.maxExtendedRounds + (config.trickster ? 1 : 0),
    ),
    ...perAgent('arena_vote', 1 + extended + challenge, 1 + config.maxExtendedRounds + (config.trickster ? 1 : 0)),
    { kind: 'arena_judgment', tier: input.judge, likely: 1 + extended, worst: 1 + config.maxExtendedRounds },
  ];
  if (judged)
    calls.push({ kind: 'arena_similarity', tier: input.judge, likely: revisions, worst: config.revisionRounds });
  if (input.trickster !== null && config.trickster)
    calls.push({ kind: 'arena_challenge', tier: input.trickster, likely: challenge, worst: 1 });
  const likelyCalls = calls.reduce((s, c) => s + c.likely, 0);
  const worstCalls = calls.reduce((s, c) => s + c.worst, 0);
  return {
    protocol: 'arena',
    size: n,
    calls,
    basis:
      `about ${Math.round(likelyCalls)} calls for ${n} agents: proposals, critiques, ${revisions} revision round(s)` +
      `${judged ? ' each judged for agreement' : ''}, a vote and a judgment` +
      `${extended >= 0.5 ? `, and likely ${Math.round(extended)} extended round(s)` : ''}; ` +
      `at most ${worstCalls} calls (every revision round, the refinement, ${config.maxExtendedRounds} extended round(s)${config.trickster ? ', a challenge and a re-vote' : ''})`,
  };
}

/** Plans added up: what a tournament of several arenas calls, kind by kind and tier by tier. */
export function sumPlans(plans: readonly CallPlan[], basis: string): CallPlan {
  const merged = new Map<string, PlannedCalls>();
  for (const plan of plans)
    for (const c of plan.calls) {
      const key = `${c.kind}|${c.tier ?? ''}`;
      const had = merged.get(key);
      merged.set(key, had ? { ...had, likely: had.likely + c.likely, worst: had.worst + c.worst } : { ...c });
    }
  const size = plans[0]?.size ?? 2;
  if (plans.some((p) => p.size !== size)) throw new Error('plans of arenas of different sizes cannot be summed');
  return { protocol: plans[0]?.protocol ?? 'arena', size, calls: [...merged.values()], basis };
}

/** The plan of an arena as its setup has it: its agents' tiers, the judge's, the trickster's when on. */
export function arenaPlanOf(setup: Pick<ArenaSetup, 'agents' | 'judge' | 'trickster' | 'config'>): CallPlan {
  return planArena({
    config: setup.config,
    agents: setup.agents.map((a) => a.tier),
    judge: setup.judge.tier,
    trickster: setup.config.trickster ? (setup.trickster?.tier ?? null) : null,
  });
}

/** A tournament's plan: every meeting's (its two champions at their tiers), added up. */
export function planTournament(input: {
  ideas: readonly TournamentIdea[];
  /** A champion's tier, by persona id. */
  tierOf: (persona: string) => ModelTier;
  judge: ModelTier;
  trickster: ModelTier | null;
  config: ArenaConfig;
}): CallPlan {
  const pairings = tournamentPairings(input.ideas.map((i) => i.slug));
  const plans = pairings.map((pairing) =>
    planArena({
      config: input.config,
      agents: pairingAgents(input.ideas, pairing).map(input.tierOf),
      judge: input.judge,
      trickster: input.trickster,
    }),
  );
  const n = plans.length;
  return sumPlans(
    plans,
    `${n} head-to-head arena${n === 1 ? '' : 's'}, every pair of the ${input.ideas.length} ideas once; each ${plans[0]?.basis ?? ''}`,
  );
}
