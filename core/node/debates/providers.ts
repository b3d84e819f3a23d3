import { readPartialJson } from '../../text/partial-json';
import { estimateCallCost, modelFor, type ModelsConfig } from '../../llm/prices';
import type { Llm, LlmRequest } from '../../ports/llm';
import { createSimulatedLlm } from '../../sim/simulated-llm';
import { createAnthropicLlm } from '../llm/anthropic';
import { withEmbeddings } from '../llm/embeddings';
import { createOpenAiCompatibleLlm } from '../llm/openai-compatible';
import { loadModelsConfig } from '../llm/prices-loader';
import { UserError } from '../workspace/workspace';

export type ProviderName = 'simulated' | 'anthropic' | 'openai';
export const PROVIDERS: readonly ProviderName[] = ['simulated', 'anthropic', 'openai'];

/**
 * API keys the main side holds for this run (from the desktop app's keychain); a missing one falls
 * back to the environment. Never logged, never sent to a page.
 */
export interface ProviderKeys {
  anthropic?: string | null;
  openai?: string | null;
}

/** Builds the provider a debate, evaluation or agent runs on (tests and the app swap it). */
export type ProviderFactory = (name: ProviderName, workspace: string, seed: number | null) => Provider;

export interface Provider {
  llm: Llm;
  /** Worst-case cost of one call, for the budget check before it is made. */
  estimate: (request: LlmRequest<unknown>) => number;
  /** The likely cost of a call once its prefix is cached (for the estimate before a debate). */
  likely: (request: LlmRequest<unknown>) => number;
}

function estimator(config: ModelsConfig, provider: string) {
  const cost = (request: LlmRequest<unknown>) => {
    const model = modelFor(config, provider, request.tier) ?? '';
    return estimateCallCost(
      {
        system: request.system,
        messages: request.messages,
        maxTokens: request.maxTokens,
        schema: request.schema,
        ...(request.stablePrefix !== undefined ? { stablePrefix: request.stablePrefix } : {}),
      },
      model,
      config.prices,
    );
  };
  return {
    estimate: (r: LlmRequest<unknown>) => cost(r).worstCaseUsd,
    likely: (r: LlmRequest<unknown>) => cost(r).cachedUsd,
  };
}

/**
 * The model provider a debate runs on. Keys come from `keys` (the desktop app's keychain) or else
 * the environment (ANTHROPIC_API_KEY; CRUCIBLE_OPENAI_API_KEY), addresses from the environment
 * (ANTHROPIC_BASE_URL, CRUCIBLE_OPENAI_BASE_URL) or models.md; never from another file in the
 * workspace, and never written to a log.
 */
export function providerFor(
  name: ProviderName,
  workspace: string,
  seed: number | null,
  keys: ProviderKeys = {},
  simulatedLatencyMs = 0,
): Provider {
  const provider = chatProvider(name, workspace, seed, keys, simulatedLatencyMs);
  // Requests marked as embedding requests (an arena's embedding measure) go to the endpoint they name.
  return {
    ...provider,
    llm: withEmbeddings(provider.llm, {
      ...(process.env.CRUCIBLE_EMBEDDINGS_API_KEY ? { apiKey: process.env.CRUCIBLE_EMBEDDINGS_API_KEY } : {}),
      prices: () => loadModelsConfig(workspace).prices,
    }),
  };
}

function chatProvider(
  name: ProviderName,
  workspace: string,
  seed: number | null,
  keys: ProviderKeys,
  simulatedLatencyMs: number,
): Provider {
  switch (name) {
    case 'simulated':
      return {
        llm: withLatency(createSimulatedLlm(seed ?? 1), simulatedLatency(simulatedLatencyMs)),
        estimate: () => 0,
        likely: () => 0,
      };
    case 'anthropic': {
      const apiKey = keys.anthropic || process.env.ANTHROPIC_API_KEY;
      if (!apiKey)
        throw new UserError(
          'the anthropic provider needs an API key: store one in Settings (desktop app) or set ANTHROPIC_API_KEY in the environment (or use the simulated provider)',
        );
      const config = loadModelsConfig(workspace);
      return {
        llm: createAnthropicLlm({
          apiKey,
          prices: config,
          ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}),
        }),
        ...estimator(config, 'anthropic'),
      };
    }
    case 'openai': {
      const config = loadModelsConfig(workspace);
      const baseURL = process.env.CRUCIBLE_OPENAI_BASE_URL ?? config.providers['openai-compatible']?.baseURL;
      const openAiKey = keys.openai || process.env.CRUCIBLE_OPENAI_API_KEY;
      if (!baseURL)
        throw new UserError(
          'the openai provider needs a server address: set CRUCIBLE_OPENAI_BASE_URL or providers.openai-compatible.baseURL in models.md',
        );
      return {
        llm: createOpenAiCompatibleLlm({ baseURL, prices: config, ...(openAiKey ? { apiKey: openAiKey } : {}) }),
        ...estimator(config, 'openai-compatible'),
      };
    }
  }
}

/**
 * The wait before each simulated answer: CRUCIBLE_SIMULATED_LATENCY_MS when set (tests use it to slow
 * a run down or to keep it instant whatever the host asks), else what the caller asks (the app's pace).
 */
function simulatedLatency(asked: number): number {
  const fromEnv = process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
  return fromEnv !== undefined && fromEnv.trim() !== '' ? Number(fromEnv) : asked;
}

/**
 * The simulator answers instantly; a latency makes a simulated debate unfold at a watchable pace in
 * the app (the `simulatedPace` setting), and gives tests time to interrupt one mid-way. Over that
 * wait the answer is written out as a model would stream it: a caller that asks for drafts
 * (`onPartial`) gets the answer's JSON read a few characters further each time.
 */
function withLatency(llm: Llm, ms: number): Llm {
  if (!Number.isFinite(ms) || ms <= 0) return llm;
  return {
    provider: llm.provider,
    call: async (request) => {
      const answer = request.onPartial ? await llm.call(request) : null;
      const json = answer ? JSON.stringify(answer.value) : '';
      const started = Date.now();
      // A cancel ends the wait at once, as it would end a real call in flight.
      const signal = request.signal;
      await new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const done = () => {
          clearTimeout(timer);
          clearInterval(writing);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        const writing = answer
          ? setInterval(() => {
              const share = Math.min(1, (Date.now() - started) / ms);
              const partial = readPartialJson(json.slice(0, Math.floor(json.length * share)));
              try {
                if (partial !== undefined) request.onPartial?.(partial);
              } catch {
                // A draft listener's failure never breaks the call it watches.
              }
            }, DRAFT_STEP_MS)
          : undefined;
        signal?.addEventListener('abort', done);
      });
      return answer ?? llm.call(request);
    },
  };
}

/** How often a simulated answer is written a little further while it "streams". */
const DRAFT_STEP_MS = 60;
