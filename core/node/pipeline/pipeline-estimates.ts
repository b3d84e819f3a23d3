import { MODE_SETTINGS, type Mode, resolveConfig } from '../../evaluation';
import { planEvaluation } from '../../evaluation/plan';
import { planClassification, planDevelopment, planLock, planRedTeamRound } from '../../pipeline/plan';
import type { PaidStep, StepEstimate } from '../../pipeline/steps';
import type { ProviderFactory, ProviderName } from '../debates/providers';
import { runEstimate } from '../llm/cost-preview';
import { loadPersonas } from '../personas/load-personas';
import type { Workspace } from '../workspace/workspace';

/**
 * Each step's cost preview for the pipeline's provider, the same way every start form's is made
 * (`runEstimate`: the step's call plan, the workspace's token table, the model table's prices): no
 * key is needed to say what a step would cost, and `cannotRun` says why the provider could not run.
 */
export function stepEstimates(
  ws: Workspace,
  provider: ProviderName,
  mode: Mode,
  providers: ProviderFactory,
): Record<PaidStep, StepEstimate> {
  const personas = loadPersonas(ws.root).personas;
  const tier = (id: string) => personas.find((p) => p.id === id)?.tier;
  const config = resolveConfig(mode);
  const redTeam = MODE_SETTINGS[mode].personas.length;
  const canRun = () => {
    providers(provider, ws.root, 1);
  };
  const priced = (plan: Parameters<typeof runEstimate>[1]) => runEstimate(ws.root, plan, provider, undefined, canRun);
  return {
    develop: priced(planDevelopment(tier('developer'))),
    evaluate: priced(planEvaluation({ mode, config, categories: ws.taxonomy.categories.length, redTeam })),
    redteam: priced(planRedTeamRound({ mode, config, redTeam })),
    classify: priced(planClassification(tier('classifier'))),
  };
}

/** The cost preview of letting an evaluation approved in the review gate lock: its narrative call. */
export function lockEstimate(
  ws: Workspace,
  provider: ProviderName,
  mode: Mode,
  providers: ProviderFactory,
): StepEstimate {
  return runEstimate(ws.root, planLock(mode), provider, undefined, () => {
    providers(provider, ws.root, 1);
  });
}
