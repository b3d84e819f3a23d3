import type { CandidateScore } from './similarity';

/**
 * Where a captured text belongs: a NEW idea, an EXISTING one (named), or AMBIGUOUS (the researcher
 * chooses among the candidates). The lexical rule below decides without a model; with a provider
 * the model decides from the same candidates (`placement-request.ts`), and the simulator plays it
 * by this rule.
 */

export const CAPTURE_DECISIONS = ['NEW', 'EXISTING', 'AMBIGUOUS'] as const;
export type CaptureDecision = (typeof CAPTURE_DECISIONS)[number];

/** The thresholds of the lexical rule (docs/capture.md). */
export const THRESHOLDS = {
  /** At or above: the capture is most likely part of that idea. */
  existing: 0.6,
  /** At or above (and below `existing`): it may be; the researcher is asked. Below: NEW. */
  ambiguous: 0.3,
  /** At or above, when not EXISTING: "a new idea, inspired by" the best candidate is offered. */
  inspired: 0.2,
  /** Two candidates over `existing` closer than this: which one is not clear, so AMBIGUOUS. */
  closeGap: 0.1,
  /** Fewer distinct terms than this is a title, not a text to place: always NEW (the offer stays). */
  minTerms: 3,
} as const;

/** How many candidates a classification names, and how many the model is shown. */
export const SHOWN_CANDIDATES = 3;
export const MODEL_CANDIDATES = 5;

export interface CaptureClassification {
  decision: CaptureDecision;
  /** EXISTING: the idea it belongs to; otherwise null. */
  slug: string | null;
  /**
   * The ideas to offer, best first: for AMBIGUOUS those to choose from; otherwise the closest ones
   * with their scores, for the researcher to see (at most three, none scoring 0).
   */
  candidates: CandidateScore[];
  /** "A new idea, inspired by" this one: close but distinct. Null when nothing is close, or EXISTING. */
  inspiredBy: string | null;
  /** The exact same text (its identity hash) is already recorded in this idea. */
  duplicateOf: string | null;
  /** The capture's identity hash (`identity.ts`). */
  identity: string;
  /** Who decided: the identity hash, the lexical rule, or the model. */
  by: 'identity' | 'lexical' | 'model';
  /** Why, in one sentence. */
  reason: string;
  /** How many distinct terms the capture has (the lexical measure's basis). */
  terms: number;
}

const percent = (score: number) => `${Math.round(score * 100)}%`;

/** The lexical rule: the capture's terms and the library ranked against it (`scoreLibrary`). */
export function decideLexically(
  ranked: readonly CandidateScore[],
  terms: number,
  identity: string,
): CaptureClassification {
  const scored = ranked.filter((c) => c.score > 0);
  const top = scored[0];
  const second = scored[1];
  const shown = scored.slice(0, SHOWN_CANDIDATES);
  const base = { identity, by: 'lexical' as const, terms, duplicateOf: null };
  const offer = (c: CandidateScore | undefined) => (c && c.score >= THRESHOLDS.inspired ? c.slug : null);
  const why = (c: CandidateScore) =>
    `${percent(c.score)} of its weighed terms are in "${c.title}"${c.shared.length ? ` (${c.shared.join(', ')})` : ''}`;

  if (!top)
    return {
      ...base,
      decision: 'NEW',
      slug: null,
      candidates: [],
      inspiredBy: null,
      reason: 'no idea shares its terms',
    };
  if (terms < THRESHOLDS.minTerms) {
    return {
      ...base,
      decision: 'NEW',
      slug: null,
      candidates: shown,
      inspiredBy: offer(top),
      reason: `it has ${terms} term${terms === 1 ? '' : 's'}, too few to place it in an idea; ${why(top)}`,
    };
  }
  if (top.score >= THRESHOLDS.existing) {
    const rival = second && second.score >= THRESHOLDS.existing && top.score - second.score < THRESHOLDS.closeGap;
    if (!rival)
      return { ...base, decision: 'EXISTING', slug: top.slug, candidates: shown, inspiredBy: null, reason: why(top) };
    const close = scored.filter((c) => c.score >= THRESHOLDS.existing && top.score - c.score < THRESHOLDS.closeGap);
    return {
      ...base,
      decision: 'AMBIGUOUS',
      slug: null,
      candidates: close.slice(0, SHOWN_CANDIDATES),
      inspiredBy: top.slug,
      reason: `${why(top)}, and nearly as many in "${second.title}"`,
    };
  }
  if (top.score >= THRESHOLDS.ambiguous) {
    return {
      ...base,
      decision: 'AMBIGUOUS',
      slug: null,
      candidates: scored.filter((c) => c.score >= THRESHOLDS.ambiguous).slice(0, SHOWN_CANDIDATES),
      inspiredBy: top.slug,
      reason: `${why(top)}: part of it, or a new idea?`,
    };
  }
  return {
    ...base,
    decision: 'NEW',
    slug: null,
    candidates: shown,
    inspiredBy: offer(top),
    reason: `at most ${why(top)}`,
  };
}
