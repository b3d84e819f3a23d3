import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LlmError, type LlmRequest, type LlmResult, type LlmUsage } from '../ports/llm';
import type { PriceTable } from './prices';
import {
  type LlmTransport,
  LlmTransportError,
  type LlmTransportRequest,
  type LlmTransportResponse,
  type StructuredCallOptions,
  structuredCall,
} from './structured-call';

/** structuredCall over a scripted in-memory transport: the provider-independent rules. */

const prices: PriceTable = {
  'model-a': { inputPerMTok: 10, outputPerMTok: 100, cacheWritePerMTok: 20, cacheReadPerMTok: 1 },
};
const options: StructuredCallOptions = {
  provider: 'scripted',
  tiers: { fast: 'model-a', standard: 'model-a', deep: 'model-a' },
  prices,
};

const schema = z.object({ score: z.number().int().min(1).max(5), why: z.string() });
type Score = z.infer<typeof schema>;
const req: LlmRequest<Score> = {
  system: 'Score the idea.',
  messages: [{ role: 'user', content: 'An idea.' }],
  schema,
  schemaName: 'score',
  tier: 'deep',
  maxTokens: 100,
};
const usage = (inputTokens: number, outputTokens: number): LlmUsage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

type Step = Partial<LlmTransportResponse> | Error;

function scripted(...steps: Step[]): LlmTransport & { seen: LlmTransportRequest[] } {
  const seen: LlmTransportRequest[] = [];
  return {
    seen,
    async complete(request) {
      seen.push(structuredClone({ ...request, signal: undefined }));
      const step = steps.shift();
      if (!step) throw new Error('nothing scripted');
      if (step instanceof Error) throw step;
      return {
        input: undefined,
        raw: JSON.stringify(step.input ?? null),
        usage: usage(1000, 100),
        model: request.model,
        stopReason: 'end',
        ...step,
      };
    },
  };
}

