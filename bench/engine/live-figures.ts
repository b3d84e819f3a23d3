import { costOf, modelFor } from '../../core/llm/prices';
import { ANTHROPIC_PROVIDER } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { fakeTokens, type FakeRequest } from '../../tests/fakes/fake-anthropic';
import type { LiveRun } from './live';
import { sum } from './stats';

/** What the live debate measured; see bench/engine.ts for what each figure means. */
export interface LiveFigures {
  status: string;
  messages: number;
  blocked: number;
  threads: number;
  calls: number;
  rounds: number;
  wallMs: number;
  criticalPathMs: number;
  /** The same sum with the fake's injected delays instead of the calls' measured times. */
  injectedCriticalPathMs: number | null;
  tokens: { uncached: number; cacheRead: number; cacheWrite: number; output: number };
  /** Mean tokens per request of each part of the prompt, as the fake counts them. */
  promptPartsPerCall: { tools: number; system: number; transcript: number; lastMessage: number };
  costUsd: number;
  costUsdByPurpose: { turns: number; analysis: number };
  /** The analysis calls repriced at the standard tier (the crystallizer persona asks for `deep`). */
  costUsdAllStandard: number;
  crystallizerTier: string;
  agentTiers: string[];
}

function tokensOf(requests: readonly FakeRequest[]): LiveFigures['tokens'] {
  const usages = requests.flatMap((r) => (r.usage ? [r.usage] : []));
  return {
    uncached: sum(usages.map((u) => u.input_tokens)),
    cacheRead: sum(usages.map((u) => u.cache_read_input_tokens)),
    cacheWrite: sum(usages.map((u) => u.cache_creation_input_tokens)),
    output: sum(usages.map((u) => u.output_tokens)),
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: { text?: unknown }) => (typeof b?.text === 'string' ? b.text : '')).join('');
}

/** Where a request's input tokens go: the tool schema, the system prompt, the transcript, the brief. */
function promptParts(requests: readonly FakeRequest[]): LiveFigures['promptPartsPerCall'] {
  const parts = requests.map((r) => {
    const messages: { content?: unknown }[] = r.body?.messages ?? [];
    const tools: unknown[] = r.body?.tools ?? [];
    const system: { text?: unknown }[] = Array.isArray(r.body?.system) ? r.body.system : [];
    return {
      tools: sum(tools.map((t) => fakeTokens(JSON.stringify(t)))),
      system: sum(system.map((b) => fakeTokens(String(b.text ?? '')))),
      transcript: sum(messages.slice(0, -1).map((m) => fakeTokens(textOf(m.content)))),
      lastMessage: fakeTokens(textOf(messages.at(-1)?.content)),
    };
  });
  const mean = (pick: (p: (typeof parts)[number]) => number) =>
    parts.length === 0 ? 0 : sum(parts.map(pick)) / parts.length;
  return {
    tools: mean((p) => p.tools),
    system: mean((p) => p.system),
    transcript: mean((p) => p.transcript),
    lastMessage: mean((p) => p.lastMessage),
  };
}

/**
 * The fake's delay of the requests that arrived during each round, the slowest per round, summed.
 * Requests are matched to rounds by time (a round's calls all start before any of them returns).
 */
function injectedCriticalPath(run: LiveRun): number | null {
  if (run.injectedMs.length !== run.requests.length) return null;
  const origin = performance.timeOrigin;
  return sum(
    run.rounds.map((round) => {
      const inRound = run.requests.flatMap((r, i) =>
        r.at >= origin + round.startMs - 1 && r.at <= origin + round.endMs + 1 ? [run.injectedMs[i] ?? 0] : [],
      );
      return inRound.length === 0 ? 0 : Math.max(...inRound);
    }),
  );
}

function costs(run: LiveRun): Pick<LiveFigures, 'costUsdByPurpose' | 'costUsdAllStandard'> {
  const prices = loadModelsConfig(null);
  const standard = modelFor(prices, ANTHROPIC_PROVIDER, 'standard') ?? '';
  const analysis = run.calls.filter((c) => c.purpose.startsWith('analysis:'));
  const turns = run.calls.filter((c) => !c.purpose.startsWith('analysis:'));
  const analysisAtStandard = sum(analysis.map((c) => costOf(standard, c.call.usage, prices.prices).usd));
  const turnCost = sum(turns.map((c) => c.call.costUsd));
  return {
    costUsdByPurpose: { turns: turnCost, analysis: sum(analysis.map((c) => c.call.costUsd)) },
    costUsdAllStandard: turnCost + analysisAtStandard,
  };
}

export function liveFigures(run: LiveRun): LiveFigures {
  const metrics = run.outcome.result.systemMetrics;
  return {
    status: run.outcome.status,
    messages: metrics.messagesTotal,
    blocked: metrics.messagesBlocked,
    threads: run.outcome.result.threads.length,
    calls: run.requests.length,
    rounds: run.rounds.length,
    wallMs: run.wallMs,
    criticalPathMs: sum(run.rounds.map((r) => r.longestCallMs)),
    injectedCriticalPathMs: injectedCriticalPath(run),
    tokens: tokensOf(run.requests),
    promptPartsPerCall: promptParts(run.requests),
    costUsd: metrics.costUsd,
    ...costs(run),
    crystallizerTier: run.crystallizer.tier,
    agentTiers: [...new Set(run.agents.map((a) => a.tier))],
  };
}
