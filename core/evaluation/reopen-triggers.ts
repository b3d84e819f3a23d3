// When a locked evaluation "may be stale" (seed 12A.9): beside the idea's own inputs changing (its
// content hash, appendix C.5), a related idea that changed and the passing of time. Each trigger is
// weighed by a materiality check, and only a material one says "may be stale"; the others are kept
// as checks with their reasons, so the researcher sees what was weighed. Pure: the caller reads the
// workspace and the clock.

export type StaleTrigger = 'content' | 'related' | 'time';

export interface StaleCheck {
  trigger: StaleTrigger;
  /** It passed its materiality check: the evaluation may no longer hold. */
  material: boolean;
  reason: string;
}

/** A year: an evaluation's confidence halves in that time (seed 12A.9 "optional confidence decay"). */
export const CONFIDENCE_HALF_LIFE_DAYS = 365;
/** Time must take at least this much confidence for decay to matter (not a lock at the bar already). */
export const MATERIAL_DECAY = 0.1;
/** A related idea's score moving this much is material (the seed's "would have changed scores by >1"). */
export const MATERIAL_SCORE_MOVE = 1;
/** A link at least this strong carries a change across; a link without a strength, unless merely `related`. */
export const MATERIAL_LINK_STRENGTH = 0.5;

const DAY_MS = 86_400_000;
const two = (n: number) => n.toFixed(2);

/** The idea's own inputs (README, development, research) changed since the evaluation read them. */
export function contentCheck(stale: boolean): StaleCheck | null {
  return stale
    ? {
        trigger: 'content',
        material: true,
        reason: 'its README, development or research changed since it was evaluated',
      }
    : null;
}

/**
 * How a relationship reads with this idea as its subject ("this idea conflicts with …", "this
 * idea was inspired by …"): from the README that states it (`outgoing`) or from the other end.
 */
export function linkWords(type: string, outgoing: boolean): string {
  const words: Record<string, [string, string]> = {
    parent: ['is the parent of', 'is a child of'],
    child: ['is a child of', 'is the parent of'],
    inspired_by: ['was inspired by', 'inspired'],
    combines: ['combines', 'is combined into'],
    conflicts: ['conflicts with', 'conflicts with'],
    related: ['is related to', 'is related to'],
  };
  const pair = words[type] ?? [`is linked (${type}) to`, `is linked (${type}) to`];
  return outgoing ? pair[0] : pair[1];
}

export interface RelatedIdea {
  slug: string;
  title: string;
  type: string;
  strength: number | null;
  /** The relationship with this idea as its subject ("conflicts with", "was inspired by"). */
  link: string;
  /** Its current evaluation, or null when it has none. */
  current: { completedAt: string; overallScore: number; recommendation: string } | null;
  /** The evaluation its current one superseded, or null when it is the first. */
  previous: { overallScore: number; recommendation: string } | null;
}

/**
 * A related idea that changed since this evaluation locked: re-evaluated after it. Material when
 * the link is strong enough (strength ≥ 0.5, or no strength and more than `related`) and its
 * overall score moved by a point or more, or its recommendation changed, from the evaluation its
 * new one superseded. An edit of a related idea alone is not weighed: how much it matters is
 * unknown until that idea is evaluated again. Null when it did not change since.
 */
export function relatedCheck(evaluatedAt: string, related: RelatedIdea): StaleCheck | null {
  const now = related.current;
  if (now === null || Date.parse(now.completedAt) <= Date.parse(evaluatedAt)) return null;
  const who = `“${related.title}”, which this idea ${related.link},`;
  const when = now.completedAt.slice(0, 10);
  const before = related.previous;
  if (before === null)
    return {
      trigger: 'related',
      material: false,
      reason: `${who} was evaluated for the first time on ${when}: there is no earlier score to compare`,
    };
  const move = now.overallScore - before.overallScore;
  const change = `overall ${two(before.overallScore)} → ${two(now.overallScore)}${now.recommendation === before.recommendation ? '' : `, ${before.recommendation} → ${now.recommendation}`}`;
  const strongLink =
    related.strength === null ? related.type !== 'related' : related.strength >= MATERIAL_LINK_STRENGTH;
  const bigChange = Math.abs(move) >= MATERIAL_SCORE_MOVE || now.recommendation !== before.recommendation;
  if (!strongLink)
    return {
      trigger: 'related',
      material: false,
      reason: `${who} was re-evaluated on ${when} (${change}), but the link is weak (strength ${related.strength ?? 'none'}, under ${MATERIAL_LINK_STRENGTH})`,
    };
  if (!bigChange)
    return {
      trigger: 'related',
      material: false,
      reason: `${who} was re-evaluated on ${when} (${change}): under ${MATERIAL_SCORE_MOVE} point and the same recommendation`,
    };
  return { trigger: 'related', material: true, reason: `${who} was re-evaluated on ${when}: ${change}` };
}

/** Confidence after `ageDays`, halving every `halfLifeDays`. */
export function decayedConfidence(
  confidence: number,
  ageDays: number,
  halfLifeDays = CONFIDENCE_HALF_LIFE_DAYS,
): number {
  return confidence * 0.5 ** (Math.max(0, ageDays) / halfLifeDays);
}

/**
 * Time decay: the evaluation's overall confidence halves every `halfLifeDays`. Material once time
 * has taken at least 0.1 of it and left it under the minimum the evaluation itself required to
 * converge (its `minConfidence`): an evaluation locked under that bar (at its round limit) is not
 * stale on its first day, only once time has worn it down too. Not material yet, it says until when
 * it holds.
 */
export function timeDecayCheck(
  evaluation: { completedAt: string; confidence: number; minimum: number },
  now: Date,
  halfLifeDays = CONFIDENCE_HALF_LIFE_DAYS,
): StaleCheck {
  const { confidence, minimum } = evaluation;
  const ageDays = Math.floor((now.getTime() - Date.parse(evaluation.completedAt)) / DAY_MS);
  const decayed = decayedConfidence(confidence, ageDays, halfLifeDays);
  const age = `${ageDays} day${ageDays === 1 ? '' : 's'} old`;
  if (decayed < minimum && confidence - decayed >= MATERIAL_DECAY - 1e-9)
    return {
      trigger: 'time',
      material: true,
      reason: `${age}: its confidence ${two(confidence)} has decayed to ${two(decayed)} (halving every ${halfLifeDays} days), under the ${two(minimum)} it needed`,
    };
  // The first day both hold: under the minimum (halfLife × log2(confidence ÷ minimum) days) and
  // 0.1 taken (halfLife × log2(confidence ÷ (confidence − 0.1)) days).
  const days = (ratio: number) => (ratio > 0 && Number.isFinite(ratio) ? halfLifeDays * Math.log2(ratio) : 0);
  const crossing = Math.max(
    days(confidence / minimum),
    confidence > MATERIAL_DECAY ? days(confidence / (confidence - MATERIAL_DECAY)) : Number.POSITIVE_INFINITY,
  );
  const until = Number.isFinite(crossing)
    ? new Date(Date.parse(evaluation.completedAt) + Math.ceil(crossing) * DAY_MS).toISOString().slice(0, 10)
    : null;
  return {
    trigger: 'time',
    material: false,
    reason: `${age}: its confidence ${two(confidence)} has decayed to ${two(decayed)}${until ? `; it may be stale from ${until}` : ''}`,
  };
}
