import { setTimeout as sleep } from 'node:timers/promises';
import { type ModelsConfig, resolveTiers, type Tiers } from '../../llm/prices';
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
 * The adapter for OpenAI-compatible chat servers, mostly local ones (Ollama, llama.cpp server,
 * LM Studio, vLLM): `POST {baseURL}/chat/completions` with a JSON Schema response format, through the
 * global `fetch`. There is no SDK here, so this file retries 429 and 5xx itself, a few times, honouring
 * `retry-after`. Such servers cache prompt prefixes on their own; there is nothing to mark.
 */

export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';

export interface OpenAiCompatibleTransportOptions {
  /** The server's API root, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `http://127.0.0.1:8080/v1` (llama.cpp). */
  baseURL: string;
  /** Sent as a bearer token when given (most local servers need none). */
  apiKey?: string;
  /** Retries after 408, 409, 429, 5xx or a refused connection (default 2). A timeout is not retried. */
  maxRetries?: number;
  /** Milliseconds for the whole exchange (default 300 000: local models can be slow). */
  timeoutMs?: number;
  /** Also state the answer's name and JSON Schema in the system prompt, for servers that ignore `response_format` (default true). */
  schemaInPrompt?: boolean;
  /** The longest `retry-after` honoured, in milliseconds (default 60 000); a longer one gives up at once. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
}

export interface OpenAiCompatibleLlmOptions extends Omit<OpenAiCompatibleTransportOptions, 'baseURL'> {
  /** The server's API root; the table's `providers.openai-compatible.baseURL` when omitted. */
  baseURL?: string;
  /** One model for every tier. */
  model?: string;
  /** A model per tier (over the table's `openai-compatible` tiers). */
  tiers?: Partial<Tiers>;
  /** The model table; without one every call costs 0 (unpriced). */
  prices?: ModelsConfig;
  budget?: LlmBudget;
  maxReasks?: number;
}

export const DEFAULT_OPENAI_MAX_RETRIES = 2;
export const DEFAULT_OPENAI_TIMEOUT_MS = 300_000;

interface ChatCompletion {
  model?: string;
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
}

export function chatBody(request: LlmTransportRequest, schemaInPrompt: boolean): Record<string, unknown> {
  const instruction = schemaInPrompt
    ? `\n\nAnswer with one JSON object only, no other text: \`${request.toolName}\` — ${request.toolDescription}\n` +
      `Its JSON Schema: ${JSON.stringify(request.jsonSchema)}`
    : '';
  const system = `${request.system}${instruction}`.trim();
  return {
    model: request.model,
    messages: [...(system === '' ? [] : [{ role: 'system', content: system }]), ...request.messages],
    max_tokens: request.maxTokens,
    stream: false,
    response_format: {
      type: 'json_schema',
      json_schema: { name: request.toolName, schema: request.jsonSchema, strict: true },
    },
  };
}

function stopReasonOf(finish: string | null | undefined): LlmStopReason {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter') return 'refusal';
  return 'end';
}

