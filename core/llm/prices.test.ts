import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildModelsConfig,
  costOf,
  estimateCallCost,
  jsonSchemaOf,
  ModelsConfigError,
  type PriceTable,
  resolveTiers,
} from './prices';

const prices: PriceTable = {
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 },
};

const builtIn = {
  file: 'resources/models.md',
  data: {
    kind: 'models',
    providers: {
      anthropic: { tiers: { fast: 'claude-sonnet-4-5', standard: 'claude-sonnet-4-5', deep: 'claude-sonnet-4-5' } },
    },
    prices,
  },
};

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelsConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ModelsConfigError');
}

describe('costOf', () => {
  it('prices each kind of token at its own rate, a dated snapshot as its alias, an unknown model at 0 flagged', () => {
    const usage = { inputTokens: 1000, outputTokens: 2000, cacheReadTokens: 10_000, cacheWriteTokens: 4000 };
    const expected = (1000 * 3 + 2000 * 15 + 10_000 * 0.3 + 4000 * 3.75) / 1e6;
    expect([
      costOf('claude-sonnet-4-5', usage, prices),
      costOf('claude-sonnet-4-5-20250929', usage, prices),
      costOf('llama3.1:8b', usage, prices),
    ]).toEqual([
      { usd: expect.closeTo(expected, 12), priced: true },
      { usd: expect.closeTo(expected, 12), priced: true },
      { usd: 0, priced: false },
    ]);
  });
});

describe('estimateCallCost', () => {
  it('counts the head at the cache-write price in the worst case and at the read price once cached', () => {
    const schema = z.object({ answer: z.string() });
    const e = estimateCallCost(
      {
        system: 's'.repeat(400),
        messages: [
          { role: 'user', content: 'u'.repeat(800) },
          { role: 'user', content: 'q'.repeat(40) },
        ],
        stablePrefix: 1,
        maxTokens: 1000,
        schema,
      },
      'claude-sonnet-4-5',
      prices,
    );
    const head = Math.ceil(JSON.stringify(jsonSchemaOf(schema)).length / 4) + 100 + 200;
    expect(e).toEqual({
      prefixTokens: head,
      tailTokens: 10,
      outputTokens: 1000,
      worstCaseUsd: expect.closeTo((head * 3.75 + 10 * 3 + 1000 * 15) / 1e6, 12),
      cachedUsd: expect.closeTo((head * 0.3 + 10 * 3 + 500 * 15) / 1e6, 12),
      priced: true,
    });
  });
});

describe('buildModelsConfig', () => {
  it('layers a workspace file over the built-in one: whole providers, single prices', () => {
    const config = buildModelsConfig(builtIn, {
      file: '/ws/models.md',
      data: {
        kind: 'models',
        providers: {
          'openai-compatible': {
            baseURL: 'http://127.0.0.1:8080/v1',
            tiers: { fast: 'local', standard: 'local', deep: 'local' },
          },
        },
        prices: { local: { inputPerMTok: 0, outputPerMTok: 0, cacheWritePerMTok: 0, cacheReadPerMTok: 0 } },
      },
    });
    expect(Object.keys(config.providers)).toEqual(['anthropic', 'openai-compatible']);
    expect(Object.keys(config.prices)).toEqual(['claude-sonnet-4-5', 'local']);
    expect(resolveTiers('openai-compatible', config, { deep: 'big' })).toEqual({
      fast: 'local',
      standard: 'local',
      deep: 'big',
    });
  });

  it('names the file and the field of every problem', () => {
    const problems = problemsOf(() =>
      buildModelsConfig(builtIn, {
        file: '/ws/models.md',
        data: {
          kind: 'models',
          providers: { anthropic: { tiers: { fast: 'claude-haiku-4-5', standard: 'claude-sonnet-4-5' } } },
          prices: {
            'claude-sonnet-4-5': {
              inputPerMTok: -3,
              outputPerMTok: 15,
              cacheWritePerMTok: 3.75,
              cacheReadPerMtok: 0.3,
            },
          },
        },
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^\/ws\/models\.md: providers\.anthropic\.tiers\.deep: /),
      expect.stringMatching(/^\/ws\/models\.md: prices\.claude-sonnet-4-5\.inputPerMTok: must be a price/),
      expect.stringMatching(/^\/ws\/models\.md: prices\.claude-sonnet-4-5\.cacheReadPerMTok: /),
      expect.stringMatching(/^\/ws\/models\.md: prices\.claude-sonnet-4-5: Unrecognized key: "cacheReadPerMtok"/),
    ]);
  });

  it('refuses a tier whose model has no price', () => {
    const problems = problemsOf(() =>
      buildModelsConfig(builtIn, {
        file: '/ws/models.md',
        data: {
          kind: 'models',
          providers: { anthropic: { tiers: { fast: 'a', standard: 'claude-sonnet-4-5', deep: 'b' } } },
        },
      }),
    );
    expect(problems).toEqual([
      '/ws/models.md: providers.anthropic.tiers.fast: the model "a" has no price under prices (give it one; a local model costs 0)',
      '/ws/models.md: providers.anthropic.tiers.deep: the model "b" has no price under prices (give it one; a local model costs 0)',
    ]);
  });
});
