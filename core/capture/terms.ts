/**
 * The terms a capture is compared by: what a text is about, as the lexical measure of
 * `similarity.ts` counts it. Letters and digits only, lower case without accents, the commonest
 * English words left out; a word's plural is read as its singular. Chinese, Japanese and Korean
 * are written without spaces, so their runs are cut into overlapping pairs of characters (a run of
 * one character is kept whole): two texts about 土壌水分 share 土壌, 壌水 and 水分.
 *
 * Written as a scan over the characters rather than with Unicode regular expressions: the whole
 * library is read this way the first time a capture is placed, and the scan is several times faster
 * (5,000 READMEs of 4 KB).
 */

/** Words too common to say what a text is about (three letters or more; shorter ones never count). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now old ' +
    'see two way who did get let put say she too use yet own via per why off ago also that this with ' +
    'from have will would could should does what when where which than then them they their there these ' +
    'those into about within more less only been were your each some such very just over under after ' +
    'before because while most many much other same like make made here every being idea ideas whom ' +
    'myself itself onto upon'
  ).split(' '),
);

/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const LETTER = /\p{L}/u;
/** Web addresses say where something is, not what it is about. */
const ADDRESS = /\b(?:https?:\/\/|www\.)\S+/gi;
/** Characters whose accents the fold removes (Latin, Greek, Cyrillic and their extensions). */
const ACCENTED = /[\u00c0-\u1fff]/;
const DIACRITICS = /[\u0300-\u036f]/g;

/** Lower case, compatibility forms folded (full-width letters), accents removed (kana keep their marks). */
export function foldText(text: string): string {
  const lower = text.normalize('NFKC').toLowerCase();
  return ACCENTED.test(lower) ? lower.normalize('NFKD').replace(DIACRITICS, '').normalize('NFC') : lower;
}

/** A word's singular, for the regular English plurals only ("roofs" → roof, "batteries" → battery). */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

const SEPARATOR = 0;
const SPACED = 1;
const WIDE = 2;
/** What a character is, by its code point: read once per character and kept. */
const kinds = new Map<number, number>();

function kindOf(code: number, char: string): number {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ? SPACED : SEPARATOR;
  let kind = kinds.get(code);
  if (kind === undefined) {
    kind = UNSPACED.test(char) ? WIDE : WORD_CHAR.test(char) ? SPACED : SEPARATOR;
    kinds.set(code, kind);
  }
  return kind;
}

function wordTerm(word: string, out: string[]): void {
  if (word.length < 3 || STOP_WORDS.has(word) || !LETTER.test(word)) return;
  out.push(singular(word));
}

function pairs(chars: string[], out: string[]): void {
  if (chars.length === 1) out.push(chars[0] as string);
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
}

/** The terms of a text, in order, repeats kept. */
export function captureTerms(text: string): string[] {
  const folded = foldText(text.replace(ADDRESS, ' '));
  const out: string[] = [];
  let start = -1;
  let wide: string[] = [];
  for (let i = 0; i < folded.length; ) {
    const code = folded.codePointAt(i) as number;
    const size = code > 0xffff ? 2 : 1;
    const kind = kindOf(code, size === 1 ? (folded[i] as string) : folded.slice(i, i + 2));
    // A word ends where anything but a spaced letter starts; a CJK run where anything but CJK does.
    if (kind !== SPACED && start >= 0) {
      wordTerm(folded.slice(start, i), out);
      start = -1;
    }
    if (kind !== WIDE && wide.length > 0) {
      pairs(wide, out);
      wide = [];
    }
    if (kind === SPACED && start < 0) start = i;
    if (kind === WIDE) wide.push(folded.slice(i, i + size));
    i += size;
  }
  if (start >= 0) wordTerm(folded.slice(start), out);
  if (wide.length > 0) pairs(wide, out);
  return out;
}
