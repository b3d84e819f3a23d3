/**
 * Folder names for ideas. Letters of any script are kept (a Greek or Japanese title gives a readable
 * folder), accents are folded to their base letter where one exists, everything else becomes a hyphen.
 */
const MAX_SLUG_LENGTH = 64;

export function slugify(title: string): string {
  const folded = title
    .normalize('NFKD')
    // Combining marks left over from decomposition (é → e + ◌́).
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  let slug = folded
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length > MAX_SLUG_LENGTH) {
    slug = slug.slice(0, MAX_SLUG_LENGTH).replace(/-+[^-]*$/, '') || slug.slice(0, MAX_SLUG_LENGTH);
  }
  // Names the file system or our own layout treat specially are not usable as folders.
  if (slug === '' || slug.startsWith('_') || slug === '.' || slug === '..') return 'idea';
  return slug;
}

/** A slug not in `taken` (compared case-insensitively, since some file systems fold case). */
export function uniqueSlug(title: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((s) => s.toLowerCase()));
  const base = slugify(title);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
