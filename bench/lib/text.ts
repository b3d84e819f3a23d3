import { Prng, seedOf } from './prng';

/**
 * Prose for generated ideas. Real words come first in the vocabulary (so they are the frequent
 * ones and the files read like notes), followed by a long tail of made-up words so the full-text
 * index sees thousands of distinct terms, as it would in a real library.
 */
const COMMON_WORDS = `
the a of to and in for on with that this is it as be by from at or we our they people can will
would could should not more most some many each every first new old small large local shared
open cheap simple better slow fast early late real rough clear hard easy main own other same
idea problem solution question answer evidence method study trial survey data dataset sensor
network model tool library service product project plan budget grant cost price money time week
month year season morning evening weekend volunteer member neighbour community school council
roof garden allotment soil water moisture energy solar battery panel power grid bicycle repair
workshop language podcast reader book chapter article paper journal review calibration judge
score metric baseline benchmark error noise signal measure reading sample field walk map route
station node gateway radio packet range coverage storage cloud server browser extension plugin
user customer student teacher researcher developer hobbyist owner tenant family friend group
team partner supplier market demand risk assumption interview feedback prototype test build
launch release version schedule deadline milestone habit routine health sleep diet exercise
lichen species habitat tree park street city town village river coast forest meadow weather
rain temperature winter summer spring autumn light sound music drawing writing story game craft
design layout colour paper print website app phone screen table chart report summary note draft
learn teach practise improve reduce increase compare check validate explore collect publish
share sell rent borrow fix track count estimate decide choose start stop keep change grow
because although while after before during until unless since whether either neither both
enough nearly about around roughly mostly rarely often usually always never perhaps probably
`
  .trim()
  .split(/\s+/);

const ONSETS = [
  'b',
  'br',
  'c',
  'ch',
  'd',
  'f',
  'g',
  'gr',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pl',
  'r',
  's',
  'st',
  't',
  'tr',
  'v',
  'w',
  'z',
];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 'm', 'nt', 'rd', 'x'];
/** Words YAML or the schema would read as something other than a string. */
const RESERVED = new Set(['null', 'true', 'false', 'yes', 'no', 'on', 'off']);

function inventWord(rng: Prng): string {
  let word = '';
  const syllables = rng.int(2, 4);
  for (let i = 0; i < syllables; i++) word += rng.pick(ONSETS) + rng.pick(NUCLEI);
  return word + rng.pick(CODAS);
}

function buildVocabulary(size: number): string[] {
  const rng = new Prng(seedOf('vocabulary'));
  const words = new Set(COMMON_WORDS);
  while (words.size < size) {
    const word = inventWord(rng);
    if (!RESERVED.has(word)) words.add(word);
  }
  return [...words];
}

export const VOCABULARY: readonly string[] = buildVocabulary(8000);
/** Made-up words only: used for free tags and file names, which must be plain kebab case. */
export const INVENTED: readonly string[] = VOCABULARY.slice(COMMON_WORDS.length);

export function word(rng: Prng): string {
  return VOCABULARY[rng.zipfIndex(VOCABULARY.length)] as string;
}

export function words(rng: Prng, count: number): string[] {
  return Array.from({ length: count }, () => word(rng));
}

export function sentence(rng: Prng, min = 8, max = 18, end = '.'): string {
  const list = words(rng, rng.int(min, max));
  // An occasional comma breaks up the rhythm, as real sentences do.
  if (list.length > 9 && rng.chance(0.5)) list[rng.int(3, list.length - 4)] += ',';
  const text = list.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + end;
}

/** Wraps prose at ~100 columns, like the sample ideas. */
export function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line !== '' && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/**
 * Sentences are ~100 characters, so stopping half a sentence short of the target makes a text come
 * out at about `chars` on average instead of always overshooting.
 */
const HALF_SENTENCE = 50;

/** A paragraph of about `chars` characters (always at least one sentence). */
export function paragraph(rng: Prng, chars: number): string {
  let text = sentence(rng);
  while (text.length + HALF_SENTENCE < chars) text += ` ${sentence(rng)}`;
  return wrap(text);
}

/** A bullet list of about `chars` characters (always at least one item). */
export function bullets(rng: Prng, chars: number): string {
  const items = [`- ${sentence(rng, 6, 14)}`];
  let total = (items[0] as string).length;
  while (total + HALF_SENTENCE < chars) {
    const item = `- ${sentence(rng, 6, 14)}`;
    items.push(item);
    total += item.length + 1;
  }
  return items.join('\n');
}

/** `count` distinct words of at least three letters, for names (slugs, file names). */
export function nameWords(rng: Prng, count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) {
    const w = word(rng);
    if (w.length >= 3) out.add(w);
  }
  return [...out];
}
