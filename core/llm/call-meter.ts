import type { KindObservation } from '../engine/cost-plan';
import { type Llm, LlmError, type LlmCallRecord, type LlmUsage, type ModelTier } from '../ports/llm';

/**
 * Tokens per kind of call over a run, for the table the cost preview reads. A kind is the answer's
 * name (`crux_move`, `challenges`, …); one structured call counts once, with the tokens of every
 * provider call it made (its re-asks too), so a kind that often needs a second answer costs more per call.
 */
export class CallMeter {
  private readonly kinds = new Map<string, { calls: number; usage: LlmUsage; maxOutput: number; tier: ModelTier }>();

  /** The same model behind a meter: every call it answers (or fails after paying for) is counted. */
  wrap(llm: Llm): Llm {
    return {
      provider: llm.provider,
      call: async (request) => {
        try {
          const result = await llm.call(request);
          this.add(request.schemaName, request.tier, request.maxTokens, result.calls);
          return result;
        } catch (error) {
          if (error instanceof LlmError && error.kind !== 'cancelled' && error.calls.length > 0)
            this.add(request.schemaName, request.tier, request.maxTokens, error.calls);
          throw error;
        }
      },
    };
  }

  add(kind: string, tier: ModelTier, maxTokens: number, calls: readonly LlmCallRecord[]): void {
    const entry = this.kinds.get(kind) ?? {
      calls: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      maxOutput: 0,
      tier,
    };
    entry.calls++;
    entry.maxOutput = Math.max(entry.maxOutput, maxTokens);
    for (const c of calls) {
      entry.usage.inputTokens += c.usage.inputTokens;
      entry.usage.outputTokens += c.usage.outputTokens;
      entry.usage.cacheReadTokens += c.usage.cacheReadTokens;
      entry.usage.cacheWriteTokens += c.usage.cacheWriteTokens;
    }
    this.kinds.set(kind, entry);
  }

  /** What was measured, as observations of `protocol` at `size` for the token table. */
  observations(protocol: string, size: number | string): KindObservation[] {
    return [...this.kinds].map(([kind, e]) => ({ protocol, kind, size, ...e, usage: { ...e.usage } }));
  }
}
