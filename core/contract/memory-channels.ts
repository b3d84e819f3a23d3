import { z } from 'zod';
import { slugSchema } from './ids';

/**
 * `memory:*`: the workspace's shared memory as the researcher reads it — the episodes every
 * finished crux debate, evaluation, arena and council task left in `council/memory/episodes.jsonl`.
 * Without a query: newest first (of one idea with `idea`); with a query: ranked as a run's brief
 * ranks them (the idea's first, then by similarity to the query). Spread into `channels` of
 * core/contract.ts.
 */

export const memoryEpisodeSchema = z.strictObject({
  /** `<protocol>:<run id>`, what a council proposal cites. */
  key: z.string(),
  protocol: z.string(),
  runId: z.string(),
  idea: z.string().nullable(),
  at: z.string(),
  task: z.string(),
  outcome: z.string(),
  cruxes: z.array(z.string()),
  keyLearnings: z.array(z.string()),
  /** The episode as a brief carries it (at most 600 characters). */
  text: z.string(),
  /** Searched: the episode is of the idea asked for, and its similarity to the query (0–1). */
  sameIdea: z.boolean().optional(),
  similarity: z.number().min(0).max(1).optional(),
});
export type MemoryEpisodeView = z.infer<typeof memoryEpisodeSchema>;

export const memoryChannels = {
  /** The episodes of the shared memory (see above), and the lines of the file that are none. */
  'memory:list': {
    input: z.strictObject({
      idea: slugSchema.optional(),
      query: z.string().trim().min(1, 'give the words to look for').max(2000).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    output: z.strictObject({
      episodes: z.array(memoryEpisodeSchema),
      /** Episodes in all, before `limit`. */
      total: z.number().int().nonnegative(),
      problems: z.array(z.strictObject({ file: z.string(), line: z.number().nullable(), reason: z.string() })),
    }),
  },
} as const;
