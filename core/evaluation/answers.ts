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
    .array(
      z.object({
        criterion: criterionId.describe('the criterion id, exactly as listed'),
        reasoning: text.describe('why, from first principles and the idea text, 2 to 4 sentences'),
        score: scoreSchema.describe('1 to 10, higher is always better for the idea'),
        confidence: confidenceSchema.describe('how sure you are of the score, 0 to 1'),
      }),
    )
    .min(1)
    .describe('one entry per criterion asked for'),
});
export type EvaluatorAnswer = z.infer<typeof evaluatorAnswerSchema>;

/** One red-team persona for one round: any number of challenges (none is an answer too). */
export const redTeamAnswerSchema = z.object({
  challenges: z
    .array(
      z.object({
        criterion: criterionId.describe('the criterion id you attack, exactly as listed'),
        challenge: text.describe("the challenge, quoting the evaluator's reasoning it attacks, 2 to 4 sentences"),
        severity: z.enum(SEVERITIES).describe('how much it would matter if it stands'),
      }),
    )
    .describe('your challenges; none is an answer too'),
});
export type RedTeamAnswer = z.infer<typeof redTeamAnswerSchema>;
export type RaisedChallenge = RedTeamAnswer['challenges'][number];

/** The category's evaluator answering one challenge. */
export const defenseAnswerSchema = z.object({
  response: text.describe('your defence, conceding what is true, 2 to 5 sentences'),
});
export type DefenseAnswer = z.infer<typeof defenseAnswerSchema>;

/** The arbiter's ruling on one exchange; the adjustment range comes from the config. */
export function arbiterAnswerSchema(range: number) {
  // One schema per range: building it again for every ruling cost a sixth of a script's replay.
  const known = arbiterSchemas.get(range);
  if (known) return known;
  const schema = arbiterSchemaFor(range);
  arbiterSchemas.set(range, schema);
  return schema;
}

function arbiterSchemaFor(range: number) {
  return z.object({
    reasoning: text.describe('the decisive point and why it decides the exchange, 3 to 5 sentences'),
    winner: z.enum(WINNERS).describe('who won the exchange'),
    scoreAdjustment: z
      .number()
      .int('must be a whole number')
      .min(-range)
      .max(range)
      .describe(`a whole number from -${range} to ${range}; 0 when the evaluator wins`),
    firstPrinciplesBonus: z
      .boolean()
      .describe(
        'true when the winning side (either side on a DRAW) argued from first principles, false when neither did',
      ),
    fallacies: z
      .array(text.describe('one fallacy and who made it, one sentence'))
      .describe('fallacies in the exchange, if any'),
  });
}
const arbiterSchemas = new Map<number, ReturnType<typeof arbiterSchemaFor>>();
export type ArbiterAnswer = z.infer<ReturnType<typeof arbiterAnswerSchema>>;

/** The synthesis agent at the end of a round: a winner per criterion, never an average. */
export const synthesisAnswerSchema = z.object({
  criteria: z.array(
    z.object({
      criterion: criterionId.describe('the criterion id, exactly as listed'),
      resolutionReasoning: text.describe('why this position prevailed, 2 to 4 sentences'),
      prevailingPosition: text.describe('the position that prevailed, in words, one sentence'),
      score: scoreSchema.describe('the score of that position: one of the positions in play'),
      confidence: confidenceSchema.describe('how settled the criterion now is, 0 to 1'),
      openQuestions: z.array(text.describe('one question, one sentence')).describe('what is still open'),
    }),
  ),
  newInsights: z.array(text.describe('one insight, one sentence')).describe('genuinely new insights of this round'),
});
export type SynthesisAnswer = z.infer<typeof synthesisAnswerSchema>;
export type SynthesisEntry = SynthesisAnswer['criteria'][number];

/** The synthesis agent once more, writing the narrative of the final document. */
export const narrativeSchema = z.object({
  executiveSummary: text.describe('the evaluation in 3 to 5 sentences'),
  keyStrengths: z.array(text.describe('one strength and its reason, one sentence')).describe('2 to 5 strengths'),
  keyWeaknesses: z.array(text.describe('one weakness and its reason, one sentence')).describe('2 to 5 weaknesses'),
  criticalAssumptions: z.array(text.describe('one assumption, one sentence')).describe('what the idea rests on'),
  unresolvedQuestions: z.array(text.describe('one question, one sentence')).describe('what is still open'),
  recommendationReasoning: text.describe(
    'why the recommendation follows from the scores and reasons, 2 to 4 sentences',
  ),
  recommendation: z.enum(RECOMMENDATIONS).describe('PURSUE, REFINE, PAUSE or ABANDON'),
});
export type Narrative = z.infer<typeof narrativeSchema>;
