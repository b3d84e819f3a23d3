import { z } from 'zod';
import { RELATIONSHIP_TYPES } from '../idea/relationships';
import type { LlmBrief, LlmRequest, ModelTier } from '../ports/llm';

/**
 * The classification agent: an idea's type, its tags (the controlled vocabulary first, free tags
 * where nothing fits) and its relationships to the other ideas of the library, each with a strength
 * and a reason. The answer is written into the README's frontmatter by the caller.
 */
export const classificationSchema = z.object({
  type: z.string().min(1).describe('one idea type id, exactly as listed'),
  tags: z
    .array(z.string().min(1).describe('a tag id, lower-case kebab-case'))
    .max(8)
    .describe('three to six tags, never more than eight, controlled ones first'),
  relationships: z
    .array(
      z.object({
        target: z.string().min(1).describe('the slug of another idea of the library'),
        reason: z.string().min(1).describe("why, citing the idea's text, one sentence"),
        type: z.enum(RELATIONSHIP_TYPES).describe('the kind of relationship'),
        strength: z.number().min(0).max(1).describe('how strong the link is, 0 to 1'),
      }),
    )
    .max(8)
    .describe('links to other ideas, each with a reason; none is an answer too'),
});
export type Classification = z.infer<typeof classificationSchema>;

/** The brief of a classification request (see `LlmBrief`); `core/classification/simulator.ts` answers it. */
export interface ClassificationBrief extends LlmBrief {
  protocol: 'classification';
  kind: 'classify';
  idea: { slug: string; title: string; summary: string; text: string; type: string | null; tags: string[] };
  types: { id: string; description: string }[];
  vocabulary: string[];
  others: { slug: string; title: string; summary: string; tags: string[] }[];
}

export function classificationRequest(
  persona: { systemPrompt: string; tier: ModelTier },
  facts: Omit<ClassificationBrief, 'protocol' | 'kind'>,
  today?: string,
): LlmRequest<Classification> {
  const brief: ClassificationBrief = { protocol: 'classification', kind: 'classify', ...facts };
  const library =
    brief.others.map((o) => `- ${o.slug}: ${o.title} — ${o.summary} [${o.tags.join(', ')}]`).join('\n') ||
    '- (no other ideas)';
  return {
    system: persona.systemPrompt,
    messages: [
      {
        role: 'user',
        content: `The library:\n${library}\n\nIdea types:\n${brief.types.map((t) => `- ${t.id}: ${t.description}`).join('\n')}\n\nControlled tags: ${brief.vocabulary.join(', ')}`,
      },
      {
        role: 'user',
        content: `${today ? `Today is ${today}.\n` : ''}Classify "${brief.idea.title}" (${brief.idea.slug}): its type, three to six tags and never more than 8 (controlled ones first; a free tag only where none fits, lower-case kebab-case), and its relationships to ideas of the library (${RELATIONSHIP_TYPES.join(', ')}), each with a strength from 0 to 1 and a one-sentence reason.\n\n${brief.idea.text}`,
      },
    ],
    stablePrefix: 1,
    brief,
    schema: classificationSchema,
    schemaName: 'classification',
    tier: persona.tier,
    maxTokens: 800,
  };
}