async function failure(call: Promise<LlmResult<unknown>>): Promise<LlmError> {
  const outcome = await call.then(
    (r) => r,
    (e: unknown) => e,
  );
  if (!(outcome instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('structuredCall', () => {
  it('re-asks with every earlier answer and its problems, and meters each call at the answering model’s price', async () => {
    const transport = scripted(
      { input: { score: 7, why: 'great' } },
      { input: { score: 4.5 } },
      { input: { score: 4, why: 'sound' }, model: 'model-a-20260101' },
    );
    const result = await structuredCall(transport, req, options);
    expect(result.value).toEqual({ score: 4, why: 'sound' });
    const costEach = (1000 * 10 + 100 * 100) / 1e6;
    expect(result.calls).toEqual([
      {
        provider: 'scripted',
        model: 'model-a',
        tier: 'deep',
        usage: usage(1000, 100),
        latencyMs: expect.any(Number),
        costUsd: costEach,
        ok: false,
        error: expect.stringMatching(/^invalid_answer: - score: /),
      },
      {
        provider: 'scripted',
        model: 'model-a',
        tier: 'deep',
        usage: usage(1000, 100),
        latencyMs: expect.any(Number),
        costUsd: costEach,
        ok: false,
        error: expect.stringMatching(/- score: .*- why: /),
      },
      {
        provider: 'scripted',
        model: 'model-a-20260101',
        tier: 'deep',
        usage: usage(1000, 100),
        latencyMs: expect.any(Number),
        costUsd: costEach,
        ok: true,
      },
    ]);
    expect(transport.seen[2]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(transport.seen[2]?.messages[3]).toEqual({ role: 'assistant', content: '{"score":4.5}' });
    expect(transport.seen[2]?.messages[4]?.content).toMatch(/^- score: .*expected int.*\n- why: .*expected string/m);
    expect(transport.seen.map((s) => [s.model, s.toolName, s.stablePrefix, s.jsonSchema.type])).toEqual([
      ['model-a', 'score', 0, 'object'],
      ['model-a', 'score', 0, 'object'],
      ['model-a', 'score', 0, 'object'],
    ]);
  });

  it('counts what this call already spent against the budget before a re-ask', async () => {
    const transport = scripted({ input: { score: 9, why: 'x' } }, { input: { score: 3, why: 'y' } });
    let checks = 0;
    // Enough for one worst-case call, but not for a second once the first one's cost is spent.
    const budget = {
      remainingUsd: () => {
        checks++;
        return 0.0125;
      },
    };
    const error = await failure(structuredCall(transport, req, { ...options, budget }));
    expect({ kind: error.kind, calls: error.calls.map((c) => c.ok), sent: transport.seen.length, checks }).toEqual({
      kind: 'budget',
      calls: [false],
      sent: 1,
      checks: 2,
    });
    expect(error.message).toMatch(/^the re-ask could cost up to/);
  });

  it('meters a failed exchange with the usage the transport reports, and keeps its kind', async () => {
    const cut = new LlmTransportError('network', 'the stream broke off', usage(500, 0));
    const error = await failure(structuredCall(scripted(cut), req, options));
    expect(error).toMatchObject({
      kind: 'network',
      message: 'the stream broke off',
      calls: [{ ok: false, usage: usage(500, 0), costUsd: 0.005, error: 'network: the stream broke off' }],
    });
  });

  it('lets a programming error through unchanged', async () => {
    await expect(structuredCall(scripted(new TypeError('boom')), req, options)).rejects.toThrow(TypeError);
  });

  it('re-asks a truncated answer with more room, up to the bound, but not a refusal', async () => {
    const cut = { stopReason: 'max_tokens', input: {} } as const;
    const transport = scripted(cut, cut, cut);
    const truncated = await failure(structuredCall(transport, req, options));
    const refused = await failure(structuredCall(scripted({ stopReason: 'refusal' }), req, options));
    expect([truncated.kind, transport.seen.map((r) => r.maxTokens), refused.kind, refused.calls.length]).toEqual([
      'truncated',
      [100, 200, 400],
      'invalid_answer',
      1,
    ]);
  });

  it('repairs what has one reading (an enum in another case, prose around the JSON) and re-asks what a check rejects', async () => {
    const transport = scripted(
      { input: undefined, raw: 'Sure! {"score": 9, "why": "x"} Hope that helps.', unreadable: 'the answer was text' },
      { input: { score: 3, why: 'because' } },
    );
    const picky: LlmRequest<Score> = {
      ...req,
      check: (v) =>
        v.score <= 5 ? { ok: true, value: v, repairs: ['why: kept'] } : { ok: false, problems: ['score: too high'] },
    };
    const bad = await failure(
      structuredCall(
        scripted({ input: { score: 9, why: 'x' } }),
        { ...picky, schema: z.object({ score: z.number(), why: z.string() }) } as LlmRequest<Score>,
        { ...options, maxReasks: 0 },
      ),
    );
    const result = await structuredCall(
      transport,
      { ...picky, schema: z.object({ score: z.number(), why: z.string() }) } as LlmRequest<Score>,
      options,
    );
    const enums = z.object({ side: z.enum(['YES', 'NO']), grade: z.enum(['NOT_YET', 'DONE']) });
    const cased = await structuredCall(
      scripted({ input: { side: 'yes', grade: 'Not yet' } }),
      { ...req, schema: enums } as unknown as LlmRequest<Score>,
      options,
    );
    expect({
      bad: [bad.kind, bad.message],
      value: result.value,
      reask: transport.seen[1]?.messages.at(-1)?.content,
      records: result.calls.map((c) => [c.ok, c.repairs ?? []]),
      cased: [cased.value, cased.calls[0]?.repairs],
    }).toEqual({
      bad: ['invalid_answer', 'no valid score after 1 answer; the last one: - score: too high'],
      value: { score: 3, why: 'because' },
      reask: expect.stringContaining('- score: too high'),
      records: [
        [false, ['(answer): the answer was text; the JSON object in it was read']],
        [true, ['why: kept']],
      ],
      cased: [{ side: 'YES', grade: 'NOT_YET' }, ['side: "yes" read as "YES"', 'grade: "Not yet" read as "NOT_YET"']],
    });
  });

  it('refuses without calling: a cancelled signal, a non-object schema, a bad name', async () => {
    const transport = scripted();
    const cancelled = { aborted: true, addEventListener() {}, removeEventListener() {} };
    const kinds = await Promise.all([
      failure(structuredCall(transport, { ...req, signal: cancelled }, options)),
      failure(
        structuredCall(transport, { ...req, schema: z.array(z.string()) } as unknown as LlmRequest<Score>, options),
      ),
      failure(structuredCall(transport, { ...req, schemaName: 'a score' }, options)),
    ]);
    expect(kinds.map((e) => e.kind)).toEqual(['cancelled', 'bad_request', 'bad_request']);
    expect(transport.seen).toHaveLength(0);
  });

  it('costs an unknown model 0 and still returns the answer', async () => {
    const result = await structuredCall(scripted({ input: { score: 2, why: 'meh' }, model: 'mystery' }), req, {
      ...options,
      tiers: { fast: 'mystery', standard: 'mystery', deep: 'mystery' },
    });
    expect(result.calls[0]).toMatchObject({ model: 'mystery', costUsd: 0, ok: true });
  });
});
