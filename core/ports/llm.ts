import type { z } from 'zod';

/**
 * The one way the domain talks to a language model: a structured call. The answer is always an
 * object checked against a zod schema; free text is a field of it.
 */

/** Model tiers; which model id each maps to lives in the user-editable price table. */
export type ModelTier = 'fast' | 'standard' | 'deep';

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmRequest<T> {
  /** Persona system prompt and protocol rules: the stable head of every call, cached. */
  system: string;
  /**
   * The system prompt in the parts a prompt cache can share, most shared first (rules and the idea
   * for every agent, then one agent's persona); joined with blank lines they are `system`. A provider
   * that caches may keep the prefix ending with each part. Without it, `system` is one part.
   */
  systemParts?: readonly string[];
  /**
   * Every answer shape of the run this request belongs to (its own among them), in a fixed order. A
   * provider whose cache prefix starts with the tool definitions sends them all, so requests of
   * different kinds still share one cached head; the answer is still forced to `schemaName`.
   */
  toolset?: readonly LlmTool[];
  /**
   * With a `toolset`: the answer may come through any of its tools, and the prompt says which one is
   * asked for. The tool choice is then the same for every request of the run whatever its shape, so
   * a provider that keeps cached messages only for an unchanged choice (Anthropic) shares them
   * between requests of different shapes. An answer through another tool is put back to the model.
   */
  anyTool?: true;
  /**
   * The conversation. Messages before `stablePrefix` (the transcript so far) are identical from one
   * turn to the next and are marked for prompt caching; the rest is this turn's request.
   */
  messages: LlmMessage[];
  stablePrefix?: number;
  /**
   * `false` for a call whose prefix no later call shares (a one-off check at a debate's end): nothing
   * is marked for caching, since a cache write nobody reads costs a quarter more than plain input.
   */
  cache?: false;
  schema: z.ZodType<T>;
  /** Name of the answer's shape (the forced tool's name), e.g. `crux_move`. */
  schemaName: string;
  schemaDescription?: string;
  tier: ModelTier;
  maxTokens: number;
  signal?: AbortSignalLike;
  /**
   * Called with the answer as far as it has arrived, while the model writes it (a partial object
   * read from the JSON so far; text fields cut off where the writing is). Only providers that
   * stream call it; the answer that counts is still the one `call` returns.
   */
  onPartial?: (partial: unknown) => void;
  /**
   * Called once, when the provider starts answering: its prompt has been read and, where marked,
   * cached, so a request sharing its head can now read it. Also called when the call ends without
   * having started (a failure, a provider that does not stream), so nobody waits for it in vain.
   */
  onStarted?: () => void;
  /**
   * The same request as data, for providers that do not read prose (the offline simulator). Never
   * sent to a model: it would only repeat the words and cost tokens.
   */
  brief?: LlmBrief;
  /**
   * What the schema cannot say: the rules an answer must also meet in the state it was asked in (ids
   * and criteria in play, scores among the positions). It returns the answer, repaired where the slip
   * has one reading, or the problems in words; those are put to the model like a schema failure, and
   * the call fails only after the last re-ask.
   */
  check?: (value: T) => AnswerCheck<T>;
  /**
   * The same, on the raw answer before its schema: for slips that a schema built for this call would
   * refuse with a less useful message (an object keyed by display names where the schema wants ids).
   */
  prepare?: (input: unknown) => AnswerCheck<unknown>;
}

/**
 * The base of every brief (see `LlmRequest.brief`). Each protocol or feature declares its own briefs
 * beside its requests, as a union that narrows both fields to literals (`{ protocol: 'crux'; kind:
 * 'turn'; … } | { protocol: 'crux'; kind: 'analysis'; … }`), and registers a simulator for them in
 * `core/sim/simulators.ts`. The port keeps only this open base on purpose: a closed union here would
 * make the port import every protocol, and a new protocol would have to edit it to be added.
 */
export interface LlmBrief {
  /** Who asked: the protocol or feature (`crux`, `evaluation` …) the simulator is chosen by. */
  readonly protocol: string;
  /** Which of its requests this is (`turn`, `analysis` …); the protocol's simulator answers by it. */
  readonly kind: string;
}

/** An answer shape offered beside the one asked for (see `LlmRequest.toolset`). */
export interface LlmTool {
  name: string;
  description: string;
  schema: z.ZodType<unknown>;
}

/** The outcome of `LlmRequest.check`: an answer to keep (with what was repaired) or the problems. */
export type AnswerCheck<T> = { ok: true; value: T; repairs?: string[] } | { ok: false; problems: string[] };

/** The part of an AbortSignal the domain relies on (core is compiled without DOM or Node types). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** One metered exchange with a provider (re-asks after an invalid answer are separate calls). */
export interface LlmCallRecord {
  provider: string;
  model: string;
  tier: ModelTier;
  usage: LlmUsage;
  latencyMs: number;
  costUsd: number;
  ok: boolean;
  /** Why the call failed or its answer was rejected, in words. */
  error?: string;
  /** Slips in the answer that were repaired rather than re-asked, in words. */
  repairs?: string[];
}

export interface LlmResult<T> {
  value: T;
  /** Every provider call this structured call made, the failed and re-asked ones included. */
  calls: LlmCallRecord[];
}

export type LlmFailureKind =
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'timeout'
  | 'network'
  | 'auth'
  | 'bad_request'
  | 'truncated'
  | 'invalid_answer'
  | 'budget'
  | 'cancelled';

/** A call that did not produce a valid answer, after the SDK's retries and our re-asks. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmFailureKind,
    message: string,
    /** The calls made before giving up (they still cost money and must be metered). */
    readonly calls: LlmCallRecord[] = [],
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

/**
 * One line for the researcher about a call that failed: what kind of failure, and the provider's
 * own words. Such a failure is the model's or the network's, never a bug, so it is shown as it is.
 */
export function describeLlmFailure(error: LlmError): string {
  const line = error.message.split('\n')[0] ?? error.message;
  return `the model call failed (${error.kind}): ${line}`;
}

export interface Llm {
  /** A short label for transcripts: `anthropic`, `openai-compatible`, `simulated`, `replay`. */
  readonly provider: string;
  call<T>(request: LlmRequest<T>): Promise<LlmResult<T>>;
}
