import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  displayNames,
  enumCase,
  type Misbehaviour,
  realisticLengths,
  NO_TOOL_TEXT,
  proseAround,
  type SlipKind,
  slipFor,
  unknownId,
} from './model-slips';

/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests and benchmarks. It answers `POST /v1/messages`
 * streaming (SSE, event by event as the real API sends them) and not, counts tokens deterministically
 * (a block's characters / 4, rounded up), emulates prompt caching from the `cache_control` breakpoints,
 * and injects faults. Every request is recorded for assertions.
 *
 * What each request gets, first match wins: the step scripted for its number (`on(n, step)`), the next
 * step of the queue (`script(...steps)`), the responder. Without any, it answers 400 naming the request.
 */

export type FakeStep =
  /** A complete answer: the input of the tool asked for, or of `tool` (a model that picked another one). */
  | { kind: 'answer'; input: unknown; tool?: string }
  /** Tool input text that is not JSON (streamed as partial_json chunks; as a string `input` otherwise). */
  | { kind: 'malformed'; json: string }
  /** A text answer without the tool call. */
  | { kind: 'text'; text: string }
  /** The answer cut off at max_tokens: the tool input's first half, stop_reason `max_tokens`. */
  | { kind: 'max_tokens'; input: unknown }
  /** 429 rate_limit_error with `retry-after` in seconds. */
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  /** 529 overloaded_error. */
  | { kind: 'overloaded' }
  /** A 5xx api_error (500 by default). */
  | { kind: 'server_error'; status?: number }
  /** Any error status, type and message (401 authentication_error, 400 invalid_request_error, …). */
  | { kind: 'error'; status: number; type: string; message: string; headers?: Record<string, string> }
  /** Never answers (the client's timeout must end it). */
  | { kind: 'hang' }
  /**
   * Starts the answer, then after `afterEvents` SSE events (or half the JSON body when not streaming)
   * `close`s the connection or `stall`s (keeps it open, sends nothing more).
   */
  | { kind: 'cut'; input: unknown; afterEvents?: number; mode?: 'close' | 'stall' }
  /** A streamed answer interrupted by an SSE `error` event (the API does this when it overloads mid-answer). */
  | { kind: 'stream_error'; input: unknown; errorType: string; afterEvents?: number };

export interface FakeRequest {
  /** 1-based number of the request, in arrival order. */
  n: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: a request body is whatever the client sent; tests read it freely
  body: any;
  stream: boolean;
  /** `Date.now()` when the request arrived. */
  at: number;
  /** What the fake answered: the step kind, `bad_request` or `unauthorized`. */
  answered: string;
  usage?: FakeUsage;
  /** The slip the misbehaviour mode made in this answer. */
  slip?: SlipKind;
  /** The cached prefixes this request read (every cached prefix inside the one it hit) and wrote. */
  cache?: { read: string[]; wrote: { key: string; tokens: number }[] };
}

export interface FakeUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

export interface FakeAnthropicOptions {
  /** Answers requests that nothing was scripted for. */
  responder?: (request: FakeRequest) => FakeStep;
  /** Milliseconds before answering each request (a number or a function, e.g. `() => 300 ± 100`). */
  latencyMs?: number | (() => number);
  /** Milliseconds between two SSE events (default 0). */
  eventDelayMs?: number;
  /** The API key the fake accepts, as `x-api-key` or a bearer token (default `test-key`); another gets 401. */
  apiKey?: string;
  /**
   * A prefix shorter than this many tokens is not cached (default 0); `per-model` applies the real
   * API's minimum for the request's model (`cacheMinimumOf`).
   */
  minCacheableTokens?: number | 'per-model';
  /** How tokens are counted: `chars/4` (default, exact figures for tests) or `model`, close to a real tokenizer. */
  tokens?: 'chars/4' | 'model';
  /** An answer longer than the request's max_tokens is cut off there, stop_reason `max_tokens`, as a model's is. */
  enforceMaxTokens?: boolean;
  /** Slips like a model's in a seeded share of the responder's answers (scripted steps are sent as scripted). */
  misbehave?: Misbehaviour;
  /** The responder's free-text fields grown to the length a model writes (`realisticLengths`). */
  realisticLengths?: boolean;
}

/** Options of a fake that answers like a model, not like a test: real cache minimums, token counts, limits and slips. */
export function modelLike(
  misbehave?: Misbehaviour,
): Pick<FakeAnthropicOptions, 'minCacheableTokens' | 'tokens' | 'enforceMaxTokens' | 'misbehave' | 'realisticLengths'> {
  return {
    minCacheableTokens: 'per-model',
    tokens: 'model',
    enforceMaxTokens: true,
    realisticLengths: true,
    ...(misbehave ? { misbehave } : {}),
  };
}

/**
 * The shortest prompt prefix the API caches for a model, as Anthropic documents it: 4,096 tokens for
 * Opus 4.5 and later and Haiku 4.5, 2,048 for the Haiku 3 models, 1,024 for the others.
 */
export function cacheMinimumOf(model: string): number {
  if (/opus-4-[5-9]|opus-[5-9]|haiku-4/.test(model)) return 4096;
  if (/haiku-3/.test(model)) return 2048;
  return 1024;
}

/**
 * Tokens of a text as a BPE tokenizer roughly counts them: a short word is one token, a long one
 * one per five letters, digits in threes, each mark of punctuation one (JSON is dear).
 */
export function modelTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/[A-Za-z]+|\d+|[^\sA-Za-z\d]/g)) {
    const piece = m[0];
    if (/^[A-Za-z]/.test(piece)) n += Math.max(1, Math.ceil(piece.length / 5));
    else if (/^\d/.test(piece)) n += Math.ceil(piece.length / 3);
    else n += 1;
  }
  return n;
}

