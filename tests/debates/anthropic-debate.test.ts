import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CruxEvent } from '../../core/crux/events';
import { type CruxDraft, CruxEngine, type CruxEngineDeps, type PersonaPrompt } from '../../core/engine/crux-engine';
import type { DebateHeader } from '../../core/engine/debate-record';
import { parseDebateLog } from '../../core/engine/log-reader';
import { estimateCallCost } from '../../core/llm/prices';
import { appRoot } from '../../core/node/app-root';
import { DEFAULT_LIMITS, DebateService } from '../../core/node/debates/debate-service';
import { DebateJournal } from '../../core/node/debates/journal';
import { createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { loadPersonas } from '../../core/node/personas/load-personas';
import { Workspace } from '../../core/node/workspace/workspace';
import type { Llm } from '../../core/ports/llm';
import { FakeAnthropic } from '../fakes/fake-anthropic';
import { simulatorResponder } from '../fakes/simulator-responder';
import { tempWorkspace } from '../helpers/temp-workspace';

const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor'];
const models = loadModelsConfig(null);
const personas = new Map(loadPersonas(null).personas.map((p) => [p.id, p]));

let root: string;
let cleanup: () => void;
let ws: Workspace;
let fake: FakeAnthropic;

beforeEach(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-fake-debate-'));
  cpSync(join(appRoot(), 'ideas', 'community-solar-coop'), join(root, 'ideas', 'community-solar-coop'), {
    recursive: true,
  });
  ws = Workspace.open(root);
  ws.sync();
  fake = new FakeAnthropic({ responder: simulatorResponder(3) });
  await fake.start();
});
afterEach(async () => {
  ws.close();
  await fake.close();
  cleanup();
});

function header(overrides: Partial<DebateHeader['limits']> = {}): DebateHeader {
  return {
    id: `fake-${Math.random().toString(36).slice(2, 8)}`,
    protocol: 'crux',
    topic: 'A community-owned solar co-op for the big roofs',
    ideaSlug: 'community-solar-coop',
    agents: AGENTS.map((id) => {
      const p = personas.get(id);
      if (p?.role !== 'debater') throw new Error(`${id} is not a debater`);
      return {
        id,
        name: p.name,
        persona: id,
        topClaim: { statement: `${p.name}'s view`, side: p.side ?? 'UNCERTAIN', confidence: 0.7 },
        defaultHorizon: p.defaultHorizon,
        interests: p.interests,
        tier: p.tier,
      };
    }),
    config: {},
    provider: 'anthropic',
    seed: null,
    limits: { ...DEFAULT_LIMITS, ...overrides },
    createdAt: new Date().toISOString(),
  };
}

function deps(journal: DebateJournal, llm: Llm): CruxEngineDeps {
  const prompt = (id: string): PersonaPrompt => {
    const p = personas.get(id);
    if (!p) throw new Error(id);
    return { systemPrompt: p.systemPrompt, tier: p.tier, interests: p.interests };
  };
  return {
    llm,
    sink: journal,
    personas: new Map(AGENTS.map((id) => [id, prompt(id)])),
    crystallizer: prompt('crystallizer'),
    estimateCostUsd: (request) =>
      estimateCallCost(
        { ...request, schema: request.schema },
        models.providers.anthropic?.tiers[request.tier] ?? '',
        models.prices,
      ).worstCaseUsd,
    now: () => Date.now(),
  };
}

function anthropic(options: { timeoutMs?: number } = {}) {
  return createAnthropicLlm({
    apiKey: 'test-key',
    baseURL: fake.baseURL,
    prices: models,
    maxRetries: 2,
    timeoutMs: options.timeoutMs ?? 5_000,
    sendBriefHeader: true,
  });
}

async function run(h: DebateHeader, llm: Llm) {
  const journal = DebateJournal.create(root, ws.db, h);
  try {
    const engine = CruxEngine.start(h, deps(journal, llm), { topic: h.topic });
    const outcome = await engine.run();
    return { outcome, log: parseDebateLog(readFileSync(join(root, journal.relPath), 'utf8')).records };
  } finally {
    journal.close();
  }
}

