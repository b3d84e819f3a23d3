import { type CallPlan, type CostEstimate, priceCallPlan, type TierPrice } from '../../engine/cost-plan';
import { type ModelPrice, modelFor, priceOf } from '../../llm/prices';
import type { ProviderName } from '../debates/providers';
import { loadCallTokens } from './call-tokens';
import { loadModelsConfig } from './prices-loader';
import { UserError } from '../workspace/workspace';

/** The model table's name of each provider the app runs on. */
const TABLE_PROVIDER: Record<Exclude<ProviderName, 'simulated'>, string> = {
  anthropic: 'anthropic',
  openai: 'openai-compatible',
};

const FREE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0, cacheWritePerMTok: 0, cacheReadPerMTok: 0 };

/**
 * The price of each tier for a provider, from the model table alone: no key is needed to say what a
 * run would cost. The simulator costs nothing.
 */
export function tierPrices(workspace: string | null, provider: ProviderName): TierPrice {
  if (provider === 'simulated') return () => FREE;
  const config = loadModelsConfig(workspace);
  const name = TABLE_PROVIDER[provider];
  return (tier) => {
    const model = modelFor(config, name, tier);
    return model ? priceOf(model, config.prices) : undefined;
  };
}

/** A protocol's plan priced for a provider with the workspace's token table. */
export function previewCost(
  workspace: string | null,
  plan: CallPlan,
  provider: ProviderName,
  budgetUsd?: number,
): CostEstimate {
  return priceCallPlan(plan, loadCallTokens(workspace), tierPrices(workspace, provider), budgetUsd);
}

/** What a start form and the CLI show before a run: likely and worst calls and USD, and why. */
export interface RunEstimate {
  calls: number;
  usd: number;
  worstCalls: number;
  worstUsd: number;
  basis: string;
  /** Why the provider cannot run now (no key …), or null. */
  cannotRun: string | null;
}

/**
 * A protocol's plan priced for a provider (`previewCost`), said the way every preview says it; with
 * `canRun`, whether the provider could run now (its error, in words, when it could not).
 */
export function runEstimate(
  workspace: string | null,
  plan: CallPlan,
  provider: ProviderName,
  budgetUsd: number | undefined,
  canRun?: () => void,
): RunEstimate {
  const cost = previewCost(workspace, plan, provider, budgetUsd);
  let cannotRun: string | null = null;
  try {
    canRun?.();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    cannotRun = error.message;
  }
  return {
    calls: cost.likelyCalls,
    usd: cost.likelyUsd,
    worstCalls: cost.worstCalls,
    worstUsd: cost.worstUsd,
    basis:
      provider === 'simulated'
        ? `${plan.basis}; the simulator costs nothing`
        : `${plan.basis}${cost.worstIsBudget ? '; at worst the budget stops it' : ''}`,
    cannotRun,
  };
}
