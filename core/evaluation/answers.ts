import { z } from 'zod';
import { RECOMMENDATIONS, SEVERITIES, WINNERS } from './vocabulary';

// What each agent answers, as zod schemas. A live driver hands these to the model port as the
// structured-output schema; the replay driver checks script lines with them; `step` checks every
// answer again, so a state can never hold a malformed one. Every field is required: structured
// output makes a model fill them all, and a missing one is an error worth seeing.

const text = z.string().trim().min(1, 'must not be empty');
const criterionId = z.string().min(1, 'must name a criterion');
export const scoreSchema = z.number().int('must be a whole number').min(1).max(10);
export const confidenceSchema = z.number().min(0).max(1);

/** Evaluator (nucleation): one entry for each criterion of its category. */
export const evaluatorAnswerSchema = z.object({
  scores: z
    .array(z.object({ criterion: criterionId, score: scoreSchema, confidence: confidenceSchema, reasoning: text }))
    .min(1),
});
export type EvaluatorAnswer = z.infer<typeof evaluatorAnswerSchema>;

/** One red-team persona for one round: any number of challenges (none is an answer too). */
export const redTeamAnswerSchema = z.object({
  challenges: z.array(z.object({ criterion: criterionId, severity: z.enum(SEVERITIES), challenge: text })),
});
export type RedTeamAnswer = z.infer<typeof redTeamAnswerSchema>;
export type RaisedChallenge = RedTeamAnswer['challenges'][number];

/** The category's evaluator answering one challenge. */
export const defenseAnswerSchema = z.object({ response: text });
export type DefenseAnswer = z.infer<typeof defenseAnswerSchema>;

/** The arbiter's ruling on one exchange; the adjustment range comes from the config. */
export function arbiterAnswerSchema(range: number) {
  return z.object({
    winner: z.enum(WINNERS),
    scoreAdjustment: z.number().int('must be a whole number').min(-range).max(range),
    firstPrinciplesBonus: z.boolean(),
    fallacies: z.array(text),
    reasoning: text,
  });
}
export type ArbiterAnswer = z.infer<ReturnType<typeof arbiterAnswerSchema>>;

/** The synthesis agent at the end of a round: a winner per criterion, never an average. */
export const synthesisAnswerSchema = z.object({
  criteria: z.array(
    z.object({
      criterion: criterionId,
      score: scoreSchema,
      confidence: confidenceSchema,
      prevailingPosition: text,
      resolutionReasoning: text,
      openQuestions: z.array(text),
    }),
  ),
  newInsights: z.array(text),
});
export type SynthesisAnswer = z.infer<typeof synthesisAnswerSchema>;
export type SynthesisEntry = SynthesisAnswer['criteria'][number];

/** The synthesis agent once more, writing the narrative of the final document. */
export const narrativeSchema = z.object({
  executiveSummary: text,
  keyStrengths: z.array(text),
  keyWeaknesses: z.array(text),
  criticalAssumptions: z.array(text),
  unresolvedQuestions: z.array(text),
  recommendation: z.enum(RECOMMENDATIONS),
  recommendationReasoning: text,
});
export type Narrative = z.infer<typeof narrativeSchema>;
