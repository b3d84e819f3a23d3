import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CruxEngineDeps, CruxEngine } from '../../core/engine/crux-engine';
import type { DebateHeader, NewDebateRecord } from '../../core/engine/debate-record';
import type { Mode } from '../../core/evaluation/vocabulary';
import { appRoot } from '../../core/node/app-root';
import { promptOf } from '../../core/crux/live/entry';
import { agentFrom, DEFAULT_LIMITS } from '../../core/node/debates/debate-service';
import type { Provider } from '../../core/node/debates/providers';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { ANTHROPIC_PROVIDER, createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { findPersonas, loadPersonas } from '../../core/node/personas/load-personas';
import { Workspace } from '../../core/node/workspace/workspace';
import type { DebaterPersona } from '../../core/personas/persona';
import { type Llm, LlmError, type LlmCallRecord } from '../../core/ports/llm';
import { FakeAnthropic, type FakeRequest, type FakeStep, modelLike } from '../fakes/fake-anthropic';
import type { SlipKind } from '../fakes/model-slips';
import { simulatorResponder } from '../fakes/simulator-responder';

/**
 * Debates and evaluations with simulated content, through the real SDK, against a fake server that
 * slips like a model on a share of its answers. What a run reports is how it ended and what the
 * slips cost: the engine must end every one of them itself (completed, partial, locked or failed
 * with its reason), never with an exception.
 */

export interface SlipFigures {
  /** How the run ended: a debate's status or an evaluation's outcome kind, with its reason. */
  ended: string;
  reason: string | null;
  /** An exception out of the engine, in words (what must never happen). */
  exception: string | null;
  structuredCalls: number;
  /** Provider calls beyond one per structured call: re-asks after a rejected or cut-off answer. */
  reasks: number;
  /** Answers taken after a repair (names read as ids, enums re-cased, JSON read out of prose). */
  repaired: number;
  /** Structured calls that failed after their re-asks. */
  failedCalls: number;
  slips: Partial<Record<SlipKind, number>>;
  costUsd: number;
  /** What the rejected answers cost, over the whole cost. */
  reaskCostShare: number;
}

/** A run's figures with what it was made of, for tests that look closer. */
export interface SlipRun extends SlipFigures {
  calls: LlmCallRecord[];
  requests: FakeRequest[];
  /** The debate's log records (debates only). */
  records: NewDebateRecord[];
}

/** Answers a request in place of the simulator (a fixture), or passes the simulator's answer on. */
export type Respond = (request: FakeRequest, simulated: FakeStep) => FakeStep;

export interface RunOptions {
  seed: number;
  /** Share of answers with a slip (0: none). */
  rate: number;
  /** The slips to draw from (default all). */
  kinds?: readonly SlipKind[];
  respond?: Respond;
  /** Milliseconds the fake takes to answer, so calls sent together overlap as they do on the API (default 0). */
  latencyMs?: number;
}

export function fakeFor(options: RunOptions): FakeAnthropic {
  const simulated = simulatorResponder(options.seed);
  const respond = options.respond;
  return new FakeAnthropic({
    responder: respond ? (request) => respond(request, simulated(request)) : simulated,
    ...modelLike(
      options.rate > 0
        ? { rate: options.rate, seed: options.seed, ...(options.kinds ? { kinds: options.kinds } : {}) }
        : undefined,
    ),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
  });
}

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

/** An `Llm` that keeps every call record, those of failed calls included. */
export function metered(llm: Llm, into: { calls: LlmCallRecord[]; structured: number; failed: number }): Llm {
  return {
    provider: llm.provider,
    async call(request) {
      into.structured++;
      try {
        const result = await llm.call(request);
        into.calls.push(...result.calls);
        return result;
      } catch (error) {
        into.failed++;
        if (error instanceof LlmError) into.calls.push(...error.calls);
        throw error;
      }
    },
  };
}

export function figures(
  fake: FakeAnthropic,
  meter: { calls: LlmCallRecord[]; structured: number; failed: number },
  end: { ended: string; reason: string | null; exception: string | null },
  records: NewDebateRecord[] = [],
): SlipRun {
  const slips: Partial<Record<SlipKind, number>> = {};
  for (const r of fake.requests) if (r.slip) slips[r.slip] = (slips[r.slip] ?? 0) + 1;
  const cost = meter.calls.reduce((s, c) => s + c.costUsd, 0);
  const wasted = meter.calls.filter((c) => !c.ok).reduce((s, c) => s + c.costUsd, 0);
  return {
    ...end,
    structuredCalls: meter.structured,
    reasks: meter.calls.length - meter.structured,
    repaired: meter.calls.filter((c) => c.ok && (c.repairs?.length ?? 0) > 0).length,
    failedCalls: meter.failed,
    slips,
    costUsd: cost,
    reaskCostShare: cost === 0 ? 0 : wasted / cost,
    calls: meter.calls,
    requests: [...fake.requests],
    records,
  };
}

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** A sample idea as a debate's subject: its title, summary and README body, as the debate service reads them. */
function ideaSubject(slug: string) {
  const text = readFileSync(join(appRoot(), 'ideas', slug, 'README.md'), 'utf8');
  const [, front = '', body = ''] = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text) ?? [];
  const field = (name: string) => JSON.parse(new RegExp(`^${name}: (.*)$`, 'm').exec(front)?.[1] ?? '""') as string;
  return { kind: 'idea' as const, slug, title: field('title'), summary: field('summary'), body: body.trim() };
}

