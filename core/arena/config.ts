import { z } from 'zod';

/** How the agreement of two proposals is measured; the measure is always named beside its score. */
export const SIMILARITY_MEASURES = ['lexical', 'judged', 'embedding'] as const;
export type SimilarityMeasure = (typeof SIMILARITY_MEASURES)[number];

/** Consensus levels, weakest first: a vote reaches `config.consensus` when its level is at least that. */
export const CONSENSUS_LEVELS = ['none', 'majority', 'supermajority', 'unanimous'] as const;
export type ConsensusLevel = (typeof CONSENSUS_LEVELS)[number];

/** The arena's settings with their defaults (ARENA-PROTOCOL.md, "Precise readings"). */
export const arenaConfigSchema = z.strictObject({
  convergenceThreshold: z.number().min(0).max(1).default(0.8),
  similarity: z.enum(SIMILARITY_MEASURES).default('lexical'),
  consensus: z.enum(['majority', 'supermajority', 'unanimous']).default('supermajority'),
  selfVote: z.boolean().default(false),
  trickster: z.boolean().default(false),
  maxExtendedRounds: z.number().int().min(0).max(5).default(2),
  eloK: z.number().positive().max(400).default(32),
  // Rounds 3–5 are the revision rounds, so there are at most three.
  revisionRounds: z.number().int().min(1).max(3).default(3),
});
export type ArenaConfig = z.output<typeof arenaConfigSchema>;
export type ArenaConfigOverrides = z.input<typeof arenaConfigSchema>;

export function resolveArenaConfig(overrides: ArenaConfigOverrides = {}): ArenaConfig {
  return arenaConfigSchema.parse(overrides);
}

/** Whether `level` counts as consensus when `needed` is the level the arena asks for. */
export function levelReaches(level: ConsensusLevel, needed: ConsensusLevel): boolean {
  return CONSENSUS_LEVELS.indexOf(level) >= CONSENSUS_LEVELS.indexOf(needed);
}
