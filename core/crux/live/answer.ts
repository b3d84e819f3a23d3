import { z } from 'zod';
import { type AnalysisOutput, commonGroundItemSchema } from '../analysis';
import { GIVEN_GRADES, HORIZONS, SIDES, STAGE_MOVES } from '../vocabulary';

/**
 * What an agent answers on its turn: one move. The schema is loose on purpose about which meta
 * fields go with which move — that is the protocol's job (`invalidMove`), and a model that gets it
 * wrong is told why and asked again, just as a scripted message would be blocked. Every field says
 * what goes in it and how long it may be: the descriptions are part of what the model reads.
 */
export const falsifierAnswerSchema = z.object({
  reasoning: z.string().optional().describe('why this test would show you wrong, one sentence'),
  metric: z.string().describe('what will be measured, concretely, in under 20 words'),
  threshold: z
    .string()
    .describe('the value that would prove you wrong: a number, a percentage or a comparison, under 15 words'),
  deadline: z.string().describe('the date it will be known by, after today, e.g. 2027-06-30'),
});

/** Where a piece of evidence comes from; the model has nothing to read but the idea. */
export const EVIDENCE_SOURCES = ['IDEA_TEXT', 'GENERAL_KNOWLEDGE', 'ESTIMATE'] as const;

export const agentMoveSchema = z.object({
  // A live turn is always in a stage, so a challenge of a crystallized crux is not on offer.
  move: z.enum(STAGE_MOVES).describe('one of the moves allowed in the current stage'),
  replyTo: z
    .string()
    .optional()
    .describe(
      'id of the one message you answer, e.g. m12; required for CHALLENGE_EVIDENCE, CONCEDE and an UPDATE_POSITION that changes your side or confidence (the message by another agent that moved you)',
    ),
  content: z
    .string()
    .min(1)
    .describe(
      'what you say, at most 80 words; for UPDATE_POSITION and CONCEDE, what in the message you answer moved you and why, at least one sentence; a link only if it appears in the idea text',
    ),
  meta: z
    .object({
      question: z
        .string()
        .optional()
        .describe('PROPOSE_CRUX: one yes/no question about the idea ending in "?", under 30 words'),
      spawnQuestion: z
        .string()
        .optional()
        .describe('REFRAME: a separate yes/no question worth its own thread, under 30 words'),
      steelmanTarget: z.string().optional().describe('STEELMAN: the id of the agent whose view you restate'),
      claimRepresented: z.string().optional().describe("STEELMAN: their claim, as they would put it, one sentence"),
      strongestReason: z.string().optional().describe('STEELMAN: the strongest reason for it, one sentence'),
      falsifierRepresented: z
        .object({
          metric: z.string().describe('what would be measured, in under 20 words'),
          threshold: z.string().describe('the value that would prove them wrong, under 15 words'),
          deadline: z.string().describe('the date it will be known by'),
        })
        .optional()
        .describe('STEELMAN: what would change their mind, as they declared it or would'),
      steelmanGrade: z.enum(GIVEN_GRADES).optional().describe('GRADE_STEELMAN: how well your view was restated'),
      corrections: z
        .string()
        .optional()
        .describe('GRADE_STEELMAN, when INCOMPLETE or WRONG: what the restatement missed or got wrong, one sentence'),
      side: z.enum(SIDES).optional().describe('COMMIT_POSITION: your answer to the binary question'),
      confidence: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe('COMMIT_POSITION, UPDATE_POSITION: how sure you are, 0 to 1'),
      horizon: z.enum(HORIZONS).optional().describe('COMMIT_POSITION: when the question will be settled'),
      falsifier: falsifierAnswerSchema
        .optional()
        .describe('COMMIT_POSITION (YES or NO), DECLARE_FALSIFIER: what would prove you wrong'),
      priorPosition: z.enum(SIDES).optional().describe('UPDATE_POSITION, CONCEDE: your side before this message'),
      newPosition: z
        .enum(SIDES)
        .optional()
        .describe('UPDATE_POSITION, CONCEDE: your side after it (the same side to change only your confidence)'),
      topClaimChanged: z
        .boolean()
        .optional()
        .describe('UPDATE_POSITION, CONCEDE: whether your top claim about the idea changes'),
      concededProposition: z.string().optional().describe('CONCEDE: the proposition you concede, one sentence'),
      targetFalsifierOf: z
        .string()
        .optional()
        .describe('PROVIDE_EVIDENCE: the agent id (not a message id) whose falsifier this evidence tests'),
      evidenceSource: z
        .enum(EVIDENCE_SOURCES)
        .optional()
        .describe('PROVIDE_EVIDENCE: IDEA_TEXT, GENERAL_KNOWLEDGE or ESTIMATE'),
      evidenceQuote: z
        .string()
        .optional()
        .describe('PROVIDE_EVIDENCE from IDEA_TEXT: the exact words of the idea, under 40 words'),
      evidenceLink: z
        .string()
        .optional()
        .describe('PROVIDE_EVIDENCE: a link only if it appears in the idea text; otherwise leave it out'),
    })
    .default({}),
});
export type AgentMove = z.infer<typeof agentMoveSchema>;

