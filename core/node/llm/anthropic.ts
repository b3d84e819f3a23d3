import Anthropic, {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type {
  Message,
  MessageCreateParamsBase,
  MessageParam,
  MessageStreamEvent,
  StopReason,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { approxTokens, type ModelsConfig, priceOf, resolveTiers, type Tiers } from '../../llm/prices';
import {
  createStructuredLlm,
  type LlmBudget,
  type LlmStopReason,
  type LlmTransport,
  LlmTransportError,
  type LlmTransportRequest,
  type LlmTransportResponse,
  type MeteredLlm,
} from '../../llm/structured-call';
import type { LlmFailureKind, LlmUsage } from '../../ports/llm';
import { toAbortSignal } from './signal';

/**
 * The Anthropic adapter: one Messages API request per transport call, through `@anthropic-ai/sdk`.
 * - The answer is a forced tool call whose input schema is the answer's JSON Schema.
 * - Prompt caching: breakpoints at the end of each system part and of the stable transcript, where the
 *   prefix is long enough for the model to cache (`cacheBreakpoints`), so each turn reads the shared
 *   rules, the persona and the transcript so far from the cache and writes only the new part.
 * - Retries are the SDK's (429, 408, 409, 5xx, 529, connection errors; it honours `retry-after`); there is
 *   no second retry loop here. Re-asks after an invalid answer are structuredCall's, not retries.
 * - Timeouts: the SDK's `timeout` bounds the wait for the response to start; while streaming, the same
 *   span bounds the silence between two events (a stalled stream is a timeout, not a hang).
 */

export const ANTHROPIC_PROVIDER = 'anthropic';
const EPHEMERAL = { type: 'ephemeral' } as const;

export interface AnthropicTransportOptions {
  apiKey: string;
  baseURL?: string;
  /** The SDK's retries of one request (default 3). */
  maxRetries?: number;
  /** Milliseconds to wait for the response to start, and, while streaming, between two events (default 120 000). */
  timeoutMs?: number;
  /** Stream the answer (default true); false sends one request and waits for the whole answer. */
  stream?: boolean;
  /** A `fetch` for the SDK (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
  /**
   * Send the request's brief in an `x-crucible-brief` header (base64 JSON), and the name of the answer
   * asked for in `x-crucible-answer`. Only for the fake server of tests and benchmarks, which answers
   * like the simulator; never for the real API.
   */
  sendBriefHeader?: boolean;
  /** The shortest prefix the API caches for a model, in tokens (from the model table); see `cacheBreakpoints`. */
  cacheMinTokens?: (model: string) => number;
}

export interface AnthropicLlmOptions extends AnthropicTransportOptions {
  /** The model table (tiers and prices); see core/llm/prices.ts. */
  prices: ModelsConfig;
  /** Model ids replacing the table's tiers for this client. */
  tiers?: Partial<Tiers>;
  budget?: LlmBudget;
  /** Re-asks after an invalid answer (default 2). */
  maxReasks?: number;
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 120_000;

/** The API's limit of cache breakpoints in one request. */
const MAX_BREAKPOINTS = 4;
/** How many blocks before a breakpoint the API looks for a cached prefix. */
const LOOKBACK_BLOCKS = 20;
/**
 * Tokens of a text as counted for breakpoints: generously (a tokenizer counts JSON and names at
 * about three characters a token). A breakpoint under the minimum costs nothing but its slot; one
 * left out where the prefix was long enough costs the whole cache read.
 */
function generousTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** The minimum Anthropic documents for the models a table does not give one for. */
export const DEFAULT_CACHE_MIN_TOKENS = 1024;

/**
 * Where the cache breakpoints of a request go. The prefix runs tools → system → messages, so the
 * candidates are, most shared first: the end of each system part (rules and idea, the same for every
 * agent; then the persona) and the end of the stable transcript. A candidate whose prefix is shorter
 * than the model's minimum would not be cached, so it gets no breakpoint. A slot left over goes
 * `LOOKBACK_BLOCKS` before the transcript's end, so an agent that last spoke more than that many
 * messages ago still finds its cached transcript.
 */
export function cacheBreakpoints(
  request: Pick<LlmTransportRequest, 'system' | 'systemParts' | 'messages' | 'stablePrefix' | 'jsonSchema' | 'tools'>,
  minTokens: number,
): { systemParts: number[]; messages: number[] } {
  const parts = request.system === '' ? [] : (request.systemParts ?? [request.system]);
  const toolTokens = request.tools
    ? request.tools.reduce(
        (sum, t) => sum + generousTokens(JSON.stringify(t.jsonSchema)) + generousTokens(t.description),
        0,
      )
    : generousTokens(JSON.stringify(request.jsonSchema));
  const before: number[] = [];
  let tokens = toolTokens;
  for (const part of parts) {
    tokens += generousTokens(part);
    before.push(tokens);
  }
  const stable = Math.max(0, Math.min(request.stablePrefix, request.messages.length));
  const upTo: number[] = [];
  for (const m of request.messages.slice(0, stable)) {
    tokens += generousTokens(m.content);
    upTo.push(tokens);
  }
  const systemParts = before.flatMap((t, i) => (t >= minTokens ? [i] : []));
  const messages: number[] = [];
  const last = stable - 1;
  if (last >= 0 && (upTo[last] as number) >= minTokens) messages.push(last);
  // The transcript's end is worth most (it is read on the agent's next turn), then the shared parts.
  while (systemParts.length + messages.length > MAX_BREAKPOINTS) systemParts.pop();
  for (let at = last - LOOKBACK_BLOCKS; at >= 0 && systemParts.length + messages.length < MAX_BREAKPOINTS; ) {
    if ((upTo[at] as number) < minTokens) break;
    messages.unshift(at);
    at -= LOOKBACK_BLOCKS;
  }
  return { systemParts, messages };
}

/** The Messages API request of one transport call; `cacheMinTokens` is the model's shortest cached prefix. */
export function anthropicParams(request: LlmTransportRequest, cacheMinTokens = 0): MessageCreateParamsBase {
  const marks = request.cache === false ? { systemParts: [], messages: [] } : cacheBreakpoints(request, cacheMinTokens);
  const marked = new Set(marks.messages);
  const messages: MessageParam[] = request.messages.map((m, i) =>
    marked.has(i)
      ? { role: m.role, content: [{ type: 'text', text: m.content, cache_control: EPHEMERAL }] }
      : { role: m.role, content: m.content },
  );
  const tools: Tool[] = (
    request.tools ?? [{ name: request.toolName, description: request.toolDescription, jsonSchema: request.jsonSchema }]
  ).map((t) => ({ name: t.name, description: t.description, input_schema: t.jsonSchema as Tool.InputSchema }));
  const parts = request.system === '' ? [] : (request.systemParts ?? [request.system]);
  // The parts are sent as blocks with the blank line that joins them in `system`, so the model reads
  // the same text whichever way it was cut.
  const system = parts.map((text, i) => ({
    type: 'text' as const,
    text: i < parts.length - 1 ? `${text}\n\n` : text,
    ...(marks.systemParts.includes(i) ? { cache_control: EPHEMERAL } : {}),
  }));
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    ...(system.length === 0 ? {} : { system }),
    messages,
    tools,
    tool_choice: request.anyTool && request.tools ? { type: 'any' } : { type: 'tool', name: request.toolName },
  };
}

function usageOf(usage: Message['usage'] | undefined): LlmUsage {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: usage?.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage?.cache_creation_input_tokens ?? 0,
  };
}

function stopReasonOf(reason: StopReason | null): LlmStopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'refusal';
    case 'tool_use':
    case 'end_turn':
    case 'stop_sequence':
    case null:
      return 'end';
    default:
      return reason;
  }
}

