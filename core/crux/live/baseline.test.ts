import { describe, expect, it } from 'vitest';
import type { Llm, LlmRequest } from '../../ports/llm';
import { LlmError } from '../../ports/llm';
import { SIMULATED_LABEL } from '../../sim/label';
import { createSimulatedLlm } from '../../sim/simulated-llm';
import { runReplay } from '../replay';
import { FAST_CONFIG, analysis, debate, quickCrux, script } from '../script-builder';
import { type BaselineAgent, type BaselineBrief, baselineSchema, compareBaseline, runBaseline } from './baseline';

const AGENTS: BaselineAgent[] = [
  {
    id: 'ana',
    name: 'Ana',
    systemPrompt: 'You are Ana.',
    tier: 'fast',
    topClaim: { statement: 'It works', side: 'YES', confidence: 0.8 },
  },
  {
    id: 'ben',
    name: 'Ben',
    systemPrompt: 'You are Ben.',
    tier: 'fast',
    topClaim: { statement: 'It fails', side: 'NO', confidence: 0.6 },
  },
];
const SETUP = {
  subject: { kind: 'topic' as const, text: 'A four-day week raises output' },
  topic: 'A four-day week raises output',
  agents: AGENTS,
  now: () => Date.parse('2026-03-01T10:00:00Z'),
};

describe('the single-pass baseline', () => {
  it('asks each agent once through the simulator and sets the answers beside the debate, with both costs', async () => {
    const baseline = await runBaseline(createSimulatedLlm(3), SETUP);
    expect(baselineSchema.parse(baseline)).toEqual(baseline);
    const result = runReplay(
      script(
        debate(['ana', 'ben'], FAST_CONFIG),
        quickCrux('t1', 'ana', 'ben', analysis({ ana: { side: 'YES', confidence: 0.9 }, ben: { side: 'NO' } })),
      ),
    );
    const compared = compareBaseline(baseline, result);
    const crux = 'Will four week raises output meet its stated target within 18 months?';
    expect({
      ...compared,
      agents: compared.agents.map((a) => ({
        ...a,
        single: a.single && { ...a.single, reason: a.single.reason.startsWith(SIMULATED_LABEL) },
      })),
    }).toEqual({
      createdAt: '2026-03-01T10:00:00.000Z',
      debateCrux: 'Does the policy raise output within 18 months?',
      agents: [
        {
          agent: 'ana',
          single: { side: 'YES', confidence: 0.8, crux, reason: true },
          error: null,
          debate: { side: 'YES', confidence: 0.9 },
        },
        {
          agent: 'ben',
          single: { side: 'NO', confidence: 0.6, crux, reason: true },
          error: null,
          debate: { side: 'NO', confidence: 0.8 },
        },
      ],
      cost: { single: { llmCalls: 2, costUsd: 0 }, debate: { llmCalls: 0, costUsd: 0 } },
    });
    expect(baseline.usage.inputTokens).toBeGreaterThan(0);
  });

  it('keeps a failed call as that agent’s error and still counts what it cost, and re-asks a crux that is not a question', async () => {
    const asked: string[] = [];
    const llm: Llm = {
      provider: 'fake',
      async call<T>(request: LlmRequest<T>) {
        const agent = (request.brief as BaselineBrief).agent.id;
        asked.push(agent);
        const call = {
          provider: 'fake',
          model: 'm',
          tier: request.tier,
          usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 0 },
          latencyMs: 1,
          costUsd: 0.01,
          ok: true,
        };
        if (agent === 'ben') throw new LlmError('overloaded', 'the server is busy\nretry later', [call, call]);
        const answer = { side: 'YES', confidence: 0.7, crux: ' Does it pay back in 3 years ', reason: 'Because.' };
        // What the provider does with `check`: a crux without "?" is put back, so the fake reads it.
        expect(request.check?.(answer as T)).toEqual({
          ok: false,
          problems: ['crux: one yes/no question ending in "?"'],
        });
        const fixed = { ...answer, crux: ' Does it pay back in 3 years? ' } as T;
        const checked = request.check?.(fixed);
        return { value: (checked?.ok ? checked.value : fixed) as T, calls: [call] };
      },
    };
    const baseline = await runBaseline(llm, SETUP);
    expect({ asked, answers: baseline.answers, usage: baseline.usage }).toEqual({
      asked: ['ana', 'ben'],
      answers: [
        {
          agent: 'ana',
          answer: { side: 'YES', confidence: 0.7, crux: 'Does it pay back in 3 years?', reason: 'Because.' },
          error: null,
        },
        { agent: 'ben', answer: null, error: 'the server is busy' },
      ],
      usage: { llmCalls: 3, inputTokens: 30, outputTokens: 15, cacheReadTokens: 6, costUsd: 0.03 },
    });
  });
});