/** The crystallizer's answer is the protocol's own analysis shape; replays give it as such. */
export { analysisOutputSchema as crystallizerAnswerSchema } from '../analysis';

const positionAnswer = z.object({
  statement: z.string().describe("the agent's position in their own terms, one sentence"),
  side: z.enum(SIDES).describe('their latest side'),
  confidence: z.number().min(0).max(1).describe('their latest confidence, 0 to 1'),
  falsifier: z
    .object({
      metric: z.string().describe('as they declared it, under 20 words'),
      threshold: z.string().describe('as they declared it, under 15 words'),
      deadline: z.string().describe('as they declared it, a date'),
    })
    .optional()
    .describe('only a falsifier the agent declared; never one you supply'),
});

const counterfactualAnswer = z.object({
  why: z.string().describe('from what the agent said, one sentence'),
  wouldFlip: z
    .boolean()
    .describe("whether the agent's top claim about the idea flips if the crux resolves against them"),
});

/**
 * The crystallizer's schema for one thread: its per-agent maps are objects keyed by the ids in play,
 * so a model cannot key them by a display name or invent an agent. Agents who committed must be
 * there; the others may be. What it accepts is a case of the protocol's analysis shape.
 */
export function crystallizerSchemaFor(
  agentIds: readonly string[],
  committed: readonly string[],
): z.ZodType<AnalysisOutput> {
  const keyed = <T extends z.ZodType>(value: T, what: string) =>
    z
      .object(Object.fromEntries(agentIds.map((id) => [id, committed.includes(id) ? value : value.optional()])))
      .describe(what);
  return z.object({
    question: z
      .string()
      .describe('the binary question about the idea the thread settled on, one sentence ending in "?"'),
    positions: keyed(positionAnswer, 'each committed agent, keyed by agent id'),
    resolutionCriteria: z
      .array(z.string().describe('an observable test with a number and a date, under 40 words'))
      .min(2)
      .describe('at least two tests that would settle the question for an outsider'),
    counterfactual: keyed(counterfactualAnswer, 'for each agent, keyed by agent id'),
    commonGround: z
      .array(
        commonGroundItemSchema.extend({
          statement: z.string().describe('a statement every agent accepted, one sentence'),
          type: z.string().describe('its kind, one word, e.g. fact, value, definition'),
        }),
      )
      .optional()
      .describe('what every agent accepted during the thread'),
    confidence: z.number().min(0).max(1).describe('how faithfully this represents the thread, 0 to 1'),
  }) as unknown as z.ZodType<AnalysisOutput>;
}

export const coalitionLabelsAnswerSchema = z.object({
  labels: z
    .array(
      z.object({
        members: z.array(z.string()).describe('the agent ids of one coalition, exactly as listed'),
        label: z.string().min(1).describe('two or three words for what its members hold, e.g. "Cost skeptics"'),
      }),
    )
    .describe('one label per coalition'),
});
