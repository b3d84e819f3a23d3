import type { Llm, LlmCallRecord, LlmRequest, LlmResult } from '../ports/llm';
import { LlmError } from '../ports/llm';
import { type SimulatorRegistry, simulatorRegistry } from './registry';
import { allSimulators } from './simulators';

/**
 * The offline simulator behind the model port: deterministic, labelled and free. It answers a
 * request from its brief through the simulator its protocol registered, and meters the call at zero
 * cost with token counts estimated from the words, so figures and limits still move.
 */

function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A simulated model; `registry` is every protocol's simulator (the built-in ones and those of the
 * protocols registered in `core/protocols.ts`) unless a test brings its own.
 */
export function createSimulatedLlm(
  seed: number,
  registry: SimulatorRegistry = simulatorRegistry(allSimulators()),
): Llm {
  return {
    provider: 'simulated',
    async call<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
      if (request.signal?.aborted) throw new LlmError('cancelled', 'the call was cancelled');
      const answer = registry.answer(seed, request.brief, request.schemaName);
      const value = request.schema.parse(answer);
      const input = request.system.length + request.messages.reduce((n, m) => n + m.content.length, 0);
      const record: LlmCallRecord = {
        provider: 'simulated',
        model: 'simulator',
        tier: request.tier,
        usage: {
          inputTokens: Math.ceil(input / 4),
          outputTokens: approxTokens(JSON.stringify(answer)),
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        latencyMs: 0,
        costUsd: 0,
        ok: true,
      };
      return { value, calls: [record] };
    },
  };
}
