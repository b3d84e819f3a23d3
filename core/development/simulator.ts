import { protocolSimulator } from '../sim/registry';
import { type DevelopmentAnswer, QUESTIONS_PER_SESSION } from './questions';
import type { DevelopmentBrief } from './request';

/** The simulator's questions for a brief: one plain question per gap, labelled as simulated. */
export function simulateQuestions(brief: DevelopmentBrief): DevelopmentAnswer {
  const seen = new Set(brief.asked.map((q) => q.toLowerCase()));
  const questions = brief.gaps
    .map((g) => ({
      gap: g.id,
      question:
        g.label === g.id
          ? `[simulated] What belongs in the "${g.id}" section: what do you know there that the README does not say yet?`
          : `[simulated] For ${g.label.toLowerCase()}: what do you know that would let someone score it with confidence?`,
    }))
    .filter((q) => !seen.has(q.question.toLowerCase()))
    .slice(0, QUESTIONS_PER_SESSION);
  return {
    questions:
      questions.length > 0
        ? questions
        : [{ gap: 'open-questions', question: '[simulated] What would make you drop this idea?' }],
  };
}

/** The development brief's answer, registered in `core/sim/simulators.ts`. */
export const developmentSimulator = protocolSimulator<DevelopmentBrief>('development', {
  questions: (_seed, brief) => simulateQuestions(brief),
});
