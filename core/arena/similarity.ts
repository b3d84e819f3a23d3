/**
 * The lexical measure of agreement between proposals (the offline default, and the fallback when no
 * judge or embedding is at hand): word unigrams and bigrams of each proposal's title, summary and
 * body, compared by Jaccard. It sees shared wording, not shared meaning, which is why a score is
 * always shown with its measure.
 */

/**
 * The lowercased runs of Unicode letters and decimal digits of a text. A letter keeps its combining
 * marks (a Devanagari vowel sign, an accent typed apart) and the text is NFC-normalized first, so a
 * word is one token however its accents were typed.
 */
export function lexicalTokens(text: string): string[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{Nd}]+/gu) ?? []
  );
}

/** The set of word unigrams and bigrams (a bigram holds a space, which no token does). */
export function lexicalTerms(text: string): Set<string> {
  const tokens = lexicalTokens(text);
  const terms = new Set(tokens);
  for (let i = 1; i < tokens.length; i++) terms.add(`${tokens[i - 1]} ${tokens[i]}`);
  return terms;
}

/** |A ∩ B| / |A ∪ B|; 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** What the lexical measure reads of a proposal. */
export function proposalText(p: { title: string; summary: string; body: string }): string {
  return `${p.title} ${p.summary} ${p.body}`;
}

/** Every unordered pair of `ids`, in their order: (0,1), (0,2) … (1,2) … */
export function pairsOf<T>(ids: readonly T[]): [T, T][] {
  const pairs: [T, T][] = [];
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) pairs.push([ids[i] as T, ids[j] as T]);
  return pairs;
}

/** The mean lexical similarity over every pair of proposals (0 with fewer than two). */
export function lexicalScore(proposals: readonly { title: string; summary: string; body: string }[]): number {
  const terms = proposals.map((p) => lexicalTerms(proposalText(p)));
  const pairs = pairsOf(terms);
  if (pairs.length === 0) return 0;
  return pairs.reduce((sum, [a, b]) => sum + jaccard(a, b), 0) / pairs.length;
}
