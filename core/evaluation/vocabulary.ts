// The words of the evaluation protocol, as data. Everything else in core/evaluation refers to these
// lists, so a new persona or lock reason is added in one place.

/** The phases of an evaluation (seed appendix G.2.4, narrowed by the design page). */
export const PHASES = ['PENDING', 'EVALUATING', 'DEBATING', 'SYNTHESIZING', 'REVIEWING', 'LOCKED', 'FAILED'] as const;
export type Phase = (typeof PHASES)[number];

export const MODES = ['quick', 'standard', 'deep'] as const;
export type Mode = (typeof MODES)[number];

/** Red-team personas in the order they join: the first three are v1, the last three deep only. */
export const RED_TEAM_PERSONAS = [
  'skeptic',
  'realist',
  'first-principles',
  'competitor',
  'contrarian',
  'edge-case',
] as const;
export type RedTeamPersona = (typeof RED_TEAM_PERSONAS)[number];

export interface ModeSettings {
  rounds: number;
  personas: readonly RedTeamPersona[];
}

/** Rounds and red-teamers per mode (seed 12.9 and appendix J.2). */
export const MODE_SETTINGS: Readonly<Record<Mode, ModeSettings>> = {
  quick: { rounds: 1, personas: ['skeptic', 'realist'] },
  standard: { rounds: 3, personas: ['skeptic', 'realist', 'first-principles'] },
  deep: { rounds: 5, personas: RED_TEAM_PERSONAS },
};

/** No evaluation ever runs more rounds than this, whatever its mode or config says. */
export const MAX_ROUNDS_EVER = 5;

/** How hard the arbiter holds both sides to first principles (seed 12.5, 12.8). */
export const FIRST_PRINCIPLES = ['lenient', 'moderate', 'strict'] as const;
export type FirstPrinciples = (typeof FIRST_PRINCIPLES)[number];

/**
 * When the arbiter's rulings move the scores (seed 12.5): `active`, after each exchange; `passive`,
 * once at the end of the round, by the round's rulings together.
 */
export const ARBITER_MODES = ['active', 'passive'] as const;
export type ArbiterMode = (typeof ARBITER_MODES)[number];

export const SEVERITIES = ['CRITICAL', 'MAJOR', 'MINOR', 'NOTE'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const WINNERS = ['EVALUATOR', 'RED_TEAM', 'DRAW'] as const;
export type Winner = (typeof WINNERS)[number];

export const RECOMMENDATIONS = ['PURSUE', 'REFINE', 'PAUSE', 'ABANDON'] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];

export const LOCK_REASONS = ['CONVERGENCE', 'MAX_ROUNDS', 'BUDGET', 'TIMEOUT', 'USER_APPROVED'] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

/**
 * Why a raised challenge was not debated. `crowded`: its evaluator already faces as many red-team
 * personas this round as the `redTeamersPerEvaluator` option allows.
 */
export const DROP_REASONS = ['repeat', 'over_cap', 'off_target', 'crowded'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** The agents the machine asks for work, one ask at a time. */
export const ROLES = ['evaluator', 'redteam', 'defense', 'arbiter', 'synthesis', 'narrative'] as const;
export type Role = (typeof ROLES)[number];

export function isRedTeamPersona(value: string): value is RedTeamPersona {
  return (RED_TEAM_PERSONAS as readonly string[]).includes(value);
}
