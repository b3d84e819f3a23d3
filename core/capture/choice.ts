import type { CaptureClassification } from './decision';

/**
 * What the researcher makes of a capture: a new idea, an addition to an existing one, or a new idea
 * that records the one it grew from (`inspired_by`). Written `new`, `existing:SLUG`, `inspired:SLUG`
 * on the command line (`capture --as`) and in replay scripts.
 */
export type CapturePlacement = { as: 'new' } | { as: 'existing'; slug: string } | { as: 'inspired'; slug: string };

export const PLACEMENT_WORDS = 'new, existing:SLUG or inspired:SLUG';

/** A placement from its words; null when they are not one. */
export function parsePlacement(words: string): CapturePlacement | null {
  const text = words.trim();
  if (text === 'new') return { as: 'new' };
  const match = /^(existing|inspired):(.+)$/.exec(text);
  const slug = match?.[2]?.trim();
  if (!match || !slug) return null;
  return { as: match[1] as 'existing' | 'inspired', slug };
}

export function placementWords(placement: CapturePlacement): string {
  return placement.as === 'new' ? 'new' : `${placement.as}:${placement.slug}`;
}

/** The researcher must choose before anything is written: it may belong to an idea, or already does. */
export function needsChoice(c: CaptureClassification): boolean {
  return c.decision !== 'NEW' || c.duplicateOf !== null;
}

/** There is something to choose (a NEW capture close to an idea may be linked to it); asked where one can ask. */
export function offersChoice(c: CaptureClassification): boolean {
  return needsChoice(c) || c.inspiredBy !== null;
}

/**
 * The placements a classification offers, the likeliest first: EXISTING offers adding to its idea,
 * then a new idea inspired by it, then a plain new one; AMBIGUOUS offers each candidate, then a new
 * idea inspired by the closest, then a plain new one; NEW offers a new idea, and linked to the idea
 * it is close to when there is one. A duplicate offers only a new idea (adding it again adds nothing).
 */
export function offeredPlacements(c: CaptureClassification): CapturePlacement[] {
  if (c.duplicateOf !== null) return [{ as: 'new' }];
  const inspired = c.inspiredBy ?? (c.decision === 'EXISTING' ? c.slug : null);
  const linked: CapturePlacement[] = inspired ? [{ as: 'inspired', slug: inspired }] : [];
  switch (c.decision) {
    case 'NEW':
      return [{ as: 'new' }, ...linked];
    case 'EXISTING':
      return [...(c.slug ? [{ as: 'existing' as const, slug: c.slug }] : []), ...linked, { as: 'new' }];
    case 'AMBIGUOUS':
      return [...c.candidates.map((x) => ({ as: 'existing' as const, slug: x.slug })), ...linked, { as: 'new' }];
  }
}
