import type { Taxonomy } from '../taxonomy/taxonomy';
import type { DevelopmentQuestion } from './questions';

/**
 * What an idea is missing, most important first: README sections still empty (or holding only the
 * template's italic hint), then criteria with no score or a low-confidence one, leaving out gaps a
 * question already targets.
 */
export const README_SECTIONS = ['Problem', 'Who it is for', 'Proposed solution', 'Assumptions', 'Open questions'] as const;

export function emptySections(readmeBody: string): string[] {
  const out: string[] = [];
  for (const section of README_SECTIONS) {
    const match = new RegExp(`^##\\s+${section}\\s*$([\\s\\S]*?)(?=^##\\s|(?![\\s\\S]))`, 'mi').exec(readmeBody);
    if (!match) continue;
    const body = (match[1] ?? '').replace(/^\s*_[^_]*_\s*$/gm, '').trim();
    if (body === '') out.push(section);
  }
  return out;
}

export function findGaps(
  readmeBody: string,
  taxonomy: Taxonomy,
  standing: Readonly<Record<string, { score: number; confidence: number }>> | null,
  asked: readonly DevelopmentQuestion[],
): string[] {
  const covered = new Set(asked.map((q) => q.gap).filter((g): g is string => g !== null));
  const gaps: string[] = emptySections(readmeBody).filter((s) => !covered.has(s));
  const criteria = taxonomy.criteria
    .map((c, index) => ({ c, index, s: standing?.[c.id] }))
    .filter(({ c }) => !covered.has(c.id))
    .sort((a, b) => (a.s?.confidence ?? -1) - (b.s?.confidence ?? -1) || Number(b.c.critical) - Number(a.c.critical) || a.index - b.index);
  for (const { c, s } of criteria) if (!s || s.confidence < 0.7) gaps.push(c.id);
  return gaps;
}