/** The fake's token count of a text: characters / 4, rounded up. */
export function fakeTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const LOOKBACK = 20;

/**
 * Cache writes no later request read: each write's prefix and the tokens it wrote, in request order.
 * A write is read when a later request's cached prefix reaches it (reads it or a longer prefix that
 * starts with it).
 */
export function unreadCacheWrites(requests: readonly FakeRequest[]): { n: number; key: string; tokens: number }[] {
  const readAfter = new Map<string, number>();
  for (const r of requests) for (const key of r.cache?.read ?? []) readAfter.set(key, r.n);
  return requests.flatMap((r) =>
    (r.cache?.wrote ?? []).filter((w) => (readAfter.get(w.key) ?? 0) <= r.n).map((w) => ({ n: r.n, ...w })),
  );
}

interface Block {
  key: string;
  tokens: number;
  breakpoint: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are untyped JSON
type Json = any;

function stripCacheControl(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = stripCacheControl(v);
    return out;
  }
  return value;
}

function blockText(block: Json): string {
  if (typeof block === 'string') return block;
  if (block?.type === 'text') return String(block.text ?? '');
  if (block?.type === 'tool_use') return JSON.stringify(block.input ?? {});
  if (block?.type === 'tool_result') {
    return typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
  }
  return JSON.stringify(stripCacheControl(block));
}

/** The prompt as the cache sees it: tools, then system blocks, then every message's blocks, in order. */
function promptBlocks(body: Json, count: (text: string) => number = fakeTokens): Block[] {
  const blocks: Block[] = [];
  const push = (where: string, value: Json, text: string) =>
    blocks.push({
      key: `${where}:${JSON.stringify(stripCacheControl(value))}`,
      tokens: count(text),
      breakpoint: !!(value && typeof value === 'object' && value.cache_control),
    });
  for (const tool of body.tools ?? []) push('tool', tool, JSON.stringify(stripCacheControl(tool)));
  // A change of tool_choice keeps the tools and system cached but not the messages, as the API documents.
  const choice = JSON.stringify(body.tool_choice ?? null);
  // A string is one text block, as the API reads it: the same text cached as a block is a cache hit.
  const asBlocks = (content: Json): Json[] =>
    typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);
  for (const block of asBlocks(body.system)) push('system', block, blockText(block));
  for (const message of body.messages ?? []) {
    for (const block of asBlocks(message.content)) push(`${message.role}|${choice}`, block, blockText(block));
  }
  return blocks;
}

/**
 * The tool a request's answer is asked of: the forced one, or, when the choice is left to the model
 * (`tool_choice: any`), the one its prompt names, which the adapter repeats for the fake in the
 * `x-crucible-answer` header (a model reads it from the words).
 */
export function answerToolOf(request: Pick<FakeRequest, 'body' | 'headers'>): string | undefined {
  const forced = request.body?.tool_choice?.name;
  if (typeof forced === 'string') return forced;
  const header = request.headers['x-crucible-answer'];
  return typeof header === 'string' ? header : undefined;
}

