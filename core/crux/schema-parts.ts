import { z } from 'zod';

// Small pieces the crux schemas share (records, counters, result, events).

/** A whole number of things: messages, attempts, calls, tokens. */
export const count = z.number().int().nonnegative();

/** A record keyed by agent id. */
export const byAgent = <T extends z.ZodType>(value: T) => z.record(z.string(), value);

/** One count per member of a closed vocabulary, every member present. */
export const countsOf = <const T extends readonly [string, ...string[]]>(values: T) => z.record(z.enum(values), count);
