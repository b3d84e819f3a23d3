// The arena protocol: a pure state machine (`step`, `arenaAsks`) plus the replay driver that tests it.

export * from './answers';
export * from './config';
export { eloAfter, ELO_START, expectedScore, voteBrierScores } from './elo';
export { ArenaInputError } from './errors';
export type { AfterChallenge, HollowReason, HollowReport } from './hollow';
export { checkHollow, HOLLOW_REASONS } from './hollow';
export type { ArenaAsk, ArenaInput } from './inputs';
export { describeAsk } from './inputs';
export type { ArenaReplayRun } from './replay';
export { replayArena, runArenaReplay } from './replay';
export type { ArenaResult } from './result';
export { arenaElo, arenaResult } from './result';
export { jaccard, lexicalScore, lexicalTerms, lexicalTokens } from './similarity';
export * from './state';
export type { ArenaEvent } from './step';
export { answers, arenaAsks, arenaDone, step } from './step';
export type { Ballot, VoteOutcome } from './votes';
export { clearLead, countVotes, rankByScores } from './votes';
export { ScriptError } from '../text/script-lines';
