import { href, type Route } from '../../router';

/** A comparison sets two to four ideas side by side (the channel refuses other counts). */
export const MIN_COMPARED = 2;
export const MAX_COMPARED = 4;

/**
 * The ideas a comparison route names: `#/compare?ideas=a,b,c`, in that order, each once. Kept in
 * the query so a comparison is a link one can keep, and the library's selection can open it.
 */
export function comparedSlugs(route: Route): string[] {
  const raw = route.query.get('ideas') ?? '';
  const slugs = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return slugs.filter((s, i) => slugs.indexOf(s) === i);
}

/** The route of a comparison of `slugs` (none: the view asks which ideas). */
export function compareHref(slugs: readonly string[]): string {
  return slugs.length === 0 ? href('compare') : href('compare', { ideas: slugs.join(',') });
}

/**
 * Which of `values` are the highest, when at least two are known and they differ: the cells a
 * comparison marks. Equal values mark nothing (no idea is ahead there).
 */
export function highest(values: readonly (number | null)[]): boolean[] {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return values.map(() => false);
  const top = Math.max(...known);
  if (known.every((v) => v === top)) return values.map(() => false);
  return values.map((v) => v !== null && v === top);
}
