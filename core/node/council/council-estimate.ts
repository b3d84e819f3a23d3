import { planCouncil } from '../../council/plan';
import { councilConfigSchema } from '../../council/state';
import type { ProviderFactory, ProviderName } from '../debates/providers';
import { type RunEstimate, runEstimate } from '../llm/cost-preview';

/**
 * What a council task would cost on `provider` before it starts: the council's plan (a simple task's
 * calls, and its call limit at worst) priced from the model table, and whether the provider can run.
 */
export function councilEstimate(root: string, provider: ProviderName, providers: ProviderFactory): RunEstimate {
  const { maxCalls } = councilConfigSchema.parse({});
  return runEstimate(root, planCouncil({ maxCalls }), provider, undefined, () => providers(provider, root, 1));
}
