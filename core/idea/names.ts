/**
 * What an id that arrives from a page or the command line may look like before it is used to find
 * a file. A slug names one idea folder and a debate or evaluation id names one log, so none of them
 * may hold a folder separator, a control character or a leading dot (`.`, `..`, hidden files): an
 * id that passes can only ever name a file in the folder it is meant for. Whether the thing exists
 * is the next check, made by the code that looks it up.
 */

/** A folder name sync would index as an idea (core/idea/layout.ts skips `_` and dot names). */
export const MAX_SLUG_CHARS = 200;
/** Debate and evaluation ids are lower-case ULIDs; older or hand-made ones use the same alphabet. */
export const MAX_RECORD_ID_CHARS = 100;
const RECORD_ID = /^[a-z0-9][a-z0-9-]*$/;

/** Why `slug` cannot name an idea folder, or null when it can. */
export function slugProblem(slug: string): string | null {
  if (slug === '') return 'needs an idea slug';
  if (slug.length > MAX_SLUG_CHARS) return `is longer than ${MAX_SLUG_CHARS} characters`;
  if (/[/\\]/.test(slug)) return 'is not an idea slug (it holds a folder separator)';
  if ([...slug].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
    return 'is not an idea slug (it holds a control character)';
  }
  if (slug.startsWith('.') || slug.startsWith('_')) return 'is not an idea slug (ideas never start with "." or "_")';
  return null;
}

/** Why `id` cannot be a debate, evaluation or (any protocol's) run id, or null when it can. */
export function recordIdProblem(id: string, what: 'debate' | 'evaluation' | 'run'): string | null {
  if (id === '') return `needs a ${what} id`;
  if (id.length > MAX_RECORD_ID_CHARS || !RECORD_ID.test(id)) return `is not a ${what} id`;
  return null;
}
