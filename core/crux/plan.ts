import type { CallPlan } from '../engine/cost-plan';
import type { ModelTier } from '../ports/llm';
import type { CruxConfig } from './config';

/**
 * How many calls a crux debate makes, before it starts: a turn per message of each stage of each
 * thread, one analysis per thread whose crux locked. The likely case follows how debates go on the
 * model-like fake; the worst case is what the config and the limits allow at most.
 */

export interface CruxPlanInput {
  config: CruxConfig;
  /** The tier of each agent, in order. */
  agents: readonly ModelTier[];
  /** The debate's message limit: the engine never plans a turn beyond it. */
  maxMessages: number;
}

/**
 * Debates that spawn a second thread: about two in five on the fake, whatever the number of agents.
 * The figure is the mean number of threads a debate opens.
 */
const LIKELY_THREADS = 1.4;

/**
 * Lock messages a debate of up to four agents takes on the fake, retries and refusals included: about
 * four an agent (a commitment, a falsifier, a steelman and a grade).
 */
const LOCK_MOVES_PER_AGENT = 4;

/**
 * The lock messages of `n` agents under `each-across`: a commitment each, and a steelman and its grade
 * each way for every pair of the pairing, about n + 4·⌈n/2⌉ with the sides split evenly (the rule of
 * docs/crux-protocol.md, "Scaling with the number of agents"). It never falls below what a lock of
 * four agents takes, so the estimate of a small debate stays what it was.
 */
function eachAcrossLockMoves(n: number): number {
  return Math.max(LOCK_MOVES_PER_AGENT * Math.min(n, 4), n + 4 * Math.ceil(n / 2));
}

/**
 * A lock holds when most agents can supply their part within the lock's budget and retries; on the
 * design page's fixed budgets five agents still lock on the fake, eight no longer do (budgets grown
 * for the agents, as a new debate's are, hold them all).
 */
const LOCKABLE_MOVES_PER_AGENT = 3;

export function planCrux(input: CruxPlanInput): CallPlan {
  const { config } = input;
  const n = input.agents.length;
  const lockCapacity = config.budgets.CRUX_LOCK + config.lockRetryBudget * Math.max(0, config.maxLockAttempts - 1);
  // Pairwise steelmans: every agent steelmans and grades about half the others as well.
  const lockNeed =
    config.steelmanRule === 'pairwise' ? n * (2 + Math.max(1, Math.floor(n / 2)) * 2) : eachAcrossLockMoves(n);
  const locks = n * LOCKABLE_MOVES_PER_AGENT <= lockCapacity;

  // DISCOVERY usually ends early, one message past the minimum; the lock takes what it needs up to its
  // capacity; EVIDENCE stops once it is stable.
  const discovery = Math.min(config.earlyExitMinMessages + 1, config.budgets.DISCOVERY);
  const lock = Math.min(lockNeed, lockCapacity);
  const evidence = locks ? Math.min(config.evidenceStability.minMessages, config.budgets.EVIDENCE) : 0;
  const perThread = Math.min(discovery + lock + evidence, config.threadHardCap);
  const threads = Math.min(LIKELY_THREADS, config.maxActiveThreads);
  const likelyTurns = Math.min(perThread * threads, input.maxMessages);
  const likelyAnalyses = locks ? threads : 0;

  // At worst every turn the message limit allows is taken, and every thread short enough to fit locks.
  const worstTurns = input.maxMessages;
  const shortestLockedThread = config.earlyExitMinMessages + 2 * n;
  const worstAnalyses = Math.max(config.maxActiveThreads, Math.ceil(worstTurns / shortestLockedThread));

  const tiers = countTiers(input.agents);
  const calls: CallPlan['calls'] = [...tiers].map(([tier, count]) => ({
    kind: 'crux_move',
    tier,
    likely: (likelyTurns * count) / n,
    worst: (worstTurns * count) / n,
  }));
  calls.push({ kind: 'crux_analysis', likely: likelyAnalyses, worst: worstAnalyses });
  // The cross-thread analysis: one call per pair of crystallized cruxes, a second for the pairs sure
  // enough to be checked (about half of them on the simulator; at worst all).
  const pairs = (cruxes: number) => (cruxes * Math.max(0, cruxes - 1)) / 2;
  calls.push({ kind: 'crux_relation', likely: pairs(likelyAnalyses), worst: pairs(worstAnalyses) });
  calls.push({ kind: 'crux_relation_check', likely: pairs(likelyAnalyses) / 2, worst: pairs(worstAnalyses) });
  // Self-correction: each crux is put to one agent; about one in eight is challenged and reviewed.
  // At worst each of a crux's versions is checked and each challenge reviewed, two reviews at most.
  calls.push({ kind: 'crux_check', likely: likelyAnalyses, worst: worstAnalyses * 3 });
  calls.push({ kind: 'crux_review', likely: likelyAnalyses / 8, worst: worstAnalyses * 2 });
  // One call names the coalitions, when there are two cruxes or more to form them.
  calls.push({ kind: 'crux_coalition_labels', likely: likelyAnalyses >= 2 ? 1 : 0, worst: 1 });
  return {
    protocol: 'crux',
    size: n,
    calls,
    basis:
      `about ${Math.round(likelyTurns + likelyAnalyses)} calls: ${threads} threads × ` +
      `(${discovery} discovery + ${lock} lock${evidence > 0 ? ` + ${evidence} evidence` : ''} turns` +
      `${locks ? ' + 1 analysis' : ', the lock likely fails with this many agents'}); ` +
      `at most ${worstTurns} turns (the message limit) and ${worstAnalyses} analyses`,
  };
}

function countTiers(agents: readonly ModelTier[]): Map<ModelTier, number> {
  const counts = new Map<ModelTier, number>();
  for (const tier of agents) counts.set(tier, (counts.get(tier) ?? 0) + 1);
  return counts;
}
