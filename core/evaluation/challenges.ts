import { jaccard, keywords } from '../crux/keywords';
import type { RaisedChallenge } from './answers';
import type { DroppedChallenge, EvaluationState } from './state';
import type { RedTeamPersona } from './vocabulary';

// Choosing what the red team attacks, and deciding which raised challenges get debated.

/** How much each earlier exchange on a criterion lowers its priority as a target. */
export const TESTED_PENALTY = 0.1;

/**
 * A criterion's priority as a target: high scores and low confidences first (seed 11.6, 12A.3),
 * and criteria already argued over yield a little to untested ones:
 * `score / 10 + (1 − confidence) − 0.1 × earlier exchanges on it`.
 */
export function targetPriority(score: number, confidence: number, exchanges: number): number {
  return score / 10 + (1 - confidence) - TESTED_PENALTY * exchanges;
}

/** The criteria to propose to the red team this round, best target first (ties: taxonomy order). */
export function proposeTargets(state: EvaluationState, count: number): string[] {
  const exchanges: Record<string, number> = {};
  for (const c of state.challenges) if (c.ruling) exchanges[c.criterion] = (exchanges[c.criterion] ?? 0) + 1;
  return state.criteria
    .map((c, index) => {
      const s = state.scores[c.id];
      return { id: c.id, index, priority: s ? targetPriority(s.score, s.confidence, exchanges[c.id] ?? 0) : 0 };
    })
    .sort((a, b) => b.priority - a.priority || a.index - b.index)
    .slice(0, count)
    .map((t) => t.id);
}

/**
 * Normalized keywords: the crux protocol's keywords (words of 4+ letters, stop words removed) with
 * a plain plural `s` dropped, so "users" and "user" count as one word.
 */
export function challengeKeywords(text: string): string[] {
  return keywords(text).map((w) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/** Lower case, letters and digits only, single spaces: what "the same text" means. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function similarity(a: string, b: string): number {
  return jaccard(challengeKeywords(a), challengeKeywords(b));
}

interface Known {
  id: string | null;
  criterion: string;
  challenge: string;
  earlierRound: boolean;
}

/**
 * Whether `candidate` repeats a known challenge: near-identical text on the same criterion
 * (keyword Jaccard ≥ threshold), or exactly the same text as an earlier round's challenge on any
 * criterion. Returns the match, or null.
 */
export function findRepeat(
  candidate: { criterion: string; challenge: string },
  known: readonly Known[],
  threshold: number,
): Known | null {
  const text = normalizeText(candidate.challenge);
  for (const k of known) {
    if (k.criterion === candidate.criterion && similarity(k.challenge, candidate.challenge) >= threshold) return k;
    if (k.earlierRound && normalizeText(k.challenge) === text) return k;
  }
  return null;
}

export interface Selection {
  accepted: (RaisedChallenge & { persona: RedTeamPersona })[];
  dropped: DroppedChallenge[];
  raised: number;
}

/**
 * Picks the round's debated challenges from every persona's answer. Personas take turns (each
 * one's first challenge, then each one's second, …) so the cap never silences the last persona.
 * Each challenge is dropped when it is off the round's focus, when it repeats an earlier round's
 * challenge or one already taken this round, when its evaluator already faces
 * `redTeamersPerEvaluator` other personas this round (`crowded`), or when the round already has
 * `cap` challenges.
 */
export function selectChallenges(
  state: EvaluationState,
  round: number,
  answers: readonly { persona: RedTeamPersona; challenges: readonly RaisedChallenge[] }[],
  focus: string | null,
): Selection {
  const { challengesPerRound: cap, repeatSimilarity } = state.config;
  const perEvaluator = state.config.redTeamersPerEvaluator ?? null;
  /** The personas each evaluator (category) faces this round, in the order they were taken. */
  const facing = new Map<string, Set<RedTeamPersona>>();
  const categoryOf = (criterion: string) => state.criteria.find((k) => k.id === criterion)?.category ?? criterion;
  const known: Known[] = state.challenges
    .filter((c) => c.round < round)
    .map((c) => ({ id: c.id, criterion: c.criterion, challenge: c.challenge, earlierRound: true }));
  const interleaved: (RaisedChallenge & { persona: RedTeamPersona })[] = [];
  const longest = Math.max(0, ...answers.map((a) => a.challenges.length));
  for (let i = 0; i < longest; i++) {
    for (const a of answers) {
      const c = a.challenges[i];
      if (c) interleaved.push({ ...c, persona: a.persona });
    }
  }

  const accepted: Selection['accepted'] = [];
  const dropped: DroppedChallenge[] = [];
  const drop = (c: Selection['accepted'][number], reason: DroppedChallenge['reason'], repeatOf: string | null = null) =>
    dropped.push({
      persona: c.persona,
      criterion: c.criterion,
      severity: c.severity,
      challenge: c.challenge,
      reason,
      repeatOf,
    });

  for (const c of interleaved) {
    if (focus !== null && c.criterion !== focus) {
      drop(c, 'off_target');
      continue;
    }
    const repeat = findRepeat(c, known, repeatSimilarity);
    if (repeat) {
      drop(c, 'repeat', repeat.id);
      continue;
    }
    const faced = facing.get(categoryOf(c.criterion)) ?? new Set<RedTeamPersona>();
    if (perEvaluator !== null && !faced.has(c.persona) && faced.size >= perEvaluator) {
      drop(c, 'crowded');
      continue;
    }
    if (accepted.length < cap) {
      accepted.push(c);
      faced.add(c.persona);
      facing.set(categoryOf(c.criterion), faced);
      known.push({
        id: `r${round}c${accepted.length}`,
        criterion: c.criterion,
        challenge: c.challenge,
        earlierRound: false,
      });
    } else {
      drop(c, 'over_cap');
      known.push({ id: null, criterion: c.criterion, challenge: c.challenge, earlierRound: false });
    }
  }
  return { accepted, dropped, raised: interleaved.length };
}
