/**
 * The terms a capture is compared by: what a text is about, as the lexical measure of
 * `similarity.ts` counts it. Letters and digits only, lower case without accents, the commonest
 * English words left out; a word's plural is read as its singular. Chinese, Japanese and Korean
 * are written without spaces, so their runs are cut into overlapping pairs of characters (a run of
 * one character is kept whole): two texts about 土壌水分 share 土壌, 壌水 and 水分.
 */

/** Words too common to say what a text is about (three letters or more; shorter ones never count). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now old ' +
    'see two way did get let put say she too use yet own via per who why off ago also that this with ' +
    'from have will would could should does what when where which than then them they their there these ' +
    'those into about within more less only been were your each some such very just over under after ' +
    'before because while most many much other same like make made here every being idea ideas what ' +
    'whom myself itself onto upon'
  ).split(' '),
);

/** Scripts written without spaces between words. */
const UNSPACED_SCRIPTS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const UNSPACED = new RegExp(`[${UNSPACED_SCRIPTS}]`, 'u');
/** A run cut where it passes between a script written with spaces and one written without. */
const SCRIPT_PARTS = new RegExp(`[${UNSPACED_SCRIPTS}]+|[^${UNSPACED_SCRIPTS}]+`, 'gu');
const RUN = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
/** Web addresses say where something is, not what it is about. */
const ADDRESS = /\b(?:https?:\/\/|www\.)\S+/giu;

/** Lower case, compatibility forms folded (full-width letters), accents removed. */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFKD').replace(MARKS, '').normalize('NFC');
}

/** A word's singular, for the regular English plurals only ("roofs" → roof, "batteries" → battery). */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The terms of a text, in order, repeats kept. */
export function captureTerms(text: string): string[] {
  const out: string[] = [];
  for (const [run] of foldText(text.replace(ADDRESS, ' ')).matchAll(RUN)) {
    // A run can mix scripts ("obsidianの設定"): each part is read by its own rule.
    for (const part of run.match(SCRIPT_PARTS) ?? []) {
      if (UNSPACED.test(part)) {
        const chars = [...part];
        if (chars.length === 1) out.push(part);
        for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
        continue;
      }
      if ([...part].length < 3 || STOP_WORDS.has(part) || !/\p{L}/u.test(part)) continue;
      out.push(singular(part));
    }
  }
  return out;
}
