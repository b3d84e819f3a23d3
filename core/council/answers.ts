import { z } from 'zod';
import { actionSchema } from './actions';
import { valueSchema } from './values';
import { weightAdjustmentSchema } from './weights';

/**
 * What each agent answers, as zod schemas: the same shapes serve a model's structured answer, a
 * replay script's `output` and the files under `council/`.
 */

const strength = z.number().min(0).max(1);

export const valueJustificationSchema = z
  .partialRecord(valueSchema, z.strictObject({ text: z.string(), strength }))
  .refine((record) => Object.keys(record).length > 0, 'a proposal must justify itself by at least one value');

export const riskSchema = z.strictObject({
  risk: z.string().min(1),
  mitigation: z.string(),
  severity: z.enum(['low', 'medium', 'high']),
});

/** A proposal, a revision or a compromise: the same shape (a new version of the same proposal). */
export const proposalOutputSchema = z.strictObject({
  goal: z.string().min(1),
  actions: z.array(actionSchema).min(1),
  valueJustification: valueJustificationSchema,
  expectedOutcomes: z.array(z.string()),
  risks: z.array(riskSchema),
  /** Episodes of the council's memory the proposal builds on (a figure: memory use). */
  citesEpisodes: z.array(z.string()).optional(),
});
export type ProposalOutput = z.infer<typeof proposalOutputSchema>;

export const DECISIONS = ['approve', 'approve_with_concerns', 'reject'] as const;
export type Vote = (typeof DECISIONS)[number];

export const reviewOutputSchema = z.strictObject({
  decision: z.enum(DECISIONS),
  rationale: z.string().min(1),
  concerns: z.array(z.string()),
  /** The values the reviewer's position invokes, with the strength it claims for each. */
  values: z.partialRecord(valueSchema, strength),
});
export type ReviewOutput = z.infer<typeof reviewOutputSchema>;

export const outcomeOutputSchema = z.strictObject({
  confirmed: z.boolean(),
  notes: z.string(),
});
export type OutcomeOutput = z.infer<typeof outcomeOutputSchema>;

export const episodeOutputSchema = z.strictObject({
  keyLearnings: z.array(z.string()),
  valuesServed: z.array(valueSchema),
  weightAdjustments: z.array(weightAdjustmentSchema),
});
export type EpisodeOutput = z.infer<typeof episodeOutputSchema>;

/** Whether a vote counts as approval. */
export function approves(vote: Vote): boolean {
  return vote !== 'reject';
}
