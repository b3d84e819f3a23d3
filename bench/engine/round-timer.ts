import type { Llm, LlmRequest, LlmResult } from '../../core/ports/llm';

/** One model call as the engine saw it: which round it belonged to and when it ran. */
export interface CallSpan {
  round: number;
  startMs: number;
  endMs: number;
}

export interface RoundSpan {
  round: number;
  calls: number;
  startMs: number;
  endMs: number;
  /** The slowest call of the round: the least time the round could have taken. */
  longestCallMs: number;
}

/**
 * Times every call of an `Llm` and groups the calls into the engine's rounds. The engine plans a
 * round, then starts its calls through `runPooled`, whose workers each call `llm.call` before their
 * first `await`: every call of one round is issued in the same synchronous stretch. A microtask
 * scheduled by a round's first call therefore runs only after the last one, and closes the round.
 * (A round with more calls than the pool's limit would start its late calls in later ticks and be
 * split; that cannot happen here, since a round has at most one call per open thread and the bench
 * runs at most `maxActiveThreads` (4) threads with a pool of 4.)
 */
export class RoundTimer {
  readonly spans: CallSpan[] = [];
  private round = -1;
  private open = false;

  wrap(llm: Llm): Llm {
    return {
      provider: llm.provider,
      call: <T>(request: LlmRequest<T>): Promise<LlmResult<T>> => this.time(() => llm.call(request)),
    };
  }

  private async time<T>(call: () => Promise<T>): Promise<T> {
    const round = this.enter();
    const startMs = performance.now();
    try {
      return await call();
    } finally {
      this.spans.push({ round, startMs, endMs: performance.now() });
    }
  }

  private enter(): number {
    if (!this.open) {
      this.open = true;
      this.round++;
      queueMicrotask(() => {
        this.open = false;
      });
    }
    return this.round;
  }

  rounds(): RoundSpan[] {
    const byRound = new Map<number, CallSpan[]>();
    for (const span of this.spans) byRound.set(span.round, [...(byRound.get(span.round) ?? []), span]);
    return [...byRound.entries()]
      .sort(([a], [b]) => a - b)
      .map(([round, calls]) => ({
        round,
        calls: calls.length,
        startMs: Math.min(...calls.map((c) => c.startMs)),
        endMs: Math.max(...calls.map((c) => c.endMs)),
        longestCallMs: Math.max(...calls.map((c) => c.endMs - c.startMs)),
      }));
  }
}