/** The JSON text of an answer, without the code fence some models put around it. */
function unfence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?```\s*$/.exec(text);
  return (fenced?.[1] ?? text).trim();
}

export function readCompletion(body: ChatCompletion, requestedModel: string): LlmTransportResponse {
  const prompt = body.usage?.prompt_tokens ?? 0;
  const cached = Math.min(prompt, body.usage?.prompt_tokens_details?.cached_tokens ?? 0);
  const usage: LlmUsage = {
    inputTokens: prompt - cached,
    outputTokens: body.usage?.completion_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
  const choice = body.choices?.[0];
  const base = { usage, model: body.model ?? requestedModel, stopReason: stopReasonOf(choice?.finish_reason) };
  const refusal = choice?.message?.refusal;
  if (typeof refusal === 'string' && refusal !== '')
    return { ...base, input: undefined, raw: refusal, stopReason: 'refusal' };
  const content = choice?.message?.content;
  if (typeof content !== 'string' || content.trim() === '') {
    return { ...base, input: undefined, raw: '', unreadable: 'the answer was empty' };
  }
  const text = unfence(content);
  try {
    return { ...base, input: JSON.parse(text), raw: content };
  } catch (error) {
    return {
      ...base,
      input: undefined,
      raw: content,
      unreadable: `the answer is not valid JSON (${(error as Error).message})`,
    };
  }
}

function kindOfStatus(status: number): LlmFailureKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** Milliseconds a `retry-after` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000) * (1 - Math.random() * 0.25);
}

function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300);
}

export function createOpenAiCompatibleTransport(options: OpenAiCompatibleTransportOptions): LlmTransport {
  const url = `${options.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const maxRetries = options.maxRetries ?? DEFAULT_OPENAI_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const schemaInPrompt = options.schemaInPrompt ?? true;
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function complete(request: LlmTransportRequest): Promise<LlmTransportResponse> {
    const { signal: cancel, dispose } = toAbortSignal(request.signal);
    try {
      return await exchange(request, cancel);
    } finally {
      dispose();
    }
  }

  async function exchange(
    request: LlmTransportRequest,
    cancel: AbortSignal | undefined,
  ): Promise<LlmTransportResponse> {
    const body = JSON.stringify(chatBody(request, schemaInPrompt));
    const retries = (n: number) => (n > 0 ? ` (after ${n} retr${n === 1 ? 'y' : 'ies'})` : '');
    for (let attempt = 0; ; attempt++) {
      if (request.signal?.aborted) throw new LlmTransportError('cancelled', 'the call was cancelled');
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = cancel ? AbortSignal.any([cancel, timeout]) : timeout;
      let failure: LlmTransportError;
      let waitMs: number | undefined;
      try {
        const response = await doFetch(url, { method: 'POST', headers, body, signal });
        const text = await response.text();
        if (response.ok) {
          let parsed: ChatCompletion;
          try {
            parsed = JSON.parse(text) as ChatCompletion;
          } catch {
            throw new LlmTransportError(
              'server_error',
              `${url} answered something other than JSON: ${text.slice(0, 200)}`,
            );
          }
          return readCompletion(parsed, request.model);
        }
        failure = new LlmTransportError(
          kindOfStatus(response.status),
          `${url} answered ${response.status}: ${errorDetail(text)}${retries(attempt)}`,
        );
        if (!RETRY_STATUS.has(response.status)) throw failure;
        waitMs = retryAfterMs(response.headers.get('retry-after'));
        if (waitMs !== undefined && waitMs > maxRetryAfterMs) throw failure;
      } catch (error) {
        if (error instanceof LlmTransportError) throw error;
        if (request.signal?.aborted) throw new LlmTransportError('cancelled', 'the call was cancelled');
        if (timeout.aborted) {
          throw new LlmTransportError('timeout', `${url} did not answer within ${timeoutMs} ms${retries(attempt)}`);
        }
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const detail = cause?.code ?? cause?.message ?? (error as Error).message;
        failure = new LlmTransportError(
          'network',
          `cannot reach ${url} (${detail}); is the model server running?${retries(attempt)}`,
        );
      }
      if (attempt >= maxRetries) throw failure;
      try {
        await sleep(waitMs ?? backoffMs(attempt), undefined, cancel ? { signal: cancel } : {});
      } catch {
        throw new LlmTransportError('cancelled', 'the call was cancelled');
      }
    }
  }

  return { complete };
}

/** An `Llm` on an OpenAI-compatible server (provider `openai-compatible`). */
export function createOpenAiCompatibleLlm(options: OpenAiCompatibleLlmOptions): MeteredLlm {
  const one = options.model ? { fast: options.model, standard: options.model, deep: options.model } : {};
  const baseURL = options.baseURL || options.prices?.providers[OPENAI_COMPATIBLE_PROVIDER]?.baseURL;
  if (!baseURL) throw new Error('openai-compatible: no baseURL (pass one or set it in models.md)');
  return createStructuredLlm(createOpenAiCompatibleTransport({ ...options, baseURL }), {
    provider: OPENAI_COMPATIBLE_PROVIDER,
    tiers: resolveTiers(OPENAI_COMPATIBLE_PROVIDER, options.prices, { ...one, ...options.tiers }),
    prices: options.prices?.prices ?? {},
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.maxReasks !== undefined ? { maxReasks: options.maxReasks } : {}),
  });
}
