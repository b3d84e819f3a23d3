/**
 * A short excerpt of `text` around the first word that starts with one of `terms` (as the search's
 * prefix match does), the match in [brackets]; the start of the text when nothing matches.
 */
export function snippetOf(text: string, terms: readonly string[], wordsAround = 6): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const wanted = terms.map((t) => fold(t)).filter((t) => t !== '');
  const at = words.findIndex((w) => {
    const bare = fold(w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    return wanted.some((t) => bare.startsWith(t));
  });
  if (at < 0) return words.slice(0, wordsAround * 2).join(' ') + (words.length > wordsAround * 2 ? ' …' : '');
  const from = Math.max(0, at - wordsAround);
  const to = Math.min(words.length, at + wordsAround + 1);
  const out = words.slice(from, to).map((w, i) => (from + i === at ? `[${w}]` : w));
  return `${from > 0 ? '… ' : ''}${out.join(' ')}${to < words.length ? ' …' : ''}`;
}

/** Lower case without accents, as the index's tokenizer compares words. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}