/**
 * The answer of a complete message: the input of the tool asked for. With the choice left to the
 * model (`anyTool`), a call of another tool is an answer to put back, not one to read.
 */
export function readMessage(message: Message, toolName: string, anyTool = false): LlmTransportResponse {
  const base = { usage: usageOf(message.usage), model: message.model, stopReason: stopReasonOf(message.stop_reason) };
  const tools = message.content.filter((b) => b.type === 'tool_use');
  const block = tools.find((b) => b.name === toolName) ?? (anyTool ? undefined : tools[0]);
  if (!block && anyTool && tools[0]) {
    // Its input answers another question: not to be read as this one's (the re-ask names both tools).
    const called = tools[0].name;
    return {
      ...base,
      input: undefined,
      raw: `(a call of ${called})`,
      unreadable: `the answer called \`${called}\`, not \`${toolName}\``,
    };
  }
  if (!block) {
    const text = message.content
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('')
      .trim();
    return { ...base, input: undefined, raw: text, unreadable: `the answer was text, not a call of \`${toolName}\`` };
  }
  if (typeof block.input === 'string') return { ...base, ...readJsonText(block.input) };
  return { ...base, input: block.input, raw: JSON.stringify(block.input) };
}

function readJsonText(text: string): { input: unknown; raw: string; unreadable?: string } {
  try {
    return { input: JSON.parse(text), raw: text };
  } catch (error) {
    return { input: undefined, raw: text, unreadable: `the answer is not valid JSON (${(error as Error).message})` };
  }
}

