import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { classificationRequest } from '../classification/classify';
import { simulateClassification } from '../classification/simulator';
import { type LlmBrief, LlmError, type LlmRequest } from '../ports/llm';
import { protocolSimulator, simulatorRegistry } from './registry';
import { createSimulatedLlm } from './simulated-llm';

const persona = { systemPrompt: 'You classify ideas.', tier: 'fast' as const };
const facts = {
  idea: {
    slug: 'seed-library',
    title: 'A seed library',
    summary: 'Lend seeds to gardeners',
    text: 'Seeds.',
    type: null,
    tags: [],
  },
  types: [{ id: 'community', description: 'a local group of gardeners' }],
  vocabulary: ['seeds'],
  others: [],
};

function request(brief: LlmBrief | undefined): LlmRequest<unknown> {
  return {
    system: 'abcd',
    messages: [{ role: 'user', content: 'efgh' }],
    schema: z.object({ said: z.string() }),
    schemaName: 'echo_say',
    tier: 'fast',
    maxTokens: 100,
    ...(brief ? { brief } : {}),
  };
}

describe('the simulated model', () => {
  it("answers a request of the project's own through its protocol's simulator, free and metered", async () => {
    const classify = classificationRequest(persona, facts);
    const { value, calls } = await createSimulatedLlm(3).call(classify);
    expect({ value, calls }).toEqual({
      value: simulateClassification({ protocol: 'classification', kind: 'classify', ...facts }),
      calls: [
        {
          provider: 'simulated',
          model: 'simulator',
          tier: 'fast',
          usage: {
            inputTokens: Math.ceil(
              (classify.system.length + classify.messages.reduce((n, m) => n + m.content.length, 0)) / 4,
            ),
            outputTokens: Math.ceil(JSON.stringify(value).length / 4),
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
          },
          latencyMs: 0,
          costUsd: 0,
          ok: true,
        },
      ],
    });
  });

  it('takes a registry with a protocol the project does not know, and checks the answer against the schema', async () => {
    const echo = protocolSimulator<{ protocol: 'echo'; kind: 'say'; text: string }>('echo', {
      say: (seed, brief) => ({ said: `${brief.text} ${seed}` }),
    });
    const llm = createSimulatedLlm(9, simulatorRegistry([echo]));
    const brief = { protocol: 'echo', kind: 'say', text: 'hi' };
    expect((await llm.call(request(brief))).value).toEqual({ said: 'hi 9' });
    const wrong = protocolSimulator<{ protocol: 'echo'; kind: 'say' }>('echo', { say: () => ({ said: 4 }) });
    await expect(createSimulatedLlm(9, simulatorRegistry([wrong])).call(request(brief))).rejects.toThrow(z.ZodError);
  });

  it('fails a brief of an unregistered protocol as a bad request that names the protocol', async () => {
    const call = createSimulatedLlm(1).call(request({ protocol: 'parliament', kind: 'vote' }));
    await expect(call).rejects.toThrow(LlmError);
    await expect(call).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('no simulator is registered for protocol "parliament"'),
    });
  });
});
