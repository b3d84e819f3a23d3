import type { z } from 'zod';
import {
  type Llm,
  type LlmBrief,
  type LlmCallRecord,
  LlmError,
  type LlmFailureKind,
  type LlmMessage,
  type LlmRequest,
  type LlmResult,
  type LlmUsage,
  type ModelTier,
} from '../ports/llm';
import { readPartialJson } from '../text/partial-json';
import { jsonInProse, repairEnums } from './answer-repair';
import { issuePath } from '../text/zod-issues';
import { costOf, estimateCallCost, jsonSchemaOf, type PriceTable, type Tiers } from './prices';

/**
 * `Llm.call` on top of a small transport: one HTTP exchange with a provider per `complete`. This file
 * holds everything that does not depend on the provider: the answer's JSON Schema, validation with zod,
 * re-asking after an invalid answer, metering every call and the budget guard.
 */

export interface LlmTransportRequest {
  system: string;
  /** `system` in the parts a prompt cache may share, most shared first (see `LlmRequest.systemParts`). */
  systemParts?: readonly string[];
  /** Every tool of the run in a fixed order, the answer's own among them (see `LlmRequest.toolset`). */
  tools?: readonly LlmTransportTool[];
  /** The answer may come through any of `tools` (see `LlmRequest.anyTool`); `toolName` is the one asked for. */
  anyTool?: true;
  messages: LlmMessage[];
  /** Messages before this index are the unchanged transcript, to be marked for prompt caching (0: none). */
  stablePrefix: number;
  /** Nothing to mark for caching at all (see `LlmRequest.cache`). */
  cache?: false;
  /** JSON Schema of the answer (an object schema). */
  jsonSchema: Record<string, unknown>;
  /** Name of the answer's shape: the forced tool's name, or the JSON schema's name. */
  toolName: string;
  toolDescription: string;
  model: string;
  maxTokens: number;
  /** The caller's cancellation signal (the port's type, so this file compiles without DOM or Node types). */
  signal?: LlmRequest<unknown>['signal'];
  /** The request as data (see `LlmRequest.brief`); a transport only passes it on where asked to. */
  brief?: LlmBrief;
  /** A streaming transport calls this with the answer's JSON text so far, as each piece arrives. */
  onText?: (soFar: string) => void;
  /** A transport calls this when the provider starts answering (see `LlmRequest.onStarted`). */
  onStarted?: () => void;
}

/** A tool definition as a transport sends it. */
export interface LlmTransportTool {
  name: string;
  description: string;
  jsonSchema: Record<string, unknown>;
}

/** Why the model stopped: `end` (a complete answer), `max_tokens` (cut off), `refusal`, or the provider's word. */
export type LlmStopReason = 'end' | 'max_tokens' | 'refusal' | (string & {});

export interface LlmTransportResponse {
  /** The answer: the forced tool's input or the parsed JSON. Undefined when `unreadable` is set. */
  input: unknown;
  /** The answer as the model wrote it, shown back to the model when it is re-asked. */
  raw: string;
  /** Why no answer could be read (not JSON, no tool call): treated as an invalid answer and re-asked. */
  unreadable?: string;
  usage: LlmUsage;
  /** The model that answered, as the provider names it. */
  model: string;
  stopReason: LlmStopReason;
}

export interface LlmTransport {
  /** One exchange with the provider (its own retries included). Throws `LlmTransportError` when it fails. */
  complete(request: LlmTransportRequest): Promise<LlmTransportResponse>;
}

/** A failed exchange; `usage` when the provider had already counted tokens (a stream cut off mid-answer). */
export class LlmTransportError extends LlmError {
  constructor(
    kind: LlmFailureKind,
    message: string,
    readonly usage: LlmUsage | null = null,
  ) {
    super(kind, message);
    this.name = 'LlmTransportError';
  }
}

export interface LlmBudget {
  /** US dollars the caller may still spend; checked before every call, re-asks included. */
  remainingUsd(): number;
}

export interface StructuredCallOptions {
  /** Label of the provider for the call records: `anthropic`, `openai-compatible`. */
  provider: string;
  /** Model id for each tier. */
  tiers: Tiers;
  prices: PriceTable;
  budget?: LlmBudget;
  /** How many times an invalid answer is re-asked before giving up (default 2). */
  maxReasks?: number;
  /** Milliseconds since some origin, for latency (default `Date.now`). */
  now?: () => number;
}

export const DEFAULT_MAX_REASKS = 2;
/** An answer cut off at max_tokens is asked again with this many times the room, up to `MAX_OUTPUT_TOKENS`. */
const TRUNCATION_GROWTH = 2;
export const MAX_OUTPUT_TOKENS = 16_000;
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** An answer echoed back on a re-ask is cut to this many characters. */
const ECHO_LIMIT = 8000;

export const ZERO_USAGE: LlmUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;

