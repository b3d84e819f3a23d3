import { z } from 'zod';
import { GIVEN_GRADES, HORIZONS, MOVES, SIDES } from '../vocabulary';

/**
 * What an agent answers on its turn: one move. The schema is loose on purpose about which meta
 * fields go with which move — that is the protocol's job (`invalidMove`), and a model that gets it
 * wrong is told why and asked again, just as a scripted message would be blocked.
 */
export const falsifierAnswerSchema = z.object({
  metric: z.string().describe('what will be measured, concretely'),
  threshold: z.string().describe('the value that would prove you wrong: a number, a percentage or a comparison'),
  deadline: z.string().describe('when it will be known, e.g. 2027-06-30'),
  reasoning: z.string().optional(),
});

export const agentMoveSchema = z.object({
  move: z.enum(MOVES).describe('one of the moves allowed in the current stage'),
  content: z.string().min(1).describe('what you say, in at most 80 words'),
  replyTo: z.string().optional().describe('id of the message you answer, e.g. m12'),
  meta: z
    .object({
      question: z.string().optional().describe('PROPOSE_CRUX: a binary question ending in "?"'),
      spawnQuestion: z.string().optional().describe('REFRAME: a separate binary question worth its own thread'),
      steelmanTarget: z.string().optional().describe('STEELMAN: the agent whose view you restate'),
      steelmanGrade: z.enum(GIVEN_GRADES).optional().describe('GRADE_STEELMAN: how well your view was restated'),
      side: z.enum(SIDES).optional().describe('COMMIT_POSITION: your answer to the binary question'),
      confidence: z.number().min(0).max(1).optional(),
      horizon: z.enum(HORIZONS).optional(),
      falsifier: falsifierAnswerSchema.optional(),
      priorPosition: z.enum(SIDES).optional(),
      newPosition: z.enum(SIDES).optional(),
      topClaimChanged: z.boolean().optional(),
      concededProposition: z.string().optional(),
      targetFalsifierOf: z.string().optional(),
      evidenceLink: z.string().optional(),
    })
    .default({}),
});
export type AgentMove = z.infer<typeof agentMoveSchema>;

/** The crystallizer's answer is the protocol's own analysis shape. */
export { analysisOutputSchema as crystallizerAnswerSchema } from '../analysis';

export const coalitionLabelsAnswerSchema = z.object({
  labels: z.array(z.object({ members: z.array(z.string()), label: z.string().min(1) })),
});
