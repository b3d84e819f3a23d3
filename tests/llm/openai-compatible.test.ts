import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from '../../core/llm/prices';
import { createOpenAiCompatibleLlm, type OpenAiCompatibleLlmOptions } from '../../core/node/llm/openai-compatible';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { LlmError, type LlmMessage, type LlmRequest, type LlmResult } from '../../core/ports/llm';
import { FakeOpenAi } from '../fakes/fake-openai';

const verdict = z.object({ verdict: z.enum(['holds', 'fails']), reason: z.string().min(1) });
type Verdict = z.infer<typeof verdict>;
const good: Verdict = { verdict: 'holds', reason: 'The load numbers are sourced.' };

const transcript: LlmMessage[] = [
  { role: 'user', content: 'Claim: the kiosk pays for itself within three years.' },
  { role: 'assistant', content: 'Counter: maintenance was left out of the sums.' },
  { role: 'user', content: 'Judge the claim.' },
];

function request(extra: Partial<LlmRequest<Verdict>> = {}): LlmRequest<Verdict> {
  return {
    system: 'You are the Arbiter.',
    messages: transcript,
    stablePrefix: 2,
    schema: verdict,
    schemaName: 'arbiter_verdict',
    tier: 'standard',
    maxTokens: 300,
    ...extra,
  };
}

async function failure(call: Promise<LlmResult<unknown>>): Promise<LlmError> {
  const outcome = await call.then(
    (result) => result,
    (error: unknown) => error,
  );
  if (!(outcome instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const fake = new FakeOpenAi();
let baseURL: string;
beforeAll(async () => {
  baseURL = await fake.start();
});
afterEach(() => {
  fake.requests.length = 0;
});
afterAll(() => fake.close());

const models = loadModelsConfig(null);
const llm = (options: Partial<OpenAiCompatibleLlmOptions> = {}) =>
  createOpenAiCompatibleLlm({ baseURL, prices: models, timeoutMs: 2000, ...options });

describe('the OpenAI-compatible adapter', () => {
  it('asks for a JSON Schema answer from the tier’s local model and meters the server’s cached tokens', async () => {
    fake.script({ kind: 'answer', content: good }, { kind: 'answer', content: good });
    const client = llm();
    const first = await client.call(request());
    const second = await client.call(request());

    expect(first.value).toEqual(good);
    expect(fake.requests[0]?.body).toMatchObject({
      model: 'qwen2.5:14b',
      max_tokens: 300,
      stream: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'arbiter_verdict', schema: jsonSchemaOf(verdict), strict: true },
      },
      messages: [
        { role: 'system', content: expect.stringMatching(/^You are the Arbiter\.\n\n.*arbiter_verdict/) },
        ...transcript,
      ],
    });
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    const prompt = fake.requests[0]?.body.messages.reduce(
      (n: number, m: LlmMessage) => n + Math.ceil(m.content.length / 4),
      0,
    );
    expect(first.calls).toEqual([
      {
        provider: 'openai-compatible',
        model: 'qwen2.5:14b',
        tier: 'standard',
        usage: { inputTokens: prompt, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: expect.any(Number) },
        latencyMs: expect.any(Number),
        costUsd: 0,
        ok: true,
      },
    ]);
    expect(second.calls[0]?.usage).toMatchObject({ inputTokens: 0, cacheReadTokens: prompt });
  });

  it('re-asks after content that is not JSON, then accepts the corrected answer', async () => {
    fake.script({ kind: 'raw', content: 'The claim holds, I think.' }, { kind: 'answer', content: good });
    const result = await llm().call(request());
    expect(result.calls.map((c) => c.ok)).toEqual([false, true]);
    expect(fake.requests[1]?.body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'The claim holds, I think.' },
      { role: 'user', content: expect.stringContaining('the answer is not valid JSON') },
    ]);
  });

  it('accepts JSON inside a code fence', async () => {
    fake.script({ kind: 'raw', content: `\`\`\`json\n${JSON.stringify(good)}\n\`\`\`` });
    expect((await llm().call(request())).value).toEqual(good);
  });

  it('honours retry-after on a 429 and then succeeds', async () => {
    fake.script(
      { kind: 'error', status: 429, message: 'busy', retryAfterSeconds: 1 },
      { kind: 'answer', content: good },
    );
    const result = await llm().call(request());
    const [a, b] = fake.requests;
    expect({ value: result.value, requests: fake.requests.length }).toEqual({ value: good, requests: 2 });
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(995);
  });

  it('retries a 5xx a couple of times, then fails with server_error', async () => {
    const down = { kind: 'error', status: 500, message: 'model crashed' } as const;
    fake.script(down, down, down);
    const error = await failure(llm({ maxRetries: 2 }).call(request()));
    expect(error).toMatchObject({
      kind: 'server_error',
      message: expect.stringMatching(/500: model crashed \(after 2 retries\)/),
    });
    expect({ requests: fake.requests.length, calls: error.calls.length }).toEqual({ requests: 3, calls: 1 });
  });

  it('does not retry a 404 (unknown model): bad_request', async () => {
    fake.script({ kind: 'error', status: 404, message: 'model "qwen2.5:14b" not found, try pulling it first' });
    const error = await failure(llm().call(request()));
    expect({ kind: error.kind, requests: fake.requests.length }).toEqual({ kind: 'bad_request', requests: 1 });
    expect(error.message).toContain('try pulling it first');
  });

  it('times out a server that never answers', async () => {
    fake.script({ kind: 'hang' });
    const started = Date.now();
    const error = await failure(llm({ timeoutMs: 300 }).call(request()));
    expect({ kind: error.kind, requests: fake.requests.length }).toEqual({ kind: 'timeout', requests: 1 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('asks an answer cut off at the token limit again with twice the room; all cut off is truncated', async () => {
    fake.script({ kind: 'length', content: good }, { kind: 'answer', content: good });
    const result = await llm().call(request());
    const cut = { kind: 'length', content: good } as const;
    fake.script(cut, cut, cut);
    const error = await failure(llm().call(request()));
    expect({ value: result.value, kind: error.kind, budgets: fake.requests.map((r) => r.body.max_tokens) }).toEqual({
      value: good,
      kind: 'truncated',
      budgets: [300, 600, 300, 600, 1200],
    });
  });

  it('reports a server that is not running as network', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failure(llm({ baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }).call(request()));
    expect(error).toMatchObject({ kind: 'network', message: expect.stringContaining('ECONNREFUSED') });
  });
});
