/**
 * Evaluations: start, progress, records, leaderboards (ideas and personas), dispute.
 * Spread into `channels` and `pushEvents` of core/contract.ts; each entry is
 * `'<area>:<verb>': { input: zod, output: zod }` as there.
 */
export const evaluationChannels = {} as const;

export const evaluationPushEvents = {} as const;