/** The problems of an answer that failed its schema, one line each, naming the field. */
export function describeAnswerIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issuePath(issue.path);
    return `- ${where === '' ? '(the answer as a whole)' : where}: ${issue.message}`;
  });
}

/** The message appended after an invalid answer: what was wrong and what to do. */
export function reaskMessage(toolName: string, problems: string[]): string {
  return [
    `Your answer to \`${toolName}\` was rejected and must be given again. Problems:`,
    ...problems,
    `Answer again with \`${toolName}\`: one complete answer with every problem corrected.`,
  ].join('\n');
}

/** `Llm.call` over a transport; see the file comment. */
export async function structuredCall<T>(
  transport: LlmTransport,
  request: LlmRequest<T>,
  options: StructuredCallOptions,
): Promise<LlmResult<T>> {
  const onStarted = request.onStarted;
  if (!onStarted) return call(transport, request, options);
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    onStarted();
  };
  try {
    return await call(transport, { ...request, onStarted: once }, options);
  } finally {
    once();
  }
}

async function call<T>(
  transport: LlmTransport,
  request: LlmRequest<T>,
  options: StructuredCallOptions,
): Promise<LlmResult<T>> {
  const now = options.now ?? (() => Date.now());
  const maxReasks = Math.max(0, options.maxReasks ?? DEFAULT_MAX_REASKS);
  const calls: LlmCallRecord[] = [];
  const model = options.tiers[request.tier];
  const failure = (kind: LlmFailureKind, message: string) => new LlmError(kind, message, calls);

  if (!NAME.test(request.schemaName)) {
    throw failure('bad_request', `the answer's name "${request.schemaName}" must be 1–64 letters, digits, _ or -`);
  }
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = jsonSchemaOf(request.schema as z.ZodType<unknown>);
  } catch (error) {
    throw failure('bad_request', `the schema of ${request.schemaName} has no JSON Schema: ${(error as Error).message}`);
  }
  if (jsonSchema.type !== 'object') {
    throw failure(
      'bad_request',
      `the answer ${request.schemaName} must be an object schema (it is ${String(jsonSchema.type)})`,
    );
  }
  const stablePrefix = Math.max(0, Math.min(request.stablePrefix ?? 0, request.messages.length));
  const toolDescription =
    request.schemaDescription ?? `Give your answer as ${request.schemaName}. Always answer through this tool.`;
  let tools: LlmTransportTool[] | undefined;
  if (request.toolset) {
    try {
      tools = request.toolset.map((t) =>
        t.name === request.schemaName
          ? { name: t.name, description: t.description, jsonSchema }
          : { name: t.name, description: t.description, jsonSchema: jsonSchemaOf(t.schema) },
      );
    } catch (error) {
      throw failure('bad_request', `a tool of the set has no JSON Schema: ${(error as Error).message}`);
    }
    if (!tools.some((t) => t.name === request.schemaName)) {
      throw failure('bad_request', `the answer ${request.schemaName} is not in the request's toolset`);
    }
  }

  const record = (
    tier: ModelTier,
    answeredBy: string,
    usage: LlmUsage,
    latencyMs: number,
    error?: string,
    repairs: string[] = [],
  ) => {
    let cost = costOf(answeredBy, usage, options.prices);
    if (!cost.priced && answeredBy !== model) cost = costOf(model, usage, options.prices);
    const call: LlmCallRecord = {
      provider: options.provider,
      model: answeredBy,
      tier,
      usage,
      latencyMs,
      costUsd: cost.usd,
      ok: error === undefined,
    };
    if (error !== undefined) call.error = error;
    if (repairs.length > 0) call.repairs = repairs;
    calls.push(call);
  };

  // Drafts for the caller: the JSON so far, read leniently; a draft that reads the same as the last
  // one (a piece that only opened a key, say) is not passed on.
  const onPartial = request.onPartial;
  let lastDraft = '';
  const onText = onPartial
    ? (soFar: string) => {
        const partial = readPartialJson(soFar);
        if (partial === undefined) return;
        const key = JSON.stringify(partial);
        if (key === lastDraft) return;
        lastDraft = key;
        onPartial(partial);
      }
    : undefined;

  let messages = [...request.messages];
  let maxTokens = request.maxTokens;
  for (let attempt = 0; ; attempt++) {
    if (request.signal?.aborted) throw failure('cancelled', 'the call was cancelled');

    if (options.budget) {
      const spent = calls.reduce((sum, c) => sum + c.costUsd, 0);
      const remaining = options.budget.remainingUsd() - spent;
      const estimate = estimateCallCost(
        { system: request.system, messages, stablePrefix, maxTokens, jsonSchema },
        model,
        options.prices,
      );
      if (estimate.worstCaseUsd > remaining) {
        throw failure(
          'budget',
          `the ${attempt === 0 ? 'call' : 're-ask'} could cost up to ${usd(estimate.worstCaseUsd)} ` +
            `(about ${estimate.prefixTokens + estimate.tailTokens} input and ${estimate.outputTokens} output tokens on ${model}) ` +
            `but only ${usd(Math.max(0, remaining))} of the budget remains`,
        );
      }
    }

    const started = now();
    let response: LlmTransportResponse;
    try {
      response = await transport.complete({
        system: request.system,
        ...(request.systemParts ? { systemParts: request.systemParts } : {}),
        ...(tools ? { tools } : {}),
        ...(tools && request.anyTool ? { anyTool: true as const } : {}),
        messages,
        stablePrefix,
        ...(request.cache === false ? { cache: false as const } : {}),
        jsonSchema,
        toolName: request.schemaName,
        toolDescription,
        model,
        maxTokens,
        ...(request.brief !== undefined ? { brief: request.brief } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(onText ? { onText } : {}),
        ...(request.onStarted ? { onStarted: request.onStarted } : {}),
      });
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      const usage = error instanceof LlmTransportError && error.usage ? error.usage : ZERO_USAGE;
      record(request.tier, model, usage, now() - started, `${error.kind}: ${error.message}`);
      throw failure(error.kind, error.message);
    }
    const latencyMs = now() - started;
    const answeredBy = response.model || model;

    if (response.stopReason === 'max_tokens') {
      // A model that needs more room than it was given is not wrong: the same request goes again with
      // more room (the prompt is unchanged, so it is read from the cache), a bounded number of times.
      const why = `the answer was cut off at max_tokens (${maxTokens}) before it was complete`;
      record(request.tier, answeredBy, response.usage, latencyMs, `truncated: ${why}`);
      const more = Math.min(MAX_OUTPUT_TOKENS, maxTokens * TRUNCATION_GROWTH);
      if (attempt >= maxReasks || more <= maxTokens) throw failure('truncated', why);
      maxTokens = more;
      continue;
    }
    if (response.stopReason === 'refusal') {
      const why = 'the model declined to answer';
      record(request.tier, answeredBy, response.usage, latencyMs, `invalid_answer: ${why}`);
      throw failure('invalid_answer', why);
    }

    let problems: string[];
    const repairs: string[] = [];
    let input = response.input;
    if (response.unreadable !== undefined) {
      // Prose around the JSON, or the JSON in a fenced block instead of the tool call: one object is
      // there to read, so it is read, and judged like any answer.
      const found = jsonInProse(response.raw);
      if (found !== undefined) {
        input = found;
        repairs.push(`(answer): ${response.unreadable}; the JSON object in it was read`);
      }
    }
    if (response.unreadable !== undefined && repairs.length === 0) {
      problems = [`- ${response.unreadable}`];
    } else {
      input = repairEnums(input, jsonSchema, repairs);
      const prepared = request.prepare ? request.prepare(input) : { ok: true as const, value: input };
      if (prepared.ok) {
        input = prepared.value;
        repairs.push(...(prepared.repairs ?? []));
      }
      const parsed = prepared.ok ? request.schema.safeParse(input) : null;
      if (!prepared.ok) problems = prepared.problems.map((p) => (p.startsWith('- ') ? p : `- ${p}`));
      else if (parsed?.success) {
        const checked = request.check ? request.check(parsed.data) : { ok: true as const, value: parsed.data };
        if (checked.ok) {
          repairs.push(...(checked.repairs ?? []));
          record(request.tier, answeredBy, response.usage, latencyMs, undefined, repairs);
          return { value: checked.value, calls };
        }
        problems = checked.problems.map((p) => (p.startsWith('- ') ? p : `- ${p}`));
      } else problems = describeAnswerIssues((parsed as z.ZodSafeParseError<unknown>).error);
    }
    record(request.tier, answeredBy, response.usage, latencyMs, `invalid_answer: ${problems.join(' ')}`, repairs);
    if (attempt >= maxReasks) {
      throw failure(
        'invalid_answer',
        `no valid ${request.schemaName} after ${attempt + 1} answer${attempt === 0 ? '' : 's'}; the last one: ${problems.join(' ')}`,
      );
    }
    const echo = response.raw.length > ECHO_LIMIT ? `${response.raw.slice(0, ECHO_LIMIT)}…` : response.raw;
    messages = [
      ...messages,
      { role: 'assistant', content: echo === '' ? '(no answer)' : echo },
      { role: 'user', content: reaskMessage(request.schemaName, problems) },
    ];
  }
}

/** An `Llm` whose calls may be held to a budget: `withBudget` gives a copy that checks it before every call. */
export interface MeteredLlm extends Llm {
  withBudget(budget: LlmBudget): Llm;
}

/** The `Llm` of a provider: `structuredCall` over its transport. */
export function createStructuredLlm(transport: LlmTransport, options: StructuredCallOptions): MeteredLlm {
  const make = (budget: LlmBudget | undefined): MeteredLlm => ({
    provider: options.provider,
    call: <T>(request: LlmRequest<T>) => structuredCall(transport, request, budget ? { ...options, budget } : options),
    withBudget: (next: LlmBudget) => make(next),
  });
  return make(options.budget);
}
