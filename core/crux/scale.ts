import { type CruxConfigOverrides, DEFAULT_CONFIG } from './config';

/**
 * The size of debate the design page's defaults were set for. Up to this many agents a debate runs
 * on the defaults exactly as written.
 */
export const DEFAULT_AGENTS = 4;

/** A default counted in agent messages, grown for `agents` agents (rounded up; never below it). */
function grown(value: number, agents: number): number {
  return Math.ceil((value * agents) / DEFAULT_AGENTS);
}

/** The keys of a group that were set (a key present but undefined must not hide a default). */
function setKeys<T extends object>(group: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(group ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A debate's config for its number of agents: the overrides it was given, plus, for every default
 * counted in agent messages that it did not set, that default grown in proportion to the agents
 * beyond four, so each agent has as many turns in every stage as in a debate of four.
 *
 * Why: locking a crux is work per agent. Every agent commits; every YES/NO agent gives an ACCURATE
 * steelman across the divide and receives one, each a steelman and a grade. That is at least
 * N + 4·max(#YES, #NO) lock messages, against a lock stage of 8 + 4 + 4 at most. With four agents a
 * lock fits in the second attempt; with six it no longer fits at all, and every thread failed.
 *
 * The devil's advocate's threshold, the debate-wide stop rules and the turns before an idle thread
 * goes stale are counted in agent messages too and grow the same way. Counts that are not agent messages (extensions, lock attempts, active
 * threads, replies, the coalition rule) do not grow. What a debate was given is used as given. The result is written
 * into a new debate's header, so its log reads the same whatever the defaults become, and a log or
 * a replay script without these keys still reads the design page's defaults.
 */
export function configForAgents(agents: number, overrides: CruxConfigOverrides = {}): CruxConfigOverrides {
  if (agents <= DEFAULT_AGENTS) return overrides;
  const d = DEFAULT_CONFIG;
  const g = (value: number) => grown(value, agents);
  return {
    ...overrides,
    budgets: {
      DISCOVERY: g(d.budgets.DISCOVERY),
      CRUX_LOCK: g(d.budgets.CRUX_LOCK),
      EVIDENCE: g(d.budgets.EVIDENCE),
      ...setKeys(overrides.budgets),
    },
    earlyExitMinMessages: overrides.earlyExitMinMessages ?? g(d.earlyExitMinMessages),
    discoveryExtensionBudget: overrides.discoveryExtensionBudget ?? g(d.discoveryExtensionBudget),
    lockRetryBudget: overrides.lockRetryBudget ?? g(d.lockRetryBudget),
    evidenceStability: {
      minMessages: g(d.evidenceStability.minMessages),
      window: g(d.evidenceStability.window),
      ...setKeys(overrides.evidenceStability),
    },
    threadHardCap: overrides.threadHardCap ?? g(d.threadHardCap),
    // Counted in agent messages too: a debate of twelve reaches its first crux proposal, and runs
    // between two new cruxes, about three times as long as a debate of four.
    devilsAdvocateAfter: overrides.devilsAdvocateAfter ?? g(d.devilsAdvocateAfter),
    // A thread's idle turns: with more agents each round takes more turns elsewhere.
    staleAfter: overrides.staleAfter ?? g(d.staleAfter),
    stopRules: {
      noNewCrux: g(d.stopRules.noNewCrux),
      coalitionsStable: g(d.stopRules.coalitionsStable),
      ...setKeys(overrides.stopRules),
    },
  };
}
