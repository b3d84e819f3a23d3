/**
 * Settings (provider, key, models per role, prices, budgets, concurrency) and export of syntheses and transcripts.
 * Spread into `channels` and `pushEvents` of core/contract.ts; each entry is
 * `'<area>:<verb>': { input: zod, output: zod }` as there.
 */
export const settingsChannels = {} as const;

export const settingsPushEvents = {} as const;
