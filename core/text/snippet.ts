/**
 * A short excerpt of `text` around the first word that starts with one of `terms` (as the search's
 * prefix match does), the match in [brackets]; the start of the text when nothing matches.
 *
 * Around the match it keeps `wordsAround` words on each side, and never more than `wordsAround × 10`
 * columns on either side, a Chinese, Japanese or Korean character counting two (as wide as it is
 * shown): those scripts put no spaces between words, so a paragraph of Japanese is one "word", and
 * a snippet measured in words alone ran to the whole paragraph. Cut there, a side ends at a space
 * when there is one near, else (a run with no spaces) mid-run, marked `…`. A matched run longer
 * than `MARK_COLUMNS` is marked only as far as the searched term reaches.
 */
export function snippetOf(text: string, terms: readonly string[], wordsAround = 6): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const limit = wordsAround * COLUMNS_PER_WORD;
  const hit = firstMatch(flat, terms);
  if (!hit) return after(flat, wordsAround * 2, limit * 2, false);
  return `${before(flat.slice(0, hit.start), wordsAround, limit)}[${flat.slice(hit.start, hit.end)}]${after(flat.slice(hit.end), wordsAround, limit)}`;
}

/** Columns a word takes on average; a side of the snippet holds at most this many per word asked. */
const COLUMNS_PER_WORD = 10;
/** A matched run wider than this is marked only as far as the searched term. */
const MARK_COLUMNS = 24;

/** Characters shown two columns wide (East Asian Wide and Fullwidth): CJK, kana, Hangul, their punctuation. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** How wide a text is shown: two columns for a wide (CJK) character, one for the rest. */
function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += WIDE.test(ch) ? 2 : 1;
  return n;
}

/** Lower case without accents, as the index's tokenizer compares words. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Where the first run of letters that starts with a term is, and how far to mark it. */
function firstMatch(text: string, terms: readonly string[]): { start: number; end: number } | null {
  const wanted = terms.map(fold).filter((t) => t !== '');
  if (wanted.length === 0) return null;
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    const folded = fold(token);
    const term = wanted.find((t) => folded.startsWith(t));
    if (term === undefined) continue;
    const start = m.index;
    if (columns(token) <= MARK_COLUMNS) return { start, end: start + token.length };
    // Mark as many characters of the run as the term folds to.
    let end = start;
    for (const ch of token) {
      if (fold(token.slice(0, end - start)).length >= term.length) break;
      end += ch.length;
    }
    return { start, end };
  }
  return null;
}

/** The last `count` words of the text before the match, at most `limit` columns. */
function before(text: string, count: number, limit: number): string {
  if (text === '') return '';
  const spaced = text.endsWith(' ');
  const words = text.trimEnd().split(' ');
  // A piece glued to the match (`(`, `研究ノート：`) belongs to the matched word and is not counted.
  const take = spaced ? count : count + 1;
  let kept = words.slice(-take).join(' ');
  let cut = words.length > take;
  if (columns(kept) > limit) {
    kept = lastColumns(kept, limit);
    cut = true;
    const space = kept.indexOf(' ');
    // A word cut in two is dropped when a whole one is left; a run without spaces is cut mid-run.
    if (space >= 0 && space < kept.length / 2) kept = kept.slice(space + 1);
  }
  return `${cut ? '… ' : ''}${kept}${spaced ? ' ' : ''}`;
}

/** The first `count` words of the text after the match (or of the whole text: not `glued`), at most `limit` columns. */
function after(text: string, count: number, limit: number, glued = true): string {
  if (text === '') return '';
  const spaced = text.startsWith(' ');
  const words = text.trimStart().split(' ');
  const take = spaced || !glued ? count : count + 1;
  let kept = words.slice(0, take).join(' ');
  let cut = words.length > take;
  if (columns(kept) > limit) {
    kept = firstColumns(kept, limit);
    cut = true;
    const space = kept.lastIndexOf(' ');
    if (space >= 0 && space > kept.length / 2) kept = kept.slice(0, space);
  }
  return `${spaced ? ' ' : ''}${kept}${cut ? ' …' : ''}`;
}

function firstColumns(text: string, limit: number): string {
  let out = '';
  let n = 0;
  for (const ch of text) {
    n += columns(ch);
    if (n > limit) break;
    out += ch;
  }
  return out;
}

function lastColumns(text: string, limit: number): string {
  const chars = [...text];
  let out = '';
  let n = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    n += columns(chars[i] as string);
    if (n > limit) break;
    out = (chars[i] as string) + out;
  }
  return out;
}
