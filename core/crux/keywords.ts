// Text heuristics shared by falsifier checks, crux validation, orbiting and thread spawning.
// Words are runs of Unicode letters, so "décroissance" is one word and "B2B" is two.

export const VAGUE_WORDS: readonly string[] = ['probably', 'might', 'seems', 'feels', 'generally'];

export const MEASUREMENT_PHRASES: readonly string[] = ['will correlation', 'will volatility', 'will price'];

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'that this with from have will would does what when where which than then them they their ' +
    'there these those into about within more less only also been were your each some such very ' +
    'just over under after before because while'
  ).split(' '),
);

const NON_LETTERS = /[^\p{L}]+/u;

/** Lower-cased runs of letters, in order, duplicates kept. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(NON_LETTERS)
    .filter((w) => w.length > 0);
}

/** Keywords keep duplicates: orbiting measures how often they repeat. */
export function keywords(text: string): string[] {
  // Count code points, not UTF-16 units, so "longer than 3 letters" means 4+ letters.
  return words(text).filter((w) => [...w].length > 3 && !STOP_WORDS.has(w));
}

export function hasVagueWord(text: string): boolean {
  return words(text).some((w) => VAGUE_WORDS.includes(w));
}

export function isMeasurementQuestion(question: string): boolean {
  // Collapse runs of white space so "will  price" is caught as well.
  const text = question.toLowerCase().replace(/\s+/gu, ' ');
  return MEASUREMENT_PHRASES.some((p) => text.includes(p));
}

/** Jaccard similarity of two keyword sets; two empty sets are identical (1). */
export function jaccard(a: Iterable<string>, b: Iterable<string>): number {
  const left = new Set(a);
  const right = new Set(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const w of left) if (right.has(w)) shared++;
  return shared / (left.size + right.size - shared);
}

/** Total keywords over distinct keywords; 0 when there are none (nothing can repeat). */
export function repetitionRatio(texts: readonly string[]): number {
  const all = texts.flatMap(keywords);
  const distinct = new Set(all).size;
  return distinct === 0 ? 0 : all.length / distinct;
}
