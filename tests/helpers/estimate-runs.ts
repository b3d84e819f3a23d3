import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mode } from '../../core/evaluation/vocabulary';
import { estimateCallCost, modelFor } from '../../core/llm/prices';
import type { LlmRequest } from '../../core/ports/llm';
import { appRoot } from '../../core/node/app-root';
import { type DebateEstimate, DebateService } from '../../core/node/debates/debate-service';
import type { Provider, ProviderFactory } from '../../core/node/debates/providers';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { ANTHROPIC_PROVIDER, createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { Workspace } from '../../core/node/workspace/workspace';
import { FakeAnthropic, modelLike } from '../fakes/fake-anthropic';
import { simulatorResponder } from '../fakes/simulator-responder';

/**
 * Runs priced before they start and then made, through the services as the app makes them, against
 * the fake server answering like a model (realistic lengths, token counts and cache minimums): what
 * the cost preview said beside what the run spent.
 */

export type EstimateCase = { protocol: 'crux'; agents: number } | { protocol: 'evaluation'; mode: Mode };

export interface EstimatedRun {
  estimateUsd: number;
  worstUsd: number;
  actualUsd: number;
  calls: number;
}

export const IDEA = 'llm-judge-calibration';
const TOPIC = 'Adopting a four-day work week for software teams';
const DEBATERS = [
  'optimist-engineer',
  'skeptical-economist',
  'regulator',
  'investor',
  'field-researcher',
  'end-user-advocate',
  'ethicist',
  'historian',
  'systems-thinker',
];

/** A workspace with the sample idea and enough debaters for 12 agents (copies of the nine, renamed). */
export function estimateWorkspace(): { root: string; agents: (n: number) => string[]; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'crucible-estimate-'));
  mkdirSync(join(root, 'ideas'));
  mkdirSync(join(root, 'personas'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  for (const id of DEBATERS) {
    const text = readFileSync(join(appRoot(), 'resources', 'personas', `${id}.md`), 'utf8');
    writeFileSync(
      join(root, 'personas', `${id}-2.md`),
      text.replace(/^id: (.*)$/m, 'id: $1-2').replace(/^name: (.*)$/m, 'name: $1 II'),
    );
  }
  const ids = [...DEBATERS, ...DEBATERS.map((id) => `${id}-2`)];
  return { root, agents: (n) => ids.slice(0, n), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The Anthropic provider pointed at the fake, with the worst-case check the real one makes. */
function fakeProviders(fake: FakeAnthropic): ProviderFactory {
  return (name, workspace) => {
    if (name !== 'anthropic') throw new Error(`the estimate runs use the anthropic provider, not ${name}`);
    const models = loadModelsConfig(workspace);
    const worst = (r: LlmRequest<unknown>) =>
      estimateCallCost(
        {
          system: r.system,
          messages: r.messages,
          maxTokens: r.maxTokens,
          schema: r.schema,
          ...(r.stablePrefix !== undefined ? { stablePrefix: r.stablePrefix } : {}),
        },
        modelFor(models, ANTHROPIC_PROVIDER, r.tier) ?? '',
        models.prices,
      );
    const provider: Provider = {
      llm: createAnthropicLlm({
        apiKey: 'test-key',
        baseURL: fake.baseURL,
        prices: models,
        maxRetries: 0,
        sendBriefHeader: true,
      }),
      estimate: (r) => worst(r).worstCaseUsd,
      likely: (r) => worst(r).cachedUsd,
    };
    return provider;
  };
}

/**
 * One run of `which` with `seed` in the workspace at `root`: its estimate (from the workspace's token
 * table as it stands) and what it spent. The meter folds the run into the workspace's table.
 */
export async function estimatedRun(
  root: string,
  which: EstimateCase,
  seed: number,
  agents: (n: number) => string[],
): Promise<EstimatedRun> {
  const fake = new FakeAnthropic({ responder: simulatorResponder(seed), ...modelLike() });
  await fake.start();
  const ws = Workspace.open(root);
  try {
    ws.sync();
    const providers = fakeProviders(fake);
    if (which.protocol === 'crux') {
      let estimate: DebateEstimate | null = null;
      const run = await new DebateService(ws, providers).start(
        { topic: TOPIC, agents: agents(which.agents), provider: 'anthropic', seed, limits: { concurrency: 6 } },
        { onEstimate: (e) => (estimate = e) },
      );
      const e = estimate as DebateEstimate | null;
      if (!e) throw new Error('the debate reported no estimate');
      return {
        estimateUsd: e.usd,
        worstUsd: e.worstUsd,
        actualUsd: run.outcome.result.systemMetrics.costUsd,
        calls: fake.requests.length,
      };
    }
    const service = new EvaluationService(ws, providers);
    const e = service.estimate(IDEA, { mode: which.mode, provider: 'anthropic', budgetUsd: 3 });
    const run = await service.evaluate(IDEA, { mode: which.mode, provider: 'anthropic', seed, budgetUsd: 3 });
    return { estimateUsd: e.usd, worstUsd: e.worstUsd, actualUsd: run.costUsd, calls: fake.requests.length };
  } finally {
    ws.close();
    await fake.close();
  }
}