function toolBlock(name: string): Json {
  return { type: 'tool_use', id: `toolu_fake${Math.random().toString(36).slice(2, 12)}`, name, input: {} };
}

/** Splits a text into chunks of 1 to 12 characters, as the API's input_json_delta events arrive. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = 1 + ((i * 7) % 12);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

export class FakeAnthropic {
  readonly requests: FakeRequest[] = [];
  private readonly queue: FakeStep[] = [];
  private readonly byNumber = new Map<number, FakeStep>();
  /**
   * The cached prefixes, each with the count of prefixes cached before it: a request reads only what
   * was cached before it arrived, as the API makes an entry readable once its writer starts answering.
   */
  private readonly cache = new Map<string, number>();
  /** What the cache held when each request arrived (by request number). */
  private readonly arrivals = new Map<number, number>();
  /** How often each request was asked, for the misbehaviour mode's draws. */
  private readonly seen = new Map<string, number>();
  private server: Server | null = null;
  private url = '';
  private messageCount = 0;

  constructor(private readonly options: FakeAnthropicOptions = {}) {}

  /** Starts listening on a random port of 127.0.0.1; returns the base URL to give the SDK. */
  async start(): Promise<string> {
    // Room for the `x-crucible-brief` header of tests: an evaluation brief carries its whole state.
    const server = createServer({ maxHeaderSize: 16 * 1024 * 1024 }, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake: ${String(error)}` } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  get baseURL(): string {
    return this.url;
  }

  /** Stops the server, dropping any connection still open (hung or stalled answers). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Queues steps for the next requests, one each, in order. */
  script(...steps: FakeStep[]): this {
    this.queue.push(...steps);
    return this;
  }

  /** The step for request number `n` (1-based), ahead of the queue. */
  on(n: number, step: FakeStep): this {
    this.byNumber.set(n, step);
    return this;
  }

  /** Forgets the recorded requests, the queue and the prompt cache. */
  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.byNumber.clear();
    this.cache.clear();
    this.arrivals.clear();
    this.seen.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await new Promise<string>((resolve, reject) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        text += chunk;
      });
      req.on('end', () => resolve(text));
      req.on('error', reject);
    });
    let body: Json = null;
    try {
      body = raw === '' ? null : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const record: FakeRequest = {
      n: this.requests.length + 1,
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0] ?? '',
      headers: req.headers,
      body,
      stream: body?.stream === true,
      at: Date.now(),
      answered: '',
    };
    this.requests.push(record);

    if (record.method !== 'POST' || record.path !== '/v1/messages') {
      record.answered = 'not_found';
      return this.error(res, 404, 'not_found_error', `fake: no route ${record.method} ${record.path}`);
    }
    const key = this.options.apiKey ?? 'test-key';
    if (req.headers['x-api-key'] !== key && req.headers.authorization !== `Bearer ${key}`) {
      record.answered = 'unauthorized';
      return this.error(res, 401, 'authentication_error', 'invalid API key');
    }
    const invalid = this.validate(body, req);
    if (invalid) {
      record.answered = 'bad_request';
      return this.error(res, 400, 'invalid_request_error', invalid);
    }
    this.arrivals.set(record.n, this.cache.size);
    const scripted = this.byNumber.get(record.n) ?? this.queue.shift();
    const step = scripted ?? this.slipped(record, this.lengthened(this.options.responder?.(record)));
    if (!step) {
      record.answered = 'bad_request';
      return this.error(res, 400, 'invalid_request_error', `fake: nothing scripted for request #${record.n}`);
    }
    record.answered = step.kind;

    const latency = typeof this.options.latencyMs === 'function' ? this.options.latencyMs() : this.options.latencyMs;
    if (latency && latency > 0) await sleep(latency);

    switch (step.kind) {
      case 'rate_limited':
        return this.error(res, 429, 'rate_limit_error', 'Number of request tokens has exceeded your rate limit', {
          'retry-after': String(step.retryAfterSeconds),
        });
      case 'overloaded':
        return this.error(res, 529, 'overloaded_error', 'Overloaded');
      case 'server_error':
        return this.error(res, step.status ?? 500, 'api_error', 'Internal server error');
      case 'error':
        return this.error(res, step.status, step.type, step.message, step.headers);
      case 'hang':
        return; // the response stays open until the client gives up or the fake closes
      default:
        return this.answer(record, step, res);
    }
  }

  private count(text: string): number {
    return this.options.tokens === 'model' ? modelTokens(text) : fakeTokens(text);
  }

  private lengthened(step: FakeStep | undefined): FakeStep | undefined {
    if (!this.options.realisticLengths || step?.kind !== 'answer') return step;
    return { kind: 'answer', input: realisticLengths(step.input) };
  }

  /** The responder's answer with the misbehaviour mode's slip for this request, if it draws one. */
  private slipped(record: FakeRequest, step: FakeStep | undefined): FakeStep | undefined {
    const m = this.options.misbehave;
    if (!m || step?.kind !== 'answer') return step;
    // The same request asked again is drawn afresh (a model samples anew), in the order it is asked.
    const asked = JSON.stringify([record.body.system, record.body.messages, record.body.max_tokens]);
    const times = (this.seen.get(asked) ?? 0) + 1;
    this.seen.set(asked, times);
    const slip = slipFor(m, `${times}\u0000${asked}`);
    if (slip === null) return step;
    const input = step.input;
    const made = (kind: SlipKind, next: FakeStep): FakeStep => {
      record.slip = kind;
      return next;
    };
    switch (slip) {
      case 'prose_json':
        return made(slip, { kind: 'text', text: proseAround(input) });
      case 'no_tool':
        return made(slip, { kind: 'text', text: NO_TOOL_TEXT });
      case 'max_tokens':
        return made(slip, { kind: 'max_tokens', input });
      default: {
        // A slip the answer has no room for (no id to misname) falls back to the enum case, then to prose,
        // so the share of answers that slip is the rate asked for.
        const transform = { display_names: displayNames, enum_case: enumCase, unknown_id: unknownId }[slip];
        const changed = transform(input);
        if (changed !== null) return made(slip, { kind: 'answer', input: changed });
        const cased = enumCase(input);
        if (cased !== null) return made('enum_case', { kind: 'answer', input: cased });
        return made('prose_json', { kind: 'text', text: proseAround(input) });
      }
    }
  }

  private validate(body: Json, req: IncomingMessage): string | null {
    if (!req.headers['anthropic-version']) return 'anthropic-version: header is required';
    if (!body || typeof body !== 'object') return 'the body must be a JSON object';
    if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
    if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required';
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return 'messages: at least one message is required';
    const breakpoints = promptBlocks(body).filter((b) => b.breakpoint).length;
    if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
    const choice = body.tool_choice;
    if (choice?.type === 'tool' && !(body.tools ?? []).some((t: Json) => t.name === choice.name)) {
      return `tool_choice: no tool named ${choice.name}`;
    }
    return null;
  }

  /** Input usage of a request, with the prompt cache read and written as the API does. */
  private inputUsage(body: Json, record?: FakeRequest): Omit<FakeUsage, 'output_tokens'> {
    const blocks = promptBlocks(body, (text) => this.count(text));
    const total = blocks.reduce((sum, b) => sum + b.tokens, 0);
    const hashes: string[] = [];
    const upTo: number[] = [];
    let hash = createHash('sha256').update(String(body.model)).digest('hex');
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.key).digest('hex');
      tokens += block.tokens;
      hashes.push(hash);
      upTo.push(tokens);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    const last = breakpoints.at(-1);
    if (last === undefined) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const min =
      this.options.minCacheableTokens === 'per-model'
        ? cacheMinimumOf(String(body.model))
        : (this.options.minCacheableTokens ?? 0);

    // The longest cached prefix ending within the lookback window of a breakpoint, among those cached
    // before the request arrived (requests sent together each write their own copy).
    const arrival = record ? (this.arrivals.get(record.n) ?? this.cache.size) : this.cache.size;
    const cached = (key: string) => (this.cache.get(key) ?? Number.POSITIVE_INFINITY) < arrival;
    let hit = -1;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - LOOKBACK + 1); i--) {
        if (i > hit && cached(hashes[i] as string)) {
          hit = i;
          break;
        }
      }
    }
    const read = hit >= 0 ? (upTo[hit] as number) : 0;
    let written = read;
    const wrote: { key: string; tokens: number }[] = [];
    for (const b of breakpoints) {
      if (b > hit && (upTo[b] as number) >= min) {
        if (!this.cache.has(hashes[b] as string)) this.cache.set(hashes[b] as string, this.cache.size);
        wrote.push({ key: hashes[b] as string, tokens: (upTo[b] as number) - written });
        written = upTo[b] as number;
      }
    }
    if (record) record.cache = { read: hashes.slice(0, hit + 1), wrote };
    return {
      input_tokens: total - written,
      cache_creation_input_tokens: written - read,
      cache_read_input_tokens: read,
    };
  }

  private async answer(record: FakeRequest, step: FakeStep, res: ServerResponse): Promise<void> {
    const body = record.body;
    const toolName: string =
      (step.kind === 'answer' ? step.tool : undefined) ?? answerToolOf(record) ?? body.tools?.[0]?.name ?? 'answer';
    let json: string;
    let stop = 'tool_use';
    let text: string | null = null;
    switch (step.kind) {
      case 'answer':
      case 'cut':
      case 'stream_error':
        json = JSON.stringify(step.input);
        break;
      case 'malformed':
        json = step.json;
        break;
      case 'max_tokens': {
        const full = JSON.stringify(step.input);
        json = full.slice(0, Math.ceil(full.length / 2));
        stop = 'max_tokens';
        break;
      }
      case 'text':
        json = '';
        text = step.text;
        stop = 'end_turn';
        break;
      default:
        throw new Error(`fake: ${step.kind} is not an answer`);
    }
    if (this.options.enforceMaxTokens && text === null && stop !== 'max_tokens') {
      // A model stops where its budget ends, mid-answer.
      const needed = this.count(json);
      if (needed > body.max_tokens) {
        json = json.slice(0, Math.floor((json.length * body.max_tokens) / needed));
        stop = 'max_tokens';
      }
    }
    const usage: FakeUsage = { ...this.inputUsage(body, record), output_tokens: Math.max(1, this.count(text ?? json)) };
    if (stop === 'max_tokens') usage.output_tokens = body.max_tokens;
    record.usage = usage;
    const id = `msg_fake${String(++this.messageCount).padStart(6, '0')}`;
    const tool = toolBlock(toolName);
    const headers = { 'request-id': `req_fake${record.n}` };

    if (!record.stream) {
      const content =
        text !== null
          ? [{ type: 'text', text }]
          : [{ ...tool, input: step.kind === 'malformed' || stop === 'max_tokens' ? json : JSON.parse(json) }];
      const message = {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { ...usage, cache_creation: null, service_tier: 'standard' },
      };
      const payload = JSON.stringify(message);
      if (step.kind === 'cut') {
        res.writeHead(200, {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
        });
        await write(res, payload.slice(0, Math.floor(payload.length / 2)));
        if ((step.mode ?? 'close') === 'close') await cutOff(res);
        return;
      }
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.end(payload);
      return;
    }

    const events: [string, unknown][] = [];
    events.push([
      'message_start',
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1, cache_creation: null, service_tier: 'standard' },
        },
      },
    ]);
    if (text !== null) {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ]);
      events.push(['ping', { type: 'ping' }]);
      for (const part of chunks(text)) {
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } },
        ]);
      }
    } else {
      events.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: tool }]);
      events.push(['ping', { type: 'ping' }]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      ]);
      for (const part of chunks(json)) {
        events.push([
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: part } },
        ]);
      }
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
    events.push([
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    ]);
    events.push(['message_stop', { type: 'message_stop' }]);

    let stopAt = events.length;
    if (step.kind === 'cut' || step.kind === 'stream_error') {
      stopAt = Math.min(step.afterEvents ?? Math.ceil(events.length / 2), events.length - 1);
    }
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const [name, data] of events.slice(0, stopAt)) {
      if (res.destroyed) return;
      await write(res, `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      if (this.options.eventDelayMs) await sleep(this.options.eventDelayMs);
    }
    if (step.kind === 'cut') {
      if ((step.mode ?? 'close') === 'close') await cutOff(res);
      return;
    }
    if (step.kind === 'stream_error') {
      const error = { type: 'error', error: { type: step.errorType, message: step.errorType.replace(/_/g, ' ') } };
      res.end(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
      return;
    }
    res.end();
  }

  private error(
    res: ServerResponse,
    status: number,
    type: string,
    message: string,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake_error', ...headers });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
  }
}

/** Writes and waits until the bytes are handed to the socket, so what was sent arrives before a cut. */
function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve, reject) => res.write(text, (error) => (error ? reject(error) : resolve())));
}

/** Drops the connection mid-answer, once what was written has had time to reach the client. */
async function cutOff(res: ServerResponse): Promise<void> {
  await sleep(20);
  res.socket?.destroy();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
