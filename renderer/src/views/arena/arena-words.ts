import type { ArenaDetail } from '../../../../core/contract';

// How the arena views say the protocol's codes: the plain words first, the code beside them where
// logs and exports use it, and each with a (?) from the glossary where it appears.

/** The measure behind an agreement score, always named: a lexical score is never called semantic. */
export const MEASURE_WORDS: Record<ArenaDetail['settings']['similarity'], string> = {
  lexical: 'word overlap',
  judged: 'judged by a model',
  embedding: 'meaning vectors',
};

export const OUTCOME_WORDS: Record<NonNullable<ArenaDetail['outcome']>, { label: string; tone: string }> = {
  CONSENSUS: { label: 'consensus', tone: 'ok' },
  JUDGED: { label: 'decided by the judge', tone: 'accent' },
  SPLIT: { label: 'split', tone: 'warn' },
};

export const LEVEL_WORDS: Record<ArenaDetail['votes'][number]['level'], string> = {
  none: 'no consensus',
  majority: 'majority',
  supermajority: 'supermajority',
  unanimous: 'unanimous',
};

/** Which vote or judgment: the main one, the re-vote after the challenge, an extended round's. */
export function passWords(pass: string): string {
  if (pass === 'main') return 'the vote';
  if (pass === 'T') return 'the re-vote after the challenge';
  if (pass.startsWith('X')) return `extended round ${pass.slice(1)}`;
  return pass;
}

/** An agreement score (0–1) as shown: two decimals, the four of the result in the tooltip. */
export const agreement = (score: number) => score.toFixed(2);

export const percent = (x: number) => `${Math.round(x * 100)}%`;

/** An Elo change, signed, to one decimal. */
export function eloDelta(before: number, after: number): string {
  const d = Math.round((after - before) * 10) / 10;
  return d > 0 ? `+${d.toFixed(1)}` : d < 0 ? `−${Math.abs(d).toFixed(1)}` : '±0';
}
