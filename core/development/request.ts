import type { LlmBrief, LlmRequest, ModelTier } from '../ports/llm';
import type { Taxonomy } from '../taxonomy/taxonomy';
import {
  type DevelopmentAnswer,
  developmentAnswerSchema,
  type DevelopmentQuestion,
  QUESTIONS_PER_SESSION,
} from './questions';

export { QUESTIONS_PER_SESSION };

/** The brief of a development request (see `LlmBrief`); `core/development/simulator.ts` answers it. */
export interface DevelopmentBrief extends LlmBrief {
  protocol: 'development';
  kind: 'questions';
  gaps: { id: string; label: string; description: string }[];
  asked: string[];
}

export function developmentRequest(
  persona: { systemPrompt: string; tier: ModelTier },
  ideaText: string,
  gaps: readonly string[],
  asked: readonly DevelopmentQuestion[],
  taxonomy: Taxonomy,
  today?: string,
): LlmRequest<DevelopmentAnswer> {
  const described = gaps.slice(0, 8).map((id) => {
    const c = taxonomy.criteria.find((k) => k.id === id);
    return c
      ? { id, label: c.name, description: c.description }
      : { id, label: id, description: `the README's "${id}" section is empty` };
  });
  const brief: DevelopmentBrief = {
    protocol: 'development',
    kind: 'questions',
    gaps: described,
    asked: asked.map((q) => q.question),
  };
  const words =
    (today ? `Today is ${today}.\n` : '') +
    `Ask the researcher at most ${QUESTIONS_PER_SESSION} questions that would most change a fair evaluation of this idea. ` +
    `The gaps, most important first:\n${described.map((g) => `- ${g.id} (${g.label}): ${g.description}`).join('\n')}\n` +
    `Already asked (do not repeat):\n${asked.map((q) => `- ${q.question}`).join('\n') || '- nothing yet'}\n` +
    'Name for each question the gap it fills (a criterion id or a README section).';
  return {
    system: persona.systemPrompt,
    messages: [
      { role: 'user', content: ideaText },
      { role: 'user', content: words },
    ],
    stablePrefix: 1,
    brief,
    schema: developmentAnswerSchema,
    schemaName: 'questions',
    tier: persona.tier,
    maxTokens: 800,
  };
}
