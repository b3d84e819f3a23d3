import { z } from 'zod';
import type { SimilarityAnswer } from './answers';

/**
 * The judged measure's answer as the model writes it live: every pair's agreement keyed by the
 * pair's name as the ask lists it (`ana–ben`, the two agent ids joined by an en dash, which no id
 * holds), not as a list of `{a, b, agreement}` objects. Five agents make ten pairs, and spelling out
 * `"a": …, "b": …, "agreement": …` for each was half of what the judge wrote. The engine turns it
 * into the pairs the log, the replay scripts and every rule read (`SimilarityAnswer`).
 */

export const PAIR_JOIN = '–';

/** A pair's name, as the ask lists it and the answer keys it. */
export const pairName = (a: string, b: string) => `${a}${PAIR_JOIN}${b}`;

export const judgedAgreementsSchema = z.strictObject({
  agreements: z
    .record(z.string(), z.number().min(0).max(1).describe('how far the two proposals agree, 0 to 1'))
    .describe('every pair of proposals exactly once, keyed by its name as listed (ana–ben)'),
});
export type JudgedAgreements = z.output<typeof judgedAgreementsSchema>;

/** The two agent ids of a pair's name, or null when the key is not two ids joined by the dash. */
export function pairOfName(key: string): [string, string] | null {
  const parts = key.split(PAIR_JOIN).map((p) => p.trim());
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0], parts[1]] : null;
}

/** The agreements as the log keeps them; keys that name no pair are left out (the check refuses them first). */
export function agreementPairs(answer: JudgedAgreements): SimilarityAnswer {
  return {
    pairs: Object.entries(answer.agreements).flatMap(([key, agreement]) => {
      const pair = pairOfName(key);
      return pair ? [{ a: pair[0], b: pair[1], agreement }] : [];
    }),
  };
}

/** The live form of logged pairs: what a model that answers the judged measure sends. */
export function judgedAgreements(answer: SimilarityAnswer): JudgedAgreements {
  return { agreements: Object.fromEntries(answer.pairs.map((p) => [pairName(p.a, p.b), p.agreement])) };
}
