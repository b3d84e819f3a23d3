import { z } from 'zod';
import type { SteelmanRule } from './vocabulary';

/** Every knob of the protocol. A debate stores the fully resolved config so a replay never
 *  depends on defaults that may change later. */
export interface CruxConfig {
  budgets: { DISCOVERY: number; CRUX_LOCK: number; EVIDENCE: number };
  /** An early DISCOVERY exit needs at least this many stage messages, the proposal included. */
  earlyExitMinMessages: number;
  discoveryExtensions: number;
  discoveryExtensionBudget: number;
  lockRetryBudget: number;
  /** Counts failures: reaching this many failed attempts closes the thread as FAILED_LOCK. */
  maxLockAttempts: number;
  steelmanRule: SteelmanRule;
  evidenceStability: { minMessages: number; window: number };
  threadHardCap: number;
  maxActiveThreads: number;
  maxReplies: number;
  coalitions: { minCruxes: number; minPositions: number; threshold: number };
  /**
   * A devil's advocate joins when the debate reaches this many accepted agent messages and no crux
   * has been proposed yet (0: never). See ./honesty.ts.
   */
  devilsAdvocateAfter: number;
  /**
   * Debate-wide stop rules, in accepted agent messages (0: off): no new crux (a proposal, a spawned
   * thread, a crystallization) in `noNewCrux`; coalitions and the irreducible cruxes unchanged, and
   * no thread spawned, in `coalitionsStable`. See ./honesty.ts.
   */
  stopRules: { noNewCrux: number; coalitionsStable: number };
  /**
   * An agent reads a message of a thread when its relevance to the agent reaches this (seed 000's
   * 0.6); messages addressed to it and the thread of a crux it committed on are always read. 0: every
   * agent reads everything. See ./attention.ts.
   */
  attentionThreshold: number;
  /**
   * A thread with no accepted message while the debate takes this many turns (agent messages, refused
   * ones included) goes STALE (0: never). Counted in agent messages, so it grows with the agents. See ./staleness.ts.
   */
  staleAfter: number;
}

export const DEFAULT_CONFIG: CruxConfig = {
  budgets: { DISCOVERY: 8, CRUX_LOCK: 8, EVIDENCE: 14 },
  earlyExitMinMessages: 6,
  discoveryExtensions: 1,
  discoveryExtensionBudget: 4,
  lockRetryBudget: 4,
  maxLockAttempts: 3,
  steelmanRule: 'each-across',
  evidenceStability: { minMessages: 8, window: 6 },
  threadHardCap: 40,
  maxActiveThreads: 4,
  maxReplies: 2,
  coalitions: { minCruxes: 2, minPositions: 2, threshold: 0.7 },
  devilsAdvocateAfter: 20,
  stopRules: { noNewCrux: 50, coalitionsStable: 30 },
  attentionThreshold: 0.6,
  staleAfter: 40,
};

const count = z.number().int().nonnegative();
const positive = z.number().int().positive();

/**
 * Overrides as written in a debate line: every key optional, nested groups partial. A debate line
 * and a request may carry keys this version does not know (they are dropped); `strict` refuses them,
 * for a config a researcher writes by hand, where a misspelt knob would otherwise vanish unseen.
 */
function overridesSchema(strict: boolean) {
  // One shape for both: the strict object checks the same fields and parses to the same type.
  const object = strict ? (z.strictObject as typeof z.object) : z.object;
  return object({
    budgets: object({ DISCOVERY: positive, CRUX_LOCK: positive, EVIDENCE: positive }).partial().optional(),
    earlyExitMinMessages: positive.optional(),
    discoveryExtensions: count.optional(),
    discoveryExtensionBudget: positive.optional(),
    lockRetryBudget: positive.optional(),
    maxLockAttempts: positive.optional(),
    steelmanRule: z.enum(['each-across', 'pairwise']).optional(),
    evidenceStability: object({ minMessages: positive, window: positive }).partial().optional(),
    threadHardCap: positive.optional(),
    maxActiveThreads: positive.optional(),
    maxReplies: positive.optional(),
    coalitions: object({ minCruxes: positive, minPositions: positive, threshold: z.number().min(0).max(1) })
      .partial()
      .optional(),
    devilsAdvocateAfter: count.optional(),
    stopRules: object({ noNewCrux: count, coalitionsStable: count }).partial().optional(),
    attentionThreshold: z.number().min(0).max(1).optional(),
    staleAfter: count.optional(),
  });
}
export const configOverridesSchema = overridesSchema(false);
/** The same overrides, refusing any key they do not name, at every level (`budgets.DISCOVRY`). */
export const strictConfigOverridesSchema = overridesSchema(true);
export type CruxConfigOverrides = z.infer<typeof configOverridesSchema>;

export function resolveConfig(overrides: CruxConfigOverrides = {}): CruxConfig {
  const d = DEFAULT_CONFIG;
  return {
    budgets: { ...d.budgets, ...overrides.budgets },
    earlyExitMinMessages: overrides.earlyExitMinMessages ?? d.earlyExitMinMessages,
    discoveryExtensions: overrides.discoveryExtensions ?? d.discoveryExtensions,
    discoveryExtensionBudget: overrides.discoveryExtensionBudget ?? d.discoveryExtensionBudget,
    lockRetryBudget: overrides.lockRetryBudget ?? d.lockRetryBudget,
    maxLockAttempts: overrides.maxLockAttempts ?? d.maxLockAttempts,
    steelmanRule: overrides.steelmanRule ?? d.steelmanRule,
    evidenceStability: { ...d.evidenceStability, ...overrides.evidenceStability },
    threadHardCap: overrides.threadHardCap ?? d.threadHardCap,
    maxActiveThreads: overrides.maxActiveThreads ?? d.maxActiveThreads,
    maxReplies: overrides.maxReplies ?? d.maxReplies,
    coalitions: { ...d.coalitions, ...overrides.coalitions },
    devilsAdvocateAfter: overrides.devilsAdvocateAfter ?? d.devilsAdvocateAfter,
    stopRules: { ...d.stopRules, ...overrides.stopRules },
    attentionThreshold: overrides.attentionThreshold ?? d.attentionThreshold,
    staleAfter: overrides.staleAfter ?? d.staleAfter,
  };
}