/** A debate of `agents` simulated agents (beyond the nine debater personas, copies under new ids). */
export async function misbehavingDebate(
  options: RunOptions & {
    agents: number;
    personas?: readonly string[];
    /** Agents played on the deep tier instead of their persona's (no debater persona is deep by default). */
    deep?: readonly string[];
    /** A sample idea (its slug under ideas/) to debate instead of the four-day week topic. */
    idea?: string;
  },
): Promise<SlipRun> {
  const fake = fakeFor(options);
  await fake.start();
  const meter = { calls: [] as LlmCallRecord[], structured: 0, failed: 0 };
  try {
    const loaded = loadPersonas(null);
    const base = findPersonas(options.personas ?? DEBATERS, loaded) as DebaterPersona[];
    const [crystallizer] = findPersonas(['crystallizer'], loaded);
    if (!crystallizer) throw new Error('no crystallizer persona');
    const personas = Array.from({ length: options.agents }, (_, i) => {
      const p = base[i % base.length] as DebaterPersona;
      const copy = Math.floor(i / base.length);
      return copy === 0 ? p : { ...p, id: `${p.id}-${copy + 1}`, name: `${p.name} ${copy + 1}` };
    });
    const subject = options.idea ? ideaSubject(options.idea) : null;
    const topic = subject?.title ?? 'Adopting a four-day work week for software teams';
    const prices = loadModelsConfig(null);
    const header: DebateHeader = {
      id: `slips-${options.agents}-${options.seed}`,
      protocol: 'crux',
      topic,
      ideaSlug: subject?.slug ?? null,
      ...(subject ? { subject } : {}),
      agents: personas.map((p) => agentFrom(p, subject ?? topic)),
      config: {},
      provider: ANTHROPIC_PROVIDER,
      seed: options.seed,
      limits: { ...DEFAULT_LIMITS, budgetUsd: 50, concurrency: 6 },
      createdAt: new Date().toISOString(),
    };
    const records: NewDebateRecord[] = [];
    const deps: CruxEngineDeps = {
      llm: metered(
        createAnthropicLlm({ apiKey: 'test-key', baseURL: fake.baseURL, prices, maxRetries: 0, sendBriefHeader: true }),
        meter,
      ),
      sink: { append: (r) => records.push(...r) },
      personas: new Map(
        personas.map((p) => [
          p.id,
          { ...promptOf(p), ...(options.deep?.includes(p.id) ? { tier: 'deep' as const } : {}) },
        ]),
      ),
      crystallizer: promptOf(crystallizer),
      estimateCostUsd: () => 0,
      now: () => Date.now(),
    };
    try {
      const outcome = await CruxEngine.start(header, deps, { topic }).run();
      return figures(fake, meter, { ended: outcome.status, reason: outcome.reason, exception: null }, records);
    } catch (error) {
      return figures(fake, meter, { ended: 'exception', reason: null, exception: describeError(error) }, records);
    }
  } finally {
    await fake.close();
  }
}

const IDEA = 'llm-judge-calibration';

/** An evaluation of a sample idea in `mode`, in a temporary workspace. */
export async function misbehavingEvaluation(options: RunOptions & { mode: Mode }): Promise<SlipRun> {
  const root = mkdtempSync(join(tmpdir(), 'crucible-slips-'));
  const fake = fakeFor(options);
  await fake.start();
  mkdirSync(join(root, 'ideas'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  const ws = Workspace.open(root);
  const meter = { calls: [] as LlmCallRecord[], structured: 0, failed: 0 };
  try {
    ws.sync();
    const models = loadModelsConfig(null);
    const provider = (): Provider => ({
      llm: metered(
        createAnthropicLlm({
          apiKey: 'test-key',
          baseURL: fake.baseURL,
          prices: models,
          maxRetries: 0,
          sendBriefHeader: true,
        }),
        meter,
      ),
      estimate: () => 0,
      likely: () => 0,
    });
    const service = new EvaluationService(ws, provider);
    try {
      const run = service.prepareEvaluation(IDEA, {
        mode: options.mode,
        provider: 'anthropic',
        seed: options.seed,
        budgetUsd: 50,
      });
      const outcome = await run.run();
      const reason =
        outcome.kind === 'locked'
          ? outcome.run.document.lockReason
          : outcome.kind === 'failed'
            ? outcome.reason
            : 'stopped';
      return figures(fake, meter, { ended: outcome.kind, reason, exception: null });
    } catch (error) {
      return figures(fake, meter, { ended: 'exception', reason: null, exception: describeError(error) });
    }
  } finally {
    ws.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}
