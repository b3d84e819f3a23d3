import { z } from 'zod';
import { lineShape, readScriptLine } from '../text/script-lines';
import {
  critiqueAnswerSchema,
  judgeAnswerSchema,
  proposalAnswerSchema,
  revisionAnswerSchema,
  similarityAnswerSchema,
  tricksterAnswerSchema,
  voteAnswerSchema,
} from './answers';
import { arenaConfigSchema } from './config';

// The replay script of an arena (ARENA-PROTOCOL.md, "Scripts for tests"): JSON Lines, a header, then
// every answer in the order the arena asks for it. Each line's own shape is checked here; whether it
// is the answer due now, and whether its ids exist, is for the driver and the state machine.

const id = z.string().min(1);

export const arenaHeaderSchema = z.strictObject({
  type: z.literal('arena'),
  topic: z.string().min(1),
  agents: z
    .array(z.strictObject({ id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/), name: z.string().min(1).optional() }))
    .min(2)
    .max(12),
  judge: id,
  config: arenaConfigSchema.partial().optional(),
  ratings: z.record(z.string(), z.number()).optional(),
});
export type ArenaHeaderLine = z.output<typeof arenaHeaderSchema>;

/** A revision round: 3–5, `T` after the trickster's challenge, `X1`, `X2` … in extended rounds. */
const revisionRound = z.union([
  z.number().int().min(3).max(5),
  z.literal('T'),
  z.string().regex(/^X[1-9][0-9]*$/, 'a round is 3, 4, 5, "T" or "X1", "X2" …') as z.ZodType<`X${number}`>,
]);

const LINE_SCHEMAS = {
  arena: arenaHeaderSchema,
  proposal: z.strictObject({ type: z.literal('proposal'), agent: id, output: proposalAnswerSchema }),
  critique: z.strictObject({ type: z.literal('critique'), agent: id, output: critiqueAnswerSchema }),
  revision: z.strictObject({
    type: z.literal('revision'),
    agent: id,
    round: revisionRound,
    output: revisionAnswerSchema,
  }),
  similarity: z.strictObject({
    type: z.literal('similarity'),
    round: z.number().int().min(3).max(5),
    output: similarityAnswerSchema,
  }),
  refinement: z.strictObject({ type: z.literal('refinement'), agent: id, output: revisionAnswerSchema }),
  vote: z.strictObject({ type: z.literal('vote'), agent: id, output: voteAnswerSchema }),
  trickster: z.strictObject({ type: z.literal('trickster'), output: tricksterAnswerSchema }),
  judge: z.strictObject({ type: z.literal('judge'), output: judgeAnswerSchema }),
} as const;
const LINE_TYPES = Object.keys(LINE_SCHEMAS) as (keyof typeof LINE_SCHEMAS)[];

export type ArenaScriptLine = {
  [K in keyof typeof LINE_SCHEMAS]: z.output<(typeof LINE_SCHEMAS)[K]>;
}[keyof typeof LINE_SCHEMAS];

/** One line of a script, its shape checked (`line N: schema violation at output.claims[0].id: …`). */
export function parseArenaLine(text: string, line: number): ArenaScriptLine {
  const raw = readScriptLine(text, line, LINE_TYPES);
  return lineShape(LINE_SCHEMAS[raw.type], raw, line) as ArenaScriptLine;
}
