import { pairwiseAgreement } from '../../llm/cosine';
import { costOf, type PriceTable } from '../../llm/prices';
import { type EmbeddingEndpoint, isPairwiseEmbeddingBrief } from '../../ports/embeddings';
import { type Llm, type LlmCallRecord, LlmError, type LlmFailureKind, type LlmRequest } from '../../ports/llm';
import { toAbortSignal } from './signal';

/**
 * The OpenAI-compatible embeddings endpoint (`POST {root}/embeddings` with `{model, input: [texts]}`,
 * answered `{data: [{index, embedding}], usage: {prompt_tokens}}`: OpenAI, Ollama, llama.cpp server,
 * LM Studio, vLLM), and the wrapper that answers the requests marked as embedding requests
 * (`PairwiseEmbeddingBrief`) with it while every other request goes to the chat model. Through
 * `fetch`, no SDK.
 */

export const EMBEDDINGS_PROVIDER = 'embeddings';

export interface EmbeddingsOptions {
  /** Sent as a bearer token when given (a local server needs none). */
  apiKey?: string;
  /** Prices by model id, read when first needed; an embedding model not in the table costs 0. */
  prices?: () => PriceTable;
  /** Milliseconds for one exchange (default 60 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The address posted to: an API root gets `/embeddings`; a full `…/embeddings` address is kept. */
export function embeddingsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/embeddings$/.test(trimmed) ? trimmed : `${trimmed}/embeddings`;
}

function kindOfStatus(status: number): LlmFailureKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

interface EmbeddingsBody {
  data?: { index?: number; embedding?: unknown }[];
  model?: string;
  usage?: { prompt_tokens?: number };
}

/** One exchange: the texts' embeddings in their order, and the tokens the endpoint says it read. */
export async function embedTexts(
  endpoint: EmbeddingEndpoint,
  texts: readonly string[],
  options: EmbeddingsOptions = {},
  signalLike?: LlmRequest<unknown>['signal'],
): Promise<{ vectors: number[][]; promptTokens: number; model: string }> {
  const url = embeddingsUrl(endpoint.url);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const { signal: cancel, dispose } = toAbortSignal(signalLike);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = cancel ? AbortSignal.any([cancel, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: endpoint.model, input: texts }),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (cancel?.aborted) throw new LlmError('cancelled', 'the call was cancelled');
    if (timeout.aborted) throw new LlmError('timeout', `${url} did not answer in time`);
    throw new LlmError('network', `${url}: ${(error as Error).message}`);
  } finally {
    dispose();
  }
  if (!response.ok)
    throw new LlmError(kindOfStatus(response.status), `${url} answered ${response.status}: ${text.slice(0, 300)}`);
  let body: EmbeddingsBody;
  try {
    body = JSON.parse(text) as EmbeddingsBody;
  } catch {
    throw new LlmError('server_error', `${url} answered something other than JSON: ${text.slice(0, 200)}`);
  }
  const data = body.data ?? [];
  const vectors: number[][] = texts.map((_, i) => {
    const item = data.find((d) => d.index === i) ?? data[i];
    const v = item?.embedding;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new LlmError('server_error', `${url} gave no usable embedding for text ${i + 1} of ${texts.length}`);
    return v as number[];
  });
  return { vectors, promptTokens: body.usage?.prompt_tokens ?? 0, model: body.model ?? endpoint.model };
}

/**
 * `llm` with its embedding requests answered by their endpoint: the agreement of every pair of texts
 * (the cosine of their embeddings), checked against the request's schema and checks like any answer,
 * metered as one call (its input tokens at the model's price, when the table has one).
 */
export function withEmbeddings(llm: Llm, options: EmbeddingsOptions = {}): Llm {
  return {
    provider: llm.provider,
    async call<T>(request: LlmRequest<T>) {
      const brief = request.brief;
      if (!isPairwiseEmbeddingBrief(brief)) return llm.call(request);
      const started = Date.now();
      request.onStarted?.();
      const texts = brief.texts.map((t) => t.text);
      const record = (ok: boolean, model: string, tokens: number, error?: string): LlmCallRecord => {
        const usage = { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
        return {
          provider: EMBEDDINGS_PROVIDER,
          model,
          tier: request.tier,
          usage,
          latencyMs: Date.now() - started,
          costUsd: options.prices ? costOf(model, usage, options.prices()).usd : 0,
          ok,
          ...(error ? { error } : {}),
        };
      };
      let got: Awaited<ReturnType<typeof embedTexts>>;
      try {
        got = await embedTexts(brief.endpoint, texts, options, request.signal);
      } catch (error) {
        const e = error instanceof LlmError ? error : new LlmError('network', String(error));
        throw new LlmError(e.kind, e.message, [record(false, brief.endpoint.model, 0, e.message)]);
      }
      const answer = {
        pairs: pairwiseAgreement(
          brief.texts.map((t) => t.id),
          got.vectors,
        ),
      };
      const parsed = request.schema.safeParse(answer);
      const checked = parsed.success
        ? (request.check?.(parsed.data) ?? { ok: true as const, value: parsed.data })
        : null;
      if (!checked?.ok) {
        const why = parsed.success ? (checked as { problems: string[] }).problems.join('; ') : parsed.error.message;
        throw new LlmError('invalid_answer', `the embeddings' agreement was refused: ${why}`, [
          record(false, got.model, got.promptTokens, why),
        ]);
      }
      return { value: checked.value, calls: [record(true, got.model, got.promptTokens)] };
    },
  };
}
