import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { estimateCallCost, jsonSchemaOf } from '../../core/llm/prices';
import { type AnthropicLlmOptions, createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { LlmError, type LlmMessage, type LlmRequest, type LlmResult } from '../../core/ports/llm';
import { FakeAnthropic, fakeTokens } from '../fakes/fake-anthropic';

/** The real SDK against the fake Anthropic server. */

const models = loadModelsConfig(null);
const haiku = { inputPerMTok: 1, outputPerMTok: 5, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 };

const move = z.object({
  claim: z.string().min(1),
  confidence: z.number().min(0).max(1),
  stance: z.enum(['for', 'against']),
});
type Move = z.infer<typeof move>;
const good: Move = { claim: 'Battery cost falls 8% a year', confidence: 0.7, stance: 'for' };

const SYSTEM = 'You are the Skeptic. Doubt every number until its source is named. '.repeat(20);

function request(messages: LlmMessage[], extra: Partial<LlmRequest<Move>> = {}): LlmRequest<Move> {
  return {
    system: SYSTEM,
    messages,
    stablePrefix: messages.length - 1,
    schema: move,
    schemaName: 'crux_move',
    schemaDescription: 'Your move in the debate.',
    tier: 'fast',
    maxTokens: 400,
    ...extra,
  };
}

const opening: LlmMessage[] = [
  { role: 'user', content: 'The idea: a solar-powered e-bike charging kiosk for the town square.' },
  { role: 'assistant', content: 'Optimist: the square has sun all day and 300 commuters.' },
  { role: 'user', content: 'Your turn: give your move.' },
];

/** Resolves to the LlmError a call fails with; fails the test if the call succeeds or throws something else. */
async function failure(call: Promise<LlmResult<unknown>>): Promise<LlmError> {
  const outcome = await call.then(
    (result) => result,
    (error: unknown) => error,
  );
  if (!(outcome instanceof LlmError)) throw new Error(`expected an LlmError, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const cost = (u: {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}) =>
  (u.input_tokens * haiku.inputPerMTok +
    u.output_tokens * haiku.outputPerMTok +
    u.cache_read_input_tokens * haiku.cacheReadPerMTok +
    u.cache_creation_input_tokens * haiku.cacheWritePerMTok) /
  1e6;

const fake = new FakeAnthropic();
let baseURL: string;
beforeAll(async () => {
  baseURL = await fake.start();
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

// The prompts here are short: with no minimum every breakpoint is placed, so their mechanics show.
function llm(options: Partial<AnthropicLlmOptions> = {}) {
  return createAnthropicLlm({
    apiKey: 'test-key',
    baseURL,
    prices: models,
    maxRetries: 2,
    timeoutMs: 2000,
    cacheMinTokens: () => 0,
    ...options,
  });
}

describe.each([
  ['streaming', true],
  ['non-streaming', false],
])('a valid answer, %s', (_mode, stream) => {
  it('comes back parsed, metered with the usage the server reported, from a forced tool call with cache breakpoints', async () => {
    fake.script({ kind: 'answer', input: good });
    const result = await llm({ stream }).call(request(opening));

    const sent = fake.requests[0];
    const usage = sent?.usage;
    if (!sent || !usage) throw new Error('the fake saw no answered request');
    expect(result).toEqual({
      value: good,
      calls: [
        {
          provider: 'anthropic',
          model: 'claude-haiku-4-5',
          tier: 'fast',
          usage: {
            inputTokens: usage.input_tokens,
            outputTokens: usage.output_tokens,
            cacheReadTokens: 0,
            cacheWriteTokens: usage.cache_creation_input_tokens,
          },
          latencyMs: expect.any(Number),
          costUsd: expect.closeTo(cost(usage), 12),
          ok: true,
        },
      ],
    });
    expect(usage.cache_creation_input_tokens).toBeGreaterThan(fakeTokens(SYSTEM));
    expect(usage.input_tokens).toBe(fakeTokens('Your turn: give your move.'));
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toMatchObject({
      model: 'claude-haiku-4-5',
      max_tokens: 400,
      tool_choice: { type: 'tool', name: 'crux_move' },
      tools: [{ name: 'crux_move', description: 'Your move in the debate.', input_schema: jsonSchemaOf(move) }],
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    });
    expect(sent.body.stream ?? false).toBe(stream);
  });
});

describe('prompt caching', () => {
  it('re-reads the cached system and transcript on the next turn and writes only what is new', async () => {
    fake.script({ kind: 'answer', input: good }, { kind: 'answer', input: { ...good, stance: 'against' } });
    const client = llm();
    const first = await client.call(request(opening));
    const transcript: LlmMessage[] = [
      ...opening,
      { role: 'assistant', content: JSON.stringify(first.value) },
      { role: 'user', content: 'The Optimist answers: sun all day. Your turn again.' },
    ];
    const second = await client.call(request(transcript));

    // Breakpoints: the system block and the last message of the stable transcript, nowhere else.
    const body = fake.requests[1]?.body;
    const marked = JSON.stringify(body).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(2);
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[3]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: JSON.stringify(first.value), cache_control: { type: 'ephemeral' } }],
    });
    expect(body.messages.filter((m: { content: unknown }) => typeof m.content !== 'string')).toHaveLength(1);

    const written = first.calls[0]?.usage.cacheWriteTokens ?? 0;
    expect(first.calls[0]?.usage.cacheReadTokens).toBe(0);
    expect(second.calls[0]?.usage).toEqual({
      cacheReadTokens: written,
      cacheWriteTokens: fakeTokens(opening[2]?.content ?? '') + fakeTokens(JSON.stringify(first.value)),
      inputTokens: fakeTokens(transcript[4]?.content ?? ''),
      outputTokens: expect.any(Number),
    });
    expect(written).toBeGreaterThan(0);
  });
});

describe('the tool choice left to the model', () => {
  const verdict = z.object({ verdict: z.string().min(1) });
  const toolset = [
    { name: 'crux_move', description: 'Your move.', schema: move },
    { name: 'crux_verdict', description: 'A verdict.', schema: verdict },
  ];
  it('keeps the cached messages across answers of different shapes, and puts back an answer through the wrong tool', async () => {
    fake.script(
      { kind: 'answer', input: { verdict: 'for' }, tool: 'crux_verdict' },
      { kind: 'answer', input: good },
      { kind: 'answer', input: { verdict: 'for' } },
    );
    const client = llm({ sendBriefHeader: true });
    const brief = { protocol: 'test', kind: 'any' };
    const moved = await client.call(request(opening, { toolset, anyTool: true, brief }));
    const judged = await client.call({
      system: SYSTEM,
      messages: opening,
      stablePrefix: opening.length - 1,
      toolset,
      anyTool: true,
      brief,
      schema: verdict,
      schemaName: 'crux_verdict',
      tier: 'fast',
      maxTokens: 400,
    });
    const [wrong, reasked, other] = fake.requests;
    expect({
      choices: fake.requests.map((r) => r.body.tool_choice),
      values: [moved.value, judged.value],
      reask: reasked?.body.messages.at(-1).content.includes('the answer called `crux_verdict`, not `crux_move`'),
      // The other shape reads the messages the first request wrote: the choice did not change.
      otherRead: other?.usage?.cache_read_input_tokens,
      written: (wrong?.usage?.cache_creation_input_tokens ?? 0) > fakeTokens(SYSTEM),
    }).toEqual({
      choices: [{ type: 'any' }, { type: 'any' }, { type: 'any' }],
      values: [good, { verdict: 'for' }],
      reask: true,
      otherRead: wrong?.usage?.cache_creation_input_tokens,
      written: true,
    });
  });
});

describe('retries are the SDK’s', () => {
  it('waits as long as retry-after says after a 429, then succeeds with one call record', async () => {
    fake.script({ kind: 'rate_limited', retryAfterSeconds: 1 }, { kind: 'answer', input: good });
    const result = await llm().call(request(opening));
    expect(result.value).toEqual(good);
    expect(result.calls.map((c) => c.ok)).toEqual([true]);
    const [first, second] = fake.requests;
    expect(fake.requests.map((r) => r.answered)).toEqual(['rate_limited', 'answer']);
    expect(second?.headers['x-stainless-retry-count']).toBe('1');
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(995);
  });

  it.each([
    ['529 overloaded', { kind: 'overloaded' } as const],
    ['500', { kind: 'server_error' } as const],
  ])('retries after %s and succeeds', async (_name, fault) => {
    fake.script(fault, { kind: 'answer', input: good });
    const result = await llm().call(request(opening));
    expect({ value: result.value, answered: fake.requests.map((r) => r.answered) }).toEqual({
      value: good,
      answered: [fault.kind, 'answer'],
    });
  });

  it('gives up on a persistent 500 with server_error, the failed call recorded', async () => {
    fake.script({ kind: 'server_error' }, { kind: 'server_error' }, { kind: 'server_error' });
    const error = await failure(llm({ maxRetries: 1 }).call(request(opening)));
    expect(error).toMatchObject({
      kind: 'server_error',
      calls: [
        {
          provider: 'anthropic',
          ok: false,
          costUsd: 0,
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
          error: expect.stringMatching(/^server_error: Anthropic answered 500 api_error/),
        },
      ],
    });
    expect(error.calls).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry a rejected key (auth)', async () => {
    const error = await failure(llm({ apiKey: 'wrong-key' }).call(request(opening)));
    expect({ kind: error.kind, requests: fake.requests.length }).toEqual({ kind: 'auth', requests: 1 });
  });
});

describe('time and connections', () => {
  it('times out a server that never answers', async () => {
    fake.script({ kind: 'hang' });
    const started = Date.now();
    const error = await failure(llm({ maxRetries: 0, timeoutMs: 500 }).call(request(opening)));
    const elapsed = Date.now() - started;
    expect({ kind: error.kind, requests: fake.requests.length, calls: error.calls.length }).toEqual({
      kind: 'timeout',
      requests: 1,
      calls: 1,
    });
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(3000);
  });

  it('times out a stream that stops arriving, metering the input the server had counted', async () => {
    fake.script({ kind: 'cut', input: good, afterEvents: 4, mode: 'stall' });
    const error = await failure(llm({ maxRetries: 0, timeoutMs: 500 }).call(request(opening)));
    expect(error.kind).toBe('timeout');
    expect(error.calls[0]?.usage.cacheWriteTokens).toBe(fake.requests[0]?.usage?.cache_creation_input_tokens);
    expect(error.calls[0]?.costUsd).toBeGreaterThan(0);
  });

  it.each([
    ['streaming', true],
    ['non-streaming', false],
  ])('reports a connection cut mid-answer as network, not retried (%s)', async (_mode, stream) => {
    fake.script({ kind: 'cut', input: good });
    const error = await failure(llm({ stream }).call(request(opening)));
    expect(error).toMatchObject({ kind: 'network', message: expect.stringContaining('broke off') });
    expect(fake.requests).toHaveLength(1);
    expect(error.calls).toHaveLength(1);
  });

  it('reports an overload announced mid-stream as overloaded', async () => {
    fake.script({ kind: 'stream_error', input: good, errorType: 'overloaded_error' });
    const error = await failure(llm().call(request(opening)));
    expect(error.kind).toBe('overloaded');
  });

  it('stops at once when the caller cancels', async () => {
    fake.script({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await failure(llm().call(request(opening, { signal: controller.signal })));
    expect({ kind: error.kind, fast: Date.now() - started < 1000 }).toEqual({ kind: 'cancelled', fast: true });
  });
});

describe('invalid answers', () => {
  it.each([
    ['streaming', true],
    ['non-streaming', false],
  ])('re-asks after tool input that is not JSON, then accepts the corrected answer (%s)', async (_mode, stream) => {
    const broken = '{"claim": "Battery cost falls", "confidence": high}';
    fake.script({ kind: 'malformed', json: broken }, { kind: 'answer', input: good });
    const result = await llm({ stream }).call(request(opening));
    expect(result.value).toEqual(good);
    expect(result.calls.map((c) => [c.ok, c.error?.split(':')[0]])).toEqual([
      [false, 'invalid_answer'],
      [true, undefined],
    ]);
    expect(result.calls[0]?.usage.outputTokens).toBeGreaterThan(0);
    const reask = fake.requests[1]?.body.messages.slice(-2);
    expect(reask).toEqual([
      { role: 'assistant', content: broken },
      { role: 'user', content: expect.stringContaining('the answer is not valid JSON') },
    ]);
  });

  it('re-asks with the validation error naming the failed field, keeping the cached prefix', async () => {
    fake.script({ kind: 'answer', input: { ...good, confidence: 'high' } }, { kind: 'answer', input: good });
    const result = await llm().call(request(opening));
    expect(result.value).toEqual(good);
    const [first, second] = fake.requests;
    const reask: string = second?.body.messages.at(-1).content;
    expect(reask).toMatch(/^- confidence: .*expected number, received string$/m);
    expect(reask).not.toMatch(/^- (claim|stance):/m);
    expect(second?.body.messages.slice(0, 3)).toEqual(first?.body.messages);
    expect(second?.usage?.cache_read_input_tokens).toBe(first?.usage?.cache_creation_input_tokens);
  });

  it('hands the caller drafts of the answer as it streams in, and starts them over on a re-ask', async () => {
    const bad = { ...good, claim: `${good.claim} (first try)`, confidence: 'high' };
    fake.script({ kind: 'answer', input: bad }, { kind: 'answer', input: good });
    const drafts: unknown[] = [];
    const result = await llm().call(request(opening, { onPartial: (p) => drafts.push(p) }));
    expect(result.value).toEqual(good);

    // Each try's drafts grow towards that try's answer, one draft per change of what reads.
    const claims = drafts.map((d) => (d as { claim?: string }).claim ?? '');
    const restart = claims.findIndex((c, i) => i > 0 && c.length < (claims[i - 1] as string).length);
    expect(restart).toBeGreaterThan(1);
    const tries = [claims.slice(0, restart), claims.slice(restart)];
    tries.forEach((seen, i) => {
      const final = i === 0 ? bad.claim : good.claim;
      expect(seen.length).toBeGreaterThan(3);
      for (let k = 1; k < seen.length; k++)
        expect((seen[k] as string).length).toBeGreaterThanOrEqual((seen[k - 1] as string).length);
      for (const c of seen) expect(final.startsWith(c)).toBe(true);
    });
    expect(drafts[restart - 1]).toEqual(bad);
    expect(drafts.at(-1)).toEqual(good);
    for (let k = 1; k < drafts.length; k++) expect(drafts[k]).not.toEqual(drafts[k - 1]);
  });

  it('sends no drafts without streaming, and a failing draft listener costs nothing', async () => {
    fake.script({ kind: 'answer', input: good }, { kind: 'answer', input: good });
    const drafts: unknown[] = [];
    expect((await llm({ stream: false }).call(request(opening, { onPartial: (p) => drafts.push(p) }))).value).toEqual(
      good,
    );
    expect(drafts).toEqual([]);
    const throwing = request(opening, {
      onPartial: () => {
        throw new Error('the view went away');
      },
    });
    expect((await llm().call(throwing)).value).toEqual(good);
  });

  it('re-asks after a text answer without the tool call', async () => {
    fake.script({ kind: 'text', text: 'I think it is a good idea.' }, { kind: 'answer', input: good });
    const result = await llm().call(request(opening));
    expect(result.calls.map((c) => c.ok)).toEqual([false, true]);
    expect(fake.requests[1]?.body.messages.at(-1).content).toContain('not a call of `crux_move`');
  });

  it('gives up with invalid_answer after two re-asks, every answer metered', async () => {
    const bad = { kind: 'answer', input: { ...good, stance: 'maybe' } } as const;
    fake.script(bad, bad, bad, { kind: 'answer', input: good });
    const error = await failure(llm().call(request(opening)));
    expect(error.kind).toBe('invalid_answer');
    expect(error.message).toMatch(/after 3 answers.*stance/);
    expect(error.calls.map((c) => c.ok)).toEqual([false, false, false]);
    expect(error.calls.every((c) => c.costUsd > 0)).toBe(true);
    expect(fake.requests).toHaveLength(3);
    const last = fake.requests[2]?.body.messages as LlmMessage[];
    expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('asks an answer cut off at max_tokens again with twice the room, the same messages, and meters both', async () => {
    fake.script({ kind: 'max_tokens', input: good }, { kind: 'answer', input: good });
    const result = await llm().call(request(opening, { maxTokens: 50 }));
    const sent = fake.requests.map((r) => ({ maxTokens: r.body.max_tokens, messages: r.body.messages.length }));
    expect({
      value: result.value,
      sent,
      calls: result.calls.map((c) => [c.ok, c.usage.outputTokens, c.error ?? '']),
    }).toEqual({
      value: good,
      sent: [
        { maxTokens: 50, messages: opening.length },
        { maxTokens: 100, messages: opening.length },
      ],
      calls: [
        [false, 50, 'truncated: the answer was cut off at max_tokens (50) before it was complete'],
        [true, result.calls[1]?.usage.outputTokens, ''],
      ],
    });
  });

  it('gives up as truncated when every answer is cut off, after the bounded re-asks', async () => {
    fake.script(
      { kind: 'max_tokens', input: good },
      { kind: 'max_tokens', input: good },
      { kind: 'max_tokens', input: good },
    );
    const error = await failure(llm().call(request(opening, { maxTokens: 50 })));
    expect({ kind: error.kind, budgets: fake.requests.map((r) => r.body.max_tokens) }).toEqual({
      kind: 'truncated',
      budgets: [50, 100, 200],
    });
  });

  it('reads the JSON of a text answer with prose around it, and says so in the call record', async () => {
    fake.script({
      kind: 'text',
      text: `Here is my move:\n\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\`\nHappy to expand.`,
    });
    const result = await llm().call(request(opening));
    expect({ value: result.value, requests: fake.requests.length, repairs: result.calls[0]?.repairs }).toEqual({
      value: good,
      requests: 1,
      repairs: ['(answer): the answer was text, not a call of `crux_move`; the JSON object in it was read'],
    });
  });
});

describe('the budget guard', () => {
  it('refuses a call whose worst case exceeds the remaining budget without contacting the server, and allows it with just enough', async () => {
    const req = request(opening);
    const worst = estimateCallCost(
      { ...req, jsonSchema: jsonSchemaOf(move) },
      'claude-haiku-4-5',
      models.prices,
    ).worstCaseUsd;
    expect(worst).toBeGreaterThan(0);

    const refused = await failure(
      llm()
        .withBudget({ remainingUsd: () => worst * 0.999 })
        .call(req),
    );
    expect({ kind: refused.kind, calls: refused.calls, requests: fake.requests.length }).toEqual({
      kind: 'budget',
      calls: [],
      requests: 0,
    });
    expect(refused.message).toMatch(/could cost up to \$0\.\d+.*only \$0\.\d+ of the budget remains/);

    fake.script({ kind: 'answer', input: good });
    const allowed = await llm()
      .withBudget({ remainingUsd: () => worst * 1.001 })
      .call(req);
    expect(allowed.calls[0]?.costUsd).toBeLessThanOrEqual(worst);
    expect(fake.requests).toHaveLength(1);
  });
});