/** A draft listener's failure must never break the call it watches. */
function deliverText(onText: (soFar: string) => void, soFar: string): void {
  try {
    onText(soFar);
  } catch {
    // The answer still arrives whole; only the draft is lost.
  }
}

/** What arrived of a stream, kept outside the SDK's accumulation so a broken stream can still be metered. */
interface StreamTrace {
  usage: Message['usage'] | null;
  toolJson: string;
  model: string | null;
  events: number;
}

const RETRIED = new Set<LlmFailureKind>(['rate_limited', 'overloaded', 'server_error', 'timeout', 'network']);

function kindOfStatus(status: number | undefined, type: string | null): LlmFailureKind {
  if (status === 429 || type === 'rate_limit_error') return 'rate_limited';
  if (status === 529 || type === 'overloaded_error') return 'overloaded';
  if (status === 401 || status === 402 || status === 403) return 'auth';
  if (type === 'authentication_error' || type === 'permission_error' || type === 'billing_error') return 'auth';
  if (status === 408 || type === 'timeout_error') return 'timeout';
  if (status !== undefined && status >= 400 && status < 500) return 'bad_request';
  if (type === 'invalid_request_error' || type === 'not_found_error' || type === 'request_too_large') {
    return 'bad_request';
  }
  return 'server_error';
}

/** An SDK failure as one of the port's failure kinds. */
export function toLlmError(
  error: unknown,
  context: { maxRetries: number; stalled: boolean; cancelled: boolean; usage: LlmUsage | null },
): LlmTransportError {
  const { usage } = context;
  const make = (kind: LlmFailureKind, message: string) => {
    const retried = RETRIED.has(kind) && context.maxRetries > 0 ? ` (after up to ${context.maxRetries} retries)` : '';
    return new LlmTransportError(kind, `${message}${retried}`, usage);
  };
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    if (context.stalled && !context.cancelled) return make('timeout', 'the answer stopped arriving from Anthropic');
    return new LlmTransportError('cancelled', 'the call was cancelled', usage);
  }
  if (error instanceof APIConnectionTimeoutError) return make('timeout', 'Anthropic did not answer in time');
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return make('network', `could not reach Anthropic${detail}`);
  }
  if (error instanceof APIError) {
    const kind = kindOfStatus(error.status, error.type);
    const what = [error.status, error.type].filter((x) => x !== undefined && x !== null).join(' ');
    const detail = error.apiMessage ?? error.message;
    return make(kind, `Anthropic answered ${what || 'an error'}${detail ? `: ${detail}` : ''}`);
  }
  if (error instanceof AnthropicError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : error.message;
    return new LlmTransportError(
      'network',
      `the answer from Anthropic broke off before it was complete (${detail})`,
      usage,
    );
  }
  throw error;
}

