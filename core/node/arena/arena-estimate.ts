import type { ArenaSetup } from '../../arena/live/setup';
import { arenaPlanOf } from '../../arena/plan';
import type { CallPlan } from '../../engine/cost-plan';
import type { ProviderName } from '../debates/providers';
import { type RunEstimate, runEstimate } from '../llm/cost-preview';

/**
 * What an arena or a tournament would cost, said once for every place that asks: `arena --estimate`
 * (and the line the CLI prints before it runs one) and the app's `arenas:estimate` (the arena start
 * form, the library's tournament form, a start's own check). The same plan (core/arena/plan.ts)
 * through the same `runEstimate`, so the CLI and the app cannot disagree on a setup's likely calls.
 */

/**
 * The budget of an arena started without one: the run service's. An estimate's worst case is
 * capped by what the run may spend, so it uses the same figure when none is given.
 */
export const DEFAULT_ARENA_BUDGET_USD = 2;

/** One arena's estimate, from its setup; with `canRun`, why the provider cannot run it now. */
export function arenaEstimate(
  root: string,
  setup: Pick<ArenaSetup, 'agents' | 'judge' | 'trickster' | 'config'>,
  provider: ProviderName,
  budgetUsd: number | undefined,
  canRun?: () => void,
): RunEstimate {
  return runEstimate(root, arenaPlanOf(setup), provider, budgetUsd ?? DEFAULT_ARENA_BUDGET_USD, canRun);
}

/**
 * A tournament's estimate, from its plan (`planTournament`): its budget is for all its meetings,
 * by default an arena's for each.
 */
export function tournamentEstimate(
  root: string,
  plan: CallPlan,
  meetings: number,
  provider: ProviderName,
  budgetUsd: number | undefined,
  canRun?: () => void,
): RunEstimate {
  return runEstimate(root, plan, provider, budgetUsd ?? DEFAULT_ARENA_BUDGET_USD * meetings, canRun);
}
