import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import type { LlmRequest } from '../../core/ports/llm';
import { FakeAnthropic, modelLike, modelTokens } from '../fakes/fake-anthropic';

/**
 * The fake server in the mode that behaves like a model: the API's cache minimum per model, token
 * counts close to a tokenizer's, answers cut off at max_tokens, and seeded slips. Through the real SDK.
 */

const answer = { verdict: 'The co-op pays back its panels within nine years at current tariffs.', side: 'YES' };
const schema = z.object({ verdict: z.string(), side: z.enum(['YES', 'NO']) });
// About 2,500 tokens by the model count: over Sonnet's 1,024 minimum, under Opus 4.6's and Haiku 4.5's 4,096.
const SYSTEM = 'You weigh evidence about community energy projects and answer with a verdict. '.repeat(190);

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = new FakeAnthropic({ responder: () => ({ kind: 'answer', input: answer }), ...modelLike() });
  await fake.start();
});
afterAll(() => fake.close());

const request = (tier: 'fast' | 'standard' | 'deep', maxTokens = 400): LlmRequest<z.infer<typeof schema>> => ({
  system: SYSTEM,
  messages: [{ role: 'user', content: 'Does the co-op pay back?' }],
  schema,
  schemaName: 'verdict',
  tier,
  maxTokens,
});

describe('a fake that behaves like a model', () => {
  it('caches a prefix only above the model’s minimum, counts tokens like a tokenizer, and cuts a long answer at max_tokens', async () => {
    const llm = createAnthropicLlm({
      apiKey: 'test-key',
      baseURL: fake.baseURL,
      prices: loadModelsConfig(null),
      maxRetries: 0,
    });
    const reads: Record<string, number[]> = {};
    for (const tier of ['standard', 'deep', 'fast'] as const) {
      reads[tier] = [];
      for (let i = 0; i < 2; i++)
        reads[tier].push((await llm.call(request(tier))).calls[0]?.usage.cacheReadTokens ?? -1);
    }
    fake.requests.length = 0;
    const cut = await llm.call(request('standard', 10));
    expect({
      prefixTokens: modelTokens(SYSTEM) > 2048 && modelTokens(SYSTEM) < 4096,
      wordsAreNotChars: modelTokens('The co-op pays back.') < Math.ceil('The co-op pays back.'.length / 4) + 3,
      standardReadsOnSecondCall: (reads.standard?.[1] ?? 0) > 2048 && reads.standard?.[0] === 0,
      deepAndFastNeverRead: [...(reads.deep ?? []), ...(reads.fast ?? [])],
      cut: [fake.requests.map((r) => [r.body.max_tokens, r.usage?.output_tokens]), cut.value],
    }).toEqual({
      prefixTokens: true,
      wordsAreNotChars: true,
      standardReadsOnSecondCall: true,
      deepAndFastNeverRead: [0, 0, 0, 0],
      cut: [
        [
          [10, 10],
          [20, 20],
          [40, expect.any(Number)],
        ],
        answer,
      ],
    });
  });

  it('makes the same slips for the same seed whatever the order, and a share close to the rate', async () => {
    const slips = async (seed: number, order: number[]) => {
      const slipping = new FakeAnthropic({
        responder: () => ({ kind: 'answer', input: answer }),
        ...modelLike({ rate: 0.3, seed }),
      });
      await slipping.start();
      const llm = createAnthropicLlm({
        apiKey: 'test-key',
        baseURL: slipping.baseURL,
        prices: loadModelsConfig(null),
        maxRetries: 0,
        maxReasks: 0,
      });
      const out = new Map<number, string>();
      for (const i of order) {
        const n = slipping.requests.length;
        await llm
          .call({ ...request('standard'), messages: [{ role: 'user', content: `Question ${i}?` }] })
          .catch(() => null);
        out.set(i, slipping.requests[n]?.slip ?? '-');
      }
      await slipping.close();
      return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
    };
    const forward = await slips(
      7,
      Array.from({ length: 60 }, (_, i) => i),
    );
    const backward = await slips(
      7,
      Array.from({ length: 60 }, (_, i) => 59 - i),
    );
    const share = forward.filter((s) => s !== '-').length / forward.length;
    expect({ same: forward, share: share > 0.15 && share < 0.45 }).toEqual({ same: backward, share: true });
  });
});
