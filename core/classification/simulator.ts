import { jaccard, keywords } from '../crux/keywords';
import { protocolSimulator } from '../sim/registry';
import type { Classification, ClassificationBrief } from './classify';

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

/** The classification brief's answer, registered in `core/sim/simulators.ts`. */
export const classificationSimulator = protocolSimulator<ClassificationBrief>('classification', {
  classify: (_seed, brief) => simulateClassification(brief),
});
