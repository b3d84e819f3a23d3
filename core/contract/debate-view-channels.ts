/**
 * Crux maps (stored node positions), the cross-debate crux and falsifier ledger, transcript search.
 * Spread into `channels` and `pushEvents` of core/contract.ts; each entry is
 * `'<area>:<verb>': { input: zod, output: zod }` as there.
 */
export const debateViewChannels = {} as const;

export const debateViewPushEvents = {} as const;
