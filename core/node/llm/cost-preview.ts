import { type CallPlan, type CostEstimate, priceCallPlan, type TierPrice } from '../../engine/cost-plan';
import { type ModelPrice, modelFor, priceOf } from '../../llm/prices';
import type { ProviderName } from '../debates/providers';
import { loadCallTokens } from './call-tokens';
import { loadModelsConfig } from './prices-loader';

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
