import { z } from 'zod';
import { SEVERITIES } from '../arena/answers';
import { CONSENSUS_LEVELS, SIMILARITY_MEASURES } from '../arena/config';
import { HOLLOW_REASONS } from '../arena/hollow';
import { MAX_TOURNAMENT_IDEAS } from '../arena/tournament';
import { PROVIDERS, runEstimateSchema } from './entities';
import { runIdSchema, slugSchema } from './ids';
import { runEntrySchema, runStatusSchema } from './runs-channels';

/**
 * `arenas:*`: arenas (ARENA-PROTOCOL.md): start one about an idea or a topic, see what it would
 * cost, read one as the arena view draws it, and the ratings its completed runs fold into. An arena
 * runs through the general run service like any registered protocol, so pause, resume and stop are
 * `runs:*`, and its status is the one `run:status` push. docs/ui-arena.md says why each view is
 * shaped so. Spread into `channels` of core/contract.ts.
 */

export { MAX_TOURNAMENT_IDEAS };

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1);

/**
 * What to put in an arena: the input of `arenas:start` and `arenas:estimate`. With `ideas` it is a
 * tournament (ARENA-PROTOCOL.md, "Ratings"): every pair of those ideas meets once in a head-to-head
 * arena, `agents` are their champions in the ideas' order, and the budget is for all its arenas.
 */
export const arenaRequestSchema = z
  .strictObject({
    ideaSlug: slugSchema.optional(),
    topic: z.string().trim().min(1).max(1000).optional(),
    /** A tournament of these ideas (2 to 8), each championed by the agent at the same place in `agents`. */
    ideas: z
      .array(slugSchema)
      .min(2, `a tournament needs 2 to ${MAX_TOURNAMENT_IDEAS} ideas`)
      .max(MAX_TOURNAMENT_IDEAS, `a tournament needs 2 to ${MAX_TOURNAMENT_IDEAS} ideas`)
      .optional(),
    agents: z.array(z.string().min(1)).min(2, 'an arena needs 2 to 12 agents').max(12, 'an arena needs 2 to 12 agents'),
    /** A persona of role `judge`. */
    judge: z.string().min(1).default('judge'),
    /** Check a consensus for hollowness, and challenge it once when it is. */
    trickster: z.boolean().default(false),
    /** How agreement is measured; by default lexical with the simulator, judged with a model. */
    similarity: z.enum(SIMILARITY_MEASURES).optional(),
    provider: z.enum(PROVIDERS),
    seed: z.number().int().nonnegative().optional(),
    /** The most it may spend (USD); 0: no cap. The settings page's debate budget by default. */
    budgetUsd: z.number().nonnegative().optional(),
  })
  .refine((request) => request.ideaSlug !== undefined || request.topic !== undefined || request.ideas !== undefined, {
    message: 'an arena needs an idea (ideaSlug) or a topic',
    path: ['topic'],
  })
  .refine((request) => request.ideas === undefined || (request.ideaSlug === undefined && request.topic === undefined), {
    message: 'a tournament (ideas) asks its own question: give no ideaSlug or topic with it',
    path: ['ideas'],
  })
  .refine((request) => request.ideas === undefined || request.ideas.length === request.agents.length, {
    message: 'a tournament has one champion per idea: as many agents as ideas, in the same order',
    path: ['agents'],
  });
export type ArenaRequest = z.infer<typeof arenaRequestSchema>;

export const arenaEstimateSchema = runEstimateSchema;
export type ArenaEstimate = z.infer<typeof arenaEstimateSchema>;

// ---- one arena ---------------------------------------------------------------------------------------

const evidenceSchema = z.strictObject({ source: z.string(), quote: z.string() });

/** A run of words of a text diffed against the previous version's. */
export const diffPartSchema = z.strictObject({ op: z.enum(['same', 'added', 'removed']), text: z.string() });
export type DiffPart = z.infer<typeof diffPartSchema>;

export const arenaClaimSchema = z.strictObject({
  id: z.string(),
  text: z.string(),
  evidence: z.array(evidenceSchema),
  /** Against the previous version: new, reworded or kept; null in the first version. */
  change: z.enum(['new', 'changed', 'same']).nullable(),
});

