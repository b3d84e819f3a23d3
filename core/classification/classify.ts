import { z } from 'zod';
import { jaccard, keywords } from '../crux/keywords';
import { RELATIONSHIP_TYPES } from '../idea/relationships';
import type { LlmRequest, ModelTier } from '../ports/llm';

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

export interface ClassificationBrief {
  kind: 'classification';
  idea: { slug: string; title: string; summary: string; text: string; type: string | null; tags: string[] };
  types: { id: string; description: string }[];
  vocabulary: string[];
  others: { slug: string; title: string; summary: string; tags: string[] }[];
}

export function classificationRequest(
  persona: { systemPrompt: string; tier: ModelTier },
  brief: ClassificationBrief,
  today?: string,
): LlmRequest<Classification> {
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

/**
 * The simulator's classification: the type kept (or the first whose description shares most words),
 * the controlled tags whose words appear in the text, and "related" links to ideas whose words
 * overlap enough, the overlap as the strength.
 */
export function simulateClassification(brief: ClassificationBrief): Classification {
  const words = new Set(keywords(`${brief.idea.title} ${brief.idea.summary} ${brief.idea.text}`));
  const score = (text: string) => keywords(text).filter((w) => words.has(w)).length;
  const type =
    brief.idea.type ??
    [...brief.types].sort((a, b) => score(b.description) - score(a.description))[0]?.id ??
    'research';
  const all = new Set(allWords(`${brief.idea.title} ${brief.idea.summary} ${brief.idea.text}`));
  const found = brief.vocabulary.filter((tag) => tag.split('-').every((part) => all.has(part)));
  const tags = [...new Set([...brief.idea.tags, ...found])].slice(0, 8);
  const mine = keywords(`${brief.idea.title} ${brief.idea.summary}`);
  const relationships = brief.others
    .map((o) => ({ o, j: jaccard(mine, keywords(`${o.title} ${o.summary}`)) }))
    .filter(({ j }) => j >= 0.08)
    .sort((a, b) => b.j - a.j)
    .slice(0, 3)
    .map(({ o, j }) => ({
      target: o.slug,
      type: 'related' as const,
      strength: Math.round(Math.min(1, j * 3) * 100) / 100,
      reason: `[simulated] Shares ${Math.round(j * 100)}% of its key words with "${o.title}".`,
    }));
  return { type, tags, relationships };
}

/** Every word of a text, short ones included (a tag like `ai` must match a whole word, not a part). */
function allWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
