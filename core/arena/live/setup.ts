import { z } from 'zod';
import { arenaConfigSchema } from '../config';
import { arenaTournamentSchema } from '../tournament';

/**
 * What starts a live arena, as its log's header keeps it: the question, the brief every agent reads
 * (round 0, built from the workspace when the arena starts, so a resumed run reads the same words),
 * the personas with their prompts, the settings and the ratings from before the arena.
 */

export const arenaPersonaSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a persona id is lower-case kebab-case'),
  name: z.string().min(1),
  systemPrompt: z.string().min(1),
  tier: z.enum(['fast', 'standard', 'deep']),
});
export type ArenaPersona = z.output<typeof arenaPersonaSchema>;

export const arenaSetupSchema = z
  .strictObject({
    question: z.string().trim().min(1),
    /** The context brief (round 0): the idea's README, related ideas, the ledger, past arenas. */
    context: z.string().default(''),
    agents: z.array(arenaPersonaSchema).min(2).max(12),
    judge: arenaPersonaSchema,
    trickster: arenaPersonaSchema.nullable().default(null),
    config: arenaConfigSchema.prefault({}),
    /** Ratings from before the arena, by persona id; 1500 when absent. */
    ratings: z.record(z.string(), z.number()).default({}),
    /**
     * The embeddings endpoint of the `embedding` measure (its API root or `…/embeddings` address, and
     * the model), kept so a resumed arena asks the same one; never a key.
     */
    embedding: z
      .strictObject({ url: z.url(), model: z.string().trim().min(1) })
      .nullable()
      .default(null),
    /**
     * Whether each round's first call goes alone until it starts answering, so that the others read
     * the round's materials from the prompt cache it writes: worth it where the cache is marked per
     * request (the Anthropic provider); elsewhere it would only make each round wait.
     */
    cacheRounds: z.boolean().default(false),
    /** Set when the arena is one meeting of a tournament of ideas: its agents are the two ideas' champions. */
    tournament: arenaTournamentSchema.nullable().default(null),
  })
  .superRefine((setup, ctx) => {
    const ids = setup.agents.map((a) => a.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) < i)
        ctx.addIssue({ code: 'custom', path: ['agents', i, 'id'], message: `"${id}" is listed twice` });
    });
    if (ids.includes(setup.judge.id))
      ctx.addIssue({
        code: 'custom',
        path: ['judge', 'id'],
        message: `the judge "${setup.judge.id}" is also an agent`,
      });
    if (setup.tournament) {
      const { ideas, pairing } = setup.tournament;
      const expected = pairing.map((slug) => ideas.find((i) => i.slug === slug)?.champion ?? '?');
      if (expected.join(',') !== ids.join(','))
        ctx.addIssue({
          code: 'custom',
          path: ['agents'],
          message: `a tournament arena's agents are the champions of its two ideas (${expected.join(', ')}), not ${ids.join(', ')}`,
        });
    }
    if (setup.config.trickster && !setup.trickster)
      ctx.addIssue({
        code: 'custom',
        path: ['trickster'],
        message: 'the trickster is on but no trickster persona is given',
      });
    if (setup.config.similarity === 'embedding' && !setup.embedding)
      ctx.addIssue({
        code: 'custom',
        path: ['embedding'],
        message: 'the embedding measure needs an embeddings endpoint: {url, model} of an OpenAI-compatible server',
      });
  });
export type ArenaSetup = z.output<typeof arenaSetupSchema>;