/** Why an agent changed its proposal: a critique's id, the agent whose idea it took up, or its own words. */
export const arenaChangeSchema = z.strictObject({
  what: z.string(),
  because: z.enum(['critique', 'adopted', 'own']),
  /** The critique id, the agent id, or the agent's own reason. */
  ref: z.string(),
});

export const arenaVersionSchema = z.strictObject({
  /** `1` (the proposal), `3`–`5` (revisions), `6` (the refinement), `T` (after the challenge), `X1`… (extended rounds). */
  round: z.string(),
  /** The round in words: "proposal", "revision 3", "refinement", "after the challenge", "extended round 1". */
  label: z.string(),
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  claims: z.array(arenaClaimSchema),
  /** Claim ids the previous version had and this one dropped. */
  droppedClaims: z.array(z.string()),
  confidence: share,
  /** What changed and why (empty for the proposal). */
  changes: z.array(arenaChangeSchema),
  /** Critiques of this agent's proposal that this version says it answers. */
  addressed: z.array(z.string()),
  /** The title, summary and body against the previous version, word by word; null for the proposal. */
  diff: z
    .strictObject({
      title: z.array(diffPartSchema),
      summary: z.array(diffPartSchema),
      body: z.array(diffPartSchema),
    })
    .nullable(),
});
export type ArenaVersion = z.infer<typeof arenaVersionSchema>;

export const arenaCritiqueSchema = z.strictObject({
  /** `c2-<author>-<k>`. */
  id: z.string(),
  author: z.string(),
  target: z.string(),
  /** The id of the target's claim it is about, or null when it is about the proposal as a whole. */
  claim: z.string().nullable(),
  severity: z.enum(SEVERITIES),
  text: z.string(),
  fix: z.string().nullable(),
  /** The round of the first version of the target's proposal that listed it as answered, or null. */
  addressedIn: z.string().nullable(),
});
export type ArenaCritique = z.infer<typeof arenaCritiqueSchema>;

export const arenaAgentSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** Every version of its proposal, oldest first. */
  versions: z.array(arenaVersionSchema),
  /** The critiques of its proposal, in the order they were made. */
  critiques: z.array(arenaCritiqueSchema),
  /**
   * Why it left the arena (an answer of its could not be had), or null while it is in it. What it
   * answered before stays; from then on it is asked nothing, voted on, scored or rated.
   */
  left: z.string().nullable(),
});
export type ArenaAgentView = z.infer<typeof arenaAgentSchema>;

export const arenaVoteSchema = z.strictObject({
  /** `main` (round 7), `T` (the re-vote after the trickster's challenge), `X1`… (an extended round's). */
  pass: z.string(),
  ballots: z.array(z.strictObject({ agent: z.string(), vote: z.string(), confidence: share, reason: z.string() })),
  /** Proposals with at least one vote, leader first. */
  tally: z.array(z.strictObject({ agent: z.string(), votes: count })),
  leader: z.string(),
  level: z.enum(CONSENSUS_LEVELS),
  /** Whether the level is at least the one the arena asks for. */
  reached: z.boolean(),
});
export type ArenaVoteView = z.infer<typeof arenaVoteSchema>;

export const arenaJudgmentSchema = z.strictObject({
  pass: z.string(),
  /** In ranking order. */
  scores: z.array(z.strictObject({ agent: z.string(), overall: z.number().min(0).max(10), reasons: z.string() })),
  ranking: z.array(z.string()),
  summary: z.string(),
  /** The first score's lead over the second (a lead of 1.0 or more decides a split vote). */
  lead: z.number(),
});
export type ArenaJudgmentView = z.infer<typeof arenaJudgmentSchema>;

/** The trickster's four checks with the numbers behind them (null numbers: the check has not run). */
export const arenaHollowSchema = z.strictObject({
  /** False when no vote has reached consensus yet: the checks run after the first one that does. */
  ran: z.boolean(),
  detected: z.boolean(),
  reasons: z.array(z.enum(HOLLOW_REASONS)),
  adoptionShare: share.nullable(),
  adopters: count.nullable(),
  unaddressedCritical: z.array(z.string()),
  evidenceShare: share.nullable(),
  critiqueChanges: count.nullable(),
  convergedIn: z.number().int().nullable(),
  /** After the challenge and the re-vote: the consensus held, moved to another proposal, or broke. */
  afterChallenge: z.enum(['held', 'moved', 'broken']).nullable(),
});
export type ArenaHollowView = z.infer<typeof arenaHollowSchema>;

