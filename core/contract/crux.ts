import type { z } from 'zod';
import { cruxEventSchema as protocolCruxEventSchema } from '../crux/events';
import { baselineComparisonSchema as protocolBaselineSchema } from '../crux/live/baseline';
import { cruxResultSchema as protocolCruxResultSchema } from '../crux/result-schema';
import { strictCopy } from './strict-copy';

// The crux debate's result and live events as the UI receives them: strict copies of the protocol's
// own schemas (core/crux/result-schema.ts, core/crux/events.ts), so a field exists in one place
// and the contract rejects what it does not name.

/** What a crux debate found (mid-debate it says `partial`). */
export const cruxResultSchema = strictCopy(protocolCruxResultSchema);

/** One thing the crux protocol decided, in the order it happened. */
export const cruxEventSchema = strictCopy(protocolCruxEventSchema);

/** The single pass a debate was measured against (`debate --baseline`), beside its result. */
export const baselineComparisonSchema = strictCopy(protocolBaselineSchema);

export type CruxResultView = z.infer<typeof cruxResultSchema>;
export type BaselineComparisonView = z.infer<typeof baselineComparisonSchema>;
export type CruxEventView = z.infer<typeof cruxEventSchema>;