describe('a crux debate on the Anthropic adapter against the fake server', () => {
  it('completes through every injected fault, metering every call', async () => {
    fake
      .on(2, { kind: 'rate_limited', retryAfterSeconds: 1 })
      .on(4, { kind: 'overloaded' })
      .on(6, { kind: 'server_error' })
      .on(8, { kind: 'malformed', json: '{"move": "CLAIM", "content": ' })
      .on(10, { kind: 'answer', input: { move: 'CLAIM' } })
      .on(12, { kind: 'hang' })
      .on(14, { kind: 'cut', input: { move: 'CLAIM', content: 'cut short' }, afterEvents: 3, mode: 'close' });
    const { outcome, log } = await run(header(), anthropic({ timeoutMs: 1_500 }));
    expect(outcome.status).toBe('completed');
    expect(outcome.result.threads.every((t) => t.status === 'CONVERGED' || t.status.startsWith('FAILED'))).toBe(true);
    const answered = fake.requests.map((r) => r.answered);
    expect(answered).toEqual(
      expect.arrayContaining(['rate_limited', 'overloaded', 'server_error', 'malformed', 'hang', 'cut']),
    );
    // Every request the fake answered is a metered call in the log (the hang and the cut ones included).
    const calls = log.filter((r) => r.type === 'llm_call');
    expect(calls.length).toBe(outcome.result.systemMetrics.llmCalls);
    expect(outcome.result.systemMetrics.cacheReadTokens).toBeGreaterThan(0);
    expect(outcome.result.systemMetrics.costUsd).toBeGreaterThan(0);
    // The SDK retried the 429, 529, 500 and the hang; the schema violations were re-asked; only the
    // stream cut mid-answer failed its turn (the next round asked again), with a reason in words.
    const failedTurns = log.filter((r) => r.type === 'turn_failed');
    expect(failedTurns.map((r) => (r.type === 'turn_failed' ? r.reason.split(':')[0] : ''))).toEqual(['network']);
    const reasks = fake.requests.filter((r) =>
      JSON.stringify(r.body.messages.at(-1)).includes('was rejected and must be given again'),
    );
    expect(reasks).toHaveLength(2); // one for the malformed JSON, one for the missing content
  });

  it('shows each turn as a draft while it streams, gone before its message lands or when the turn fails', async () => {
    fake.on(2, {
      kind: 'cut',
      input: { move: 'CLAIM', content: 'A thought that never finishes' },
      afterEvents: 14,
      mode: 'close',
    });
    const h = header({ maxMessages: 24 });
    const journal = DebateJournal.create(root, ws.db, h);
    type Seen = { kind: 'draft'; draft: CruxDraft } | { kind: 'event'; event: CruxEvent };
    const seen: Seen[] = [];
    try {
      const engine = CruxEngine.start(h, deps(journal, anthropic()), { topic: h.topic });
      engine.onDrafts((draft) => seen.push({ kind: 'draft', draft }));
      engine.onEvents((events) => seen.push(...events.map((event) => ({ kind: 'event' as const, event }))));
      await engine.run();
    } finally {
      journal.close();
    }

    // Drafts of a turn grow towards its message's text, and are cleared just before the message lands.
    const open = new Map<string, string>();
    let landed = 0;
    let failedDrafts = 0;
    for (const item of seen) {
      if (item.kind === 'draft') {
        const key = `${item.draft.thread} ${item.draft.agent}`;
        const before = open.get(key);
        if (item.draft.content === null) {
          expect(before).toBeDefined();
          open.delete(key);
          if (before === 'A thought that never finishes'.slice(0, before?.length)) failedDrafts++;
        } else {
          if (before !== undefined) expect(item.draft.content.startsWith(before)).toBe(true);
          open.set(key, item.draft.content);
        }
        continue;
      }
      const event = item.event;
      if (event.type !== 'message_posted' && event.type !== 'message_blocked') continue;
      expect(open.has(`${event.thread} ${event.agent}`)).toBe(false);
      landed++;
    }
    const drafted = seen.filter((s) => s.kind === 'draft' && s.draft.content !== null);
    const posted = seen.flatMap((s) => (s.kind === 'event' && s.event.type === 'message_posted' ? [s.event] : []));
    // Every posted message was drafted first, its whole text the last draft before the clear.
    for (const message of posted) {
      const last = drafted
        .map((s) => (s.kind === 'draft' ? s.draft : null))
        .filter(
          (d) =>
            d?.thread === message.thread &&
            d.agent === message.agent &&
            message.content.startsWith(d.content ?? '\u0000'),
        );
      expect(last.some((d) => d?.content === message.content && d.move === message.move)).toBe(true);
    }
    expect(landed).toBeGreaterThan(5);
    expect(failedDrafts).toBe(1); // the answer cut off mid-stream: drafted, then cleared with no message
    expect(open.size).toBe(0);
  });

  it('estimates the cost before the start, without a key, within a factor of two of what the debate then costs', async () => {
    const h = header();
    const estimate = new DebateService(ws).estimate(h, 'anthropic');
    const { outcome } = await run(h, anthropic());
    const ratio = outcome.result.systemMetrics.costUsd / estimate.usd;
    expect({
      ratio: ratio > 0.5 && ratio < 2,
      underWorst: outcome.result.systemMetrics.costUsd <= estimate.worstUsd,
    }).toEqual({
      ratio: true,
      underWorst: true,
    });
  });

  it('marks an agent whose calls keep failing as degraded and says the result rests on the others', async () => {
    const base = anthropic();
    const broken: Llm = {
      provider: 'anthropic',
      call: (request) =>
        request.system.includes(personas.get('regulator')?.systemPrompt ?? '?')
          ? Promise.reject(Object.assign(new Error('upstream error'), {}))
          : base.call(request),
    };
    const { outcome, log } = await run(header(), broken);
    expect(outcome.degradedAgents).toEqual(['regulator']);
    expect(outcome.notes[0]).toBe(
      'regulator kept failing and stopped being asked; the result rests on the other 3 agents.',
    );
    expect(log.filter((r) => r.type === 'agent_degraded')).toHaveLength(1);
    expect(['completed', 'partial']).toContain(outcome.status);
  });

  it('stops cleanly with status partial before the budget would be exceeded, everything saved', async () => {
    const { outcome, log } = await run(header({ budgetUsd: 0.08 }), anthropic());
    expect(outcome.status).toBe('partial');
    expect(outcome.reason).toMatch(/budget of \$0\.08/);
    expect(outcome.result.regime).toBe('partial');
    expect(outcome.result.systemMetrics.costUsd).toBeLessThanOrEqual(0.08);
    expect(log.at(-1)).toMatchObject({ type: 'status', status: 'partial' });
    expect(outcome.notes.at(-1)).toMatch(/^The debate stopped early: .*Everything up to that point is saved\.$/);
  });
});