/** An idea of a tournament and the debater persona that argues for it in every one of its arenas. */
export const tournamentIdeaViewSchema = z.strictObject({ slug: z.string(), title: z.string(), champion: z.string() });

/** Which meeting of which tournament an arena is: its two ideas, among all of the tournament's. */
export const arenaTournamentViewSchema = z.strictObject({
  id: z.string(),
  ideas: z.array(tournamentIdeaViewSchema),
  pairing: z.tuple([z.string(), z.string()]),
  /** Its place in the schedule (1-based) and the schedule's length. */
  index: z.number().int().positive(),
  of: z.number().int().positive(),
});
export type ArenaTournamentView = z.infer<typeof arenaTournamentViewSchema>;

export const arenaDetailSchema = z.strictObject({
  id: z.string(),
  ideaSlug: z.string().nullable(),
  /** The question every agent answers. */
  topic: z.string(),
  status: runStatusSchema,
  /** Why it stopped, when its log says. */
  reason: z.string().nullable(),
  live: z.boolean(),
  provider: z.string().nullable(),
  costUsd: z.number().nonnegative(),
  startedAt: z.string(),
  /** Records in its log: a view that polls a running arena redraws only when this grows. */
  records: count,
  judge: z.strictObject({ id: z.string(), name: z.string() }),
  trickster: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  settings: z.strictObject({
    similarity: z.enum(SIMILARITY_MEASURES),
    convergenceThreshold: share,
    consensus: z.enum(CONSENSUS_LEVELS),
    revisionRounds: count,
    maxExtendedRounds: count,
    eloK: z.number().positive(),
  }),
  /** What it is waiting for, in words ("ana's revision (round 4)"); empty once it has ended. */
  waitingFor: z.array(z.string()),
  agents: z.array(arenaAgentSchema),
  /** The agreement score after each revision round, with the measure that gave it. */
  convergence: z.array(
    z.strictObject({
      round: count,
      score: share,
      measure: z.enum(SIMILARITY_MEASURES),
      /** At or over the threshold: the revision rounds stopped early. */
      converged: z.boolean(),
    }),
  ),
  earlyConsensus: z.boolean(),
  votes: z.array(arenaVoteSchema),
  challenge: z.strictObject({ target: z.string(), text: z.string() }).nullable(),
  /** Null when the trickster is off. */
  hollow: arenaHollowSchema.nullable(),
  judgments: z.array(arenaJudgmentSchema),
  outcome: z.enum(['CONSENSUS', 'JUDGED', 'SPLIT']).nullable(),
  /** Elo from before the arena (as its header took it) and after it, by agent; null until it has an outcome. */
  elo: z.strictObject({ before: z.record(z.string(), z.number()), after: z.record(z.string(), z.number()) }).nullable(),
  /** Each agent's last vote scored against the final ranking (0 best, 1 worst); null until it has an outcome. */
  voteBrier: z.record(z.string(), z.number()).nullable(),
  counters: z.strictObject({ calls: count, critiques: count, changes: count, adoptions: count, extendedRounds: count }),
  /** Set when the arena is one meeting of a tournament of ideas: its agents are the two ideas' champions. */
  tournament: arenaTournamentViewSchema.nullable(),
});
export type ArenaDetail = z.infer<typeof arenaDetailSchema>;

// ---- ratings -------------------------------------------------------------------------------------------

export const ratingPointSchema = z.strictObject({
  arenaId: z.string(),
  /** When the arena completed: the fold's order. */
  at: z.string(),
  topic: z.string(),
  ideaSlug: z.string().nullable(),
  before: z.number(),
  after: z.number(),
  /** Its place in the judge's ranking (1 is first) among `of`. */
  rank: z.number().int().positive(),
  of: z.number().int().positive(),
});
export type RatingPoint = z.infer<typeof ratingPointSchema>;

export const arenaPersonaRatingSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  elo: z.number(),
  arenas: count,
  /** Arenas it was ranked first in. */
  wins: count,
  /** Votes scored against the final ranking, and their mean Brier score (null before the first). */
  votes: count,
  voteBrier: z.number().min(0).max(1).nullable(),
  /** Its rating after each completed arena it took part in, in order. */
  history: z.array(ratingPointSchema),
});
export type ArenaPersonaRating = z.infer<typeof arenaPersonaRatingSchema>;

