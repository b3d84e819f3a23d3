import type { ReactNode } from 'react';

/** `text` with every occurrence of `words` (already lower-case) wrapped in <mark>. */
export function highlight(text: string, words: readonly string[]): ReactNode {
  const wanted = words.filter((w) => w !== '');
  if (wanted.length === 0) return text;
  const re = new RegExp(`(${wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'giu');
  const parts = text.split(re);
  return parts.map((part, i) =>
    // Split with one capturing group: odd places are the matches. The index is the part's identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string never reorder
    i % 2 === 1 ? <mark key={i}>{part}</mark> : part,
  );
}