export function createAnthropicTransport(options: AnthropicTransportOptions): LlmTransport {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries,
    timeout: timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const streaming = options.stream ?? true;
  const minTokens = options.cacheMinTokens ?? (() => 0);
  const requestOptions = (request: LlmTransportRequest, signal: AbortSignal | undefined) => ({
    ...(signal ? { signal } : {}),
    ...(options.sendBriefHeader && request.brief !== undefined
      ? {
          headers: {
            'x-crucible-brief': Buffer.from(JSON.stringify(request.brief)).toString('base64'),
            // What the prompt asks for in words, for a fake that cannot read them (the tool choice may be `any`).
            'x-crucible-answer': request.toolName,
          },
        }
      : {}),
  });

  async function once(request: LlmTransportRequest, signal: AbortSignal | undefined): Promise<LlmTransportResponse> {
    const params = anthropicParams(request, minTokens(request.model));
    let message: Message;
    try {
      message = await client.messages.create({ ...params, stream: false }, requestOptions(request, signal));
    } catch (error) {
      const context = { maxRetries, stalled: false, cancelled: !!request.signal?.aborted, usage: null };
      // Reading the body is outside the SDK's error handling: a connection dropped there surfaces raw.
      if (!(error instanceof AnthropicError) && error instanceof Error && !context.cancelled) {
        throw new LlmTransportError(
          'network',
          `the answer from Anthropic broke off before it was complete (${error.message})`,
        );
      }
      throw toLlmError(error, context);
    }
    return readMessage(message, request.toolName, request.anyTool === true);
  }

  async function streamed(
    request: LlmTransportRequest,
    signal: AbortSignal | undefined,
  ): Promise<LlmTransportResponse> {
    const params = anthropicParams(request, minTokens(request.model));
    const stream = client.messages.stream(params, requestOptions(request, signal));
    const trace: StreamTrace = { usage: null, toolJson: '', model: null, events: 0 };
    let idle: ReturnType<typeof setTimeout> | undefined;
    let stalled = false;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        stalled = true;
        stream.abort();
      }, timeoutMs);
    };
    stream.on('connect', arm);
    stream.on('streamEvent', (event: MessageStreamEvent) => {
      arm();
      trace.events++;
      if (event.type === 'message_start') {
        request.onStarted?.();
        trace.usage = { ...event.message.usage };
        trace.model = event.message.model;
      } else if (event.type === 'message_delta' && trace.usage) {
        trace.usage.output_tokens = event.usage.output_tokens;
      } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        trace.toolJson += event.delta.partial_json;
        if (request.onText && event.delta.partial_json !== '') deliverText(request.onText, trace.toolJson);
      }
    });
    let message: Message;
    try {
      message = await stream.finalMessage();
    } catch (error) {
      const usage = trace.usage ? usageOf(trace.usage) : null;
      // The SDK parses the tool input as it arrives and fails the stream on text that is not JSON; that
      // is an unreadable answer (re-asked), not a broken connection.
      if (usage && trace.toolJson !== '' && isJsonSyntaxError(error)) {
        const read = readJsonText(trace.toolJson);
        if (read.unreadable !== undefined) {
          usage.outputTokens = Math.max(usage.outputTokens, approxTokens(trace.toolJson));
          return { ...read, usage, model: trace.model ?? request.model, stopReason: 'end' };
        }
      }
      throw toLlmError(error, { maxRetries, stalled, cancelled: !!request.signal?.aborted, usage });
    } finally {
      clearTimeout(idle);
    }
    return readMessage(message, request.toolName, request.anyTool === true);
  }

  return {
    async complete(request) {
      const { signal, dispose } = toAbortSignal(request.signal);
      try {
        return await (streaming ? streamed(request, signal) : once(request, signal));
      } finally {
        dispose();
      }
    },
  };
}

function isJsonSyntaxError(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return cause instanceof SyntaxError;
}

/** An `Llm` on the Anthropic API (provider `anthropic`). */
export function createAnthropicLlm(options: AnthropicLlmOptions): MeteredLlm {
  const cacheMinTokens = (model: string) =>
    priceOf(model, options.prices.prices)?.cacheMinTokens ?? DEFAULT_CACHE_MIN_TOKENS;
  return createStructuredLlm(createAnthropicTransport({ cacheMinTokens, ...options }), {
    provider: ANTHROPIC_PROVIDER,
    tiers: resolveTiers(ANTHROPIC_PROVIDER, options.prices, options.tiers),
    prices: options.prices.prices,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.maxReasks !== undefined ? { maxReasks: options.maxReasks } : {}),
  });
}
