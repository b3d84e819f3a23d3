// The closed vocabularies of the crux protocol. Every list is `as const` so that the
// types, the zod schemas and the runtime checks all come from one place.

export const SIDES = ['YES', 'NO', 'UNCERTAIN'] as const;
export type Side = (typeof SIDES)[number];

/** Shortest to longest: the order matters, ties on the dominant horizon go to the longer one. */
export const HORIZONS = ['1-3mo', '12-18mo', '5y', '10y+'] as const;
export type Horizon = (typeof HORIZONS)[number];

export const STEELMAN_GRADES = ['PENDING', 'ACCURATE', 'INCOMPLETE', 'WRONG'] as const;
export type SteelmanGrade = (typeof STEELMAN_GRADES)[number];

/** The grades an agent may hand out; PENDING only ever comes from opening an attempt. */
export const GIVEN_GRADES = ['ACCURATE', 'INCOMPLETE', 'WRONG'] as const;
export type GivenGrade = (typeof GIVEN_GRADES)[number];

export const MOVES = [
  'CLAIM',
  'CHALLENGE',
  'CLARIFY',
  'REFRAME',
  'PROPOSE_CRUX',
  'STEELMAN',
  'GRADE_STEELMAN',
  'COMMIT_POSITION',
  'DECLARE_FALSIFIER',
  'PROVIDE_EVIDENCE',
  'CHALLENGE_EVIDENCE',
  'UPDATE_POSITION',
  'CONCEDE',
  // Allowed in no stage: only on a thread whose crux has crystallized (see core/crux/crux-review.ts).
  'CHALLENGE_CRUX',
] as const;
export type Move = (typeof MOVES)[number];

/** The moves a stage can ask for; CHALLENGE_CRUX is not one of them (a live turn is always in a stage). */
export const STAGE_MOVES = MOVES.filter((m): m is Exclude<Move, 'CHALLENGE_CRUX'> => m !== 'CHALLENGE_CRUX');

/** What a challenge of a crystallized crux says is wrong with it. */
export const CRUX_CHALLENGES = ['MIS_STATED', 'NOT_BINARY', 'NOT_DECISION_RELEVANT'] as const;
export type CruxChallenge = (typeof CRUX_CHALLENGES)[number];

/**
 * What one crystallized crux is to another (cross-thread analysis, ./relations.ts): the same question
 * (merged), or a dependency. ENTAILS: answering the deeper crux settles the other; SUPPORTS: it makes
 * one answer of the other more likely; CONTRADICTS: a YES to one is a NO to the other.
 */
export const CRUX_RELATIONS = ['DUPLICATE', 'ENTAILS', 'SUPPORTS', 'CONTRADICTS', 'NONE'] as const;
export type CruxRelationKind = (typeof CRUX_RELATIONS)[number];

/**
 * Where a proposed relation stands: DISMISSED below the thresholds (no second call), PROPOSED while
 * the second call is due, then CONFIRMED or REJECTED by it.
 */
export const RELATION_STATUSES = ['DISMISSED', 'PROPOSED', 'CONFIRMED', 'REJECTED'] as const;
export type RelationStatus = (typeof RELATION_STATUSES)[number];

/** The three stages a thread passes through while it is open. */
export const STAGES = ['DISCOVERY', 'CRUX_LOCK', 'EVIDENCE'] as const;
export type Stage = (typeof STAGES)[number];

export const THREAD_STATUSES = [
  'DISCOVERY',
  'CRUX_LOCK',
  'EVIDENCE',
  'CONVERGED',
  'FAILED_DISCOVERY',
  'FAILED_LOCK',
  'FAILED_CAP',
  'STALE',
  'MERGED',
] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

/** Which agent moves each stage accepts. Moderator messages bypass this table entirely. */
export const MOVES_BY_STAGE: Readonly<Record<Stage, readonly Move[]>> = {
  DISCOVERY: ['CLAIM', 'CHALLENGE', 'CLARIFY', 'REFRAME', 'PROPOSE_CRUX'],
  CRUX_LOCK: ['STEELMAN', 'GRADE_STEELMAN', 'COMMIT_POSITION', 'DECLARE_FALSIFIER', 'CLARIFY'],
  EVIDENCE: ['PROVIDE_EVIDENCE', 'CHALLENGE_EVIDENCE', 'UPDATE_POSITION', 'CONCEDE', 'PROPOSE_CRUX'],
};

/** Block reasons, in the order the checks run. */
export const BLOCK_REASONS = [
  'threadClosed',
  'stageRestriction',
  'replyLimit',
  'invalidMove',
  'steelmanRequired',
  'vagueFalsifier',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

export const INTERVENTION_KINDS = [
  'BINARY_FRAMING',
  'HORIZON_ALIGNMENT',
  'COMMIT_REQUEST',
  'STEELMAN_REQUEST',
  'FALSIFIER_REQUEST',
] as const;
export type InterventionKind = (typeof INTERVENTION_KINDS)[number];

/** Spawn rejection reasons, in the order the gates are checked. */
export const SPAWN_REJECTIONS = ['maxThreads', 'supporters', 'noQuestion', 'notOrthogonal'] as const;
export type SpawnRejection = (typeof SPAWN_REJECTIONS)[number];

export const REGIMES = ['partial', 'polarized', 'consensus', 'inconclusive'] as const;
export type Regime = (typeof REGIMES)[number];

export type SteelmanRule = 'each-across' | 'pairwise';

export function isStage(status: ThreadStatus): status is Stage {
  return status === 'DISCOVERY' || status === 'CRUX_LOCK' || status === 'EVIDENCE';
}

/** A side that takes part in a split; UNCERTAIN agents are outside every split-based rule. */
export function isDecided(side: Side | undefined): side is 'YES' | 'NO' {
  return side === 'YES' || side === 'NO';
}

export function opposite(side: 'YES' | 'NO'): 'YES' | 'NO' {
  return side === 'YES' ? 'NO' : 'YES';
}

export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}