export const arenaIdeaRatingSchema = z.strictObject({
  slug: z.string(),
  title: z.string(),
  elo: z.number(),
  /** Head-to-head arenas it played, and how they went by the judge's final scores. */
  arenas: count,
  wins: count,
  draws: count,
  losses: count,
  /** Tournaments it took part in. */
  tournaments: count,
  /** The debater personas that championed it, in the order they first did. */
  champions: z.array(z.string()),
  /** Its rating after each completed arena it played (`ideaSlug` is the idea itself; `rank` of 2, ties shared). */
  history: z.array(ratingPointSchema),
});
export type ArenaIdeaRating = z.infer<typeof arenaIdeaRatingSchema>;

export const arenaRatingsSchema = z.strictObject({
  /** Persona Elo, best first. */
  personas: z.array(arenaPersonaRatingSchema),
  /** Idea Elo from tournaments (ideas as contestants), best first; empty while no tournament has completed. */
  ideas: z.array(arenaIdeaRatingSchema),
  /** Completed arenas folded into persona Elo (those of tournaments rate ideas instead). */
  counted: count,
  /** Completed arenas of tournaments folded into idea Elo. */
  tournamentCounted: count,
  /** Arenas that count for nothing, by status (cancelled, failed, partial, and any not finished). */
  leftOut: z.array(z.strictObject({ status: z.string(), arenas: count })),
  /** Logs that could not be read. */
  errors: z.array(z.strictObject({ file: z.string(), reason: z.string() })),
});
export type ArenaRatings = z.infer<typeof arenaRatingsSchema>;

/** A tournament's schedule: every meeting with its arena (once started) and how it went. */
export const tournamentScheduleSchema = z.strictObject({
  id: z.string(),
  ideas: z.array(tournamentIdeaViewSchema),
  meetings: z.array(
    z.strictObject({
      index: z.number().int().positive(),
      pairing: z.tuple([z.string(), z.string()]),
      /** The arena's run id; null while the meeting has not started. */
      run: z.string().nullable(),
      status: runStatusSchema.nullable(),
      live: z.boolean(),
      outcome: z.enum(['CONSENSUS', 'JUDGED', 'SPLIT']).nullable(),
      /** The idea whose champion the judge ranked first; null until judged. */
      winner: z.string().nullable(),
      /** The judge's last scores by idea (0–10); null until judged. */
      scores: z.record(z.string(), z.number()).nullable(),
      costUsd: z.number().nonnegative(),
    }),
  ),
  /**
   * This app is playing it: the next meeting starts when the one before it ends. False once every
   * meeting has been played, after one was stopped, or when the app that played it closed.
   */
  playing: z.boolean(),
  costUsd: z.number().nonnegative(),
});
export type TournamentSchedule = z.infer<typeof tournamentScheduleSchema>;

export const arenasChannels = {
  /** What an arena (or a tournament: all its arenas) would likely cost; starts nothing, creates no file. */
  'arenas:estimate': { input: arenaRequestSchema, output: arenaEstimateSchema },
  /**
   * Starts an arena and answers at once, once its log is begun; it runs on in the background
   * through the general run service, and `run:status` follows it (`runs:*` pause, resume, stop it).
   */
  'arenas:start': {
    input: arenaRequestSchema,
    output: z.strictObject({
      /** The arena started; of a tournament, its first meeting (the others follow it, one at a time). */
      run: runEntrySchema,
      estimate: arenaEstimateSchema,
      /** The tournament's id when the request named ideas, else null. */
      tournament: z.string().nullable(),
    }),
  },
  /** One arena as its log has it so far: proposals and revisions, critiques, convergence, votes, judge, hollow checks. */
  'arenas:get': { input: z.strictObject({ id: runIdSchema }), output: arenaDetailSchema },
  /** A tournament's meetings as their logs and this app have them: which started, how each ended, who won. */
  'arenas:tournament': {
    input: z.strictObject({ id: z.string().regex(/^[a-z0-9]+$/, 'a tournament id is lower-case letters and digits') }),
    output: tournamentScheduleSchema,
  },
  /** Persona Elo with its history per arena, and idea Elo, folded from the completed arena logs (never the index). */
  'arenas:ratings': { input: z.strictObject({}), output: arenaRatingsSchema },
} as const;
