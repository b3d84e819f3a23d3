import type { CruxEngineDeps, CruxOutcome, } from '../../core/engine/crux-engine';
import { CruxEngine } from '../../core/engine/crux-engine';
import type { DebateHeader, DebateRecord } from '../../core/engine/debate-record';
import { estimateCallCost, modelFor, type ModelsConfig } from '../../core/llm/prices';
import { DebateJournal } from '../../core/node/debates/journal';
import { agentFrom, DEFAULT_LIMITS } from '../../core/node/debates/debate-service';
import { promptOf } from '../../core/crux/live/entry';
import { ANTHROPIC_PROVIDER, createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { findPersonas, loadPersonas } from '../../core/node/personas/load-personas';
import type { DebaterPersona, Persona } from '../../core/personas/persona';
import type { LlmRequest } from '../../core/ports/llm';
import { FakeAnthropic, type FakeRequest } from '../../tests/fakes/fake-anthropic';
import { simulatorResponder } from '../../tests/fakes/simulator-responder';
import { jitteredLatency } from './latency';
import { type RoundSpan, RoundTimer } from './round-timer';
import { openTempWorkspace } from './workspace';

/**
 * A live crux debate, composed the way DebateService composes one (personas, the Anthropic adapter,
 * a real journal), but with the adapter pointed at the fake Anthropic server, which answers each
 * request with the simulator's move for the brief the adapter sends beside it (the tests'
 * simulatorResponder reads the `x-crucible-brief` header) after a deterministic delay.
 */
export interface LiveOptions {
  seed: number;
  topic: string;
  personas: readonly string[];
  concurrency: number;
  latencyMeanMs: number;
  latencyJitterMs: number;
  config: Record<string, unknown>;
}

export interface LiveRun {
  outcome: CruxOutcome;
  wallMs: number;
  rounds: RoundSpan[];
  requests: FakeRequest[];
  /** The fake's delay for each request, in arrival order. */
  injectedMs: number[];
  calls: Extract<DebateRecord, { type: 'llm_call' }>[];
  header: DebateHeader;
  crystallizer: Persona;
  agents: Persona[];
}

/** The worst case of a call, as providers.ts estimates it for the anthropic provider. */
function worstCase(config: ModelsConfig): (request: LlmRequest<unknown>) => number {
  return (request) =>
    estimateCallCost(
      {
        system: request.system,
        messages: request.messages,
        maxTokens: request.maxTokens,
        schema: request.schema,
        ...(request.stablePrefix !== undefined ? { stablePrefix: request.stablePrefix } : {}),
      },
      modelFor(config, ANTHROPIC_PROVIDER, request.tier) ?? '',
      config.prices,
    ).worstCaseUsd;
}

function header(options: LiveOptions, agents: DebaterPersona[]): DebateHeader {
  return {
    id: `bench-live-${options.seed}`,
    protocol: 'crux',
    topic: options.topic,
    ideaSlug: null,
    agents: agents.map((p) => agentFrom(p, options.topic)),
    config: options.config,
    provider: ANTHROPIC_PROVIDER,
    seed: options.seed,
    limits: { ...DEFAULT_LIMITS, concurrency: options.concurrency },
    createdAt: new Date().toISOString(),
  };
}

function choosePersonas(root: string, ids: readonly string[]): { agents: DebaterPersona[]; crystallizer: Persona } {
  const loaded = loadPersonas(root);
  const agents = findPersonas(ids, loaded);
  const notDebaters = agents.filter((p) => p.role !== 'debater').map((p) => p.id);
  if (notDebaters.length > 0) throw new Error(`not crux debaters: ${notDebaters.join(', ')}`);
  const [crystallizer] = findPersonas(['crystallizer'], loaded);
  if (!crystallizer) throw new Error('no crystallizer persona');
  return { agents: agents as DebaterPersona[], crystallizer };
}

/** Runs one debate against a fresh fake server and a fresh workspace; both are gone afterwards. */
export async function runLiveDebate(options: LiveOptions): Promise<LiveRun> {
  const latency = jitteredLatency(options.seed, options.latencyMeanMs, options.latencyJitterMs);
  const fake = new FakeAnthropic({ responder: simulatorResponder(options.seed), latencyMs: latency.next });
  await fake.start();
  const temp = openTempWorkspace('crucible-bench-live-');
  try {
    const { root, db } = temp.ws;
    const { agents, crystallizer } = choosePersonas(root, options.personas);
    const prices = loadModelsConfig(null);
    const timer = new RoundTimer();
    const calls: LiveRun['calls'] = [];
    const debateHeader = header(options, agents);
    const journal = DebateJournal.create(root, db, debateHeader, (records) => {
      for (const r of records) if (r.type === 'llm_call') calls.push(r);
    });
    try {
      const deps: CruxEngineDeps = {
        llm: timer.wrap(createAnthropicLlm({ apiKey: 'test-key', baseURL: fake.baseURL, prices, maxRetries: 0, sendBriefHeader: true })),
        sink: journal,
        personas: new Map(agents.map((p) => [p.id, promptOf(p)])),
        crystallizer: promptOf(crystallizer),
        estimateCostUsd: worstCase(prices),
        now: () => Date.now(),
      };
      const engine = CruxEngine.start(debateHeader, deps, { topic: options.topic });
      const started = performance.now();
      const outcome = await engine.run();
      const wallMs = performance.now() - started;
      return {
        outcome,
        wallMs,
        rounds: timer.rounds(),
        requests: [...fake.requests],
        injectedMs: [...latency.drawn],
        calls,
        header: debateHeader,
        crystallizer,
        agents,
      };
    } finally {
      journal.close();
    }
  } finally {
    temp.dispose();
    await fake.close();
  }
}
