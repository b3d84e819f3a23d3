import type { z } from 'zod';
import { type PushEvent, type PushEventName, type PushPayload, pushEvents } from '../../contract';
import type { Log } from '../../ports/log';

type Listener<E extends PushEventName> = (payload: PushPayload<E>) => void;

/**
 * The events the main side pushes to every host. Each payload is checked against the contract
 * before it goes out (a mismatch is a bug: reported, not sent) and is a detached copy, so a host
 * may serialize it later without seeing the engine's state move on. A listener that throws is
 * logged and never stops the others, nor the debate or sync that emitted.
 */
export class PushEmitter {
  private readonly byEvent = new Map<PushEventName, Set<(payload: unknown) => void>>();
  private readonly any = new Set<(event: PushEvent) => void>();

  constructor(
    private readonly log: Log,
    private readonly onContractBug: (error: Error) => void,
  ) {}

  on<E extends PushEventName>(event: E, listener: Listener<E>): () => void {
    let set = this.byEvent.get(event);
    if (!set) {
      set = new Set();
      this.byEvent.set(event, set);
    }
    const entry = listener as (payload: unknown) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** Every event with its name (what a host forwards). */
  onAny(listener: (event: PushEvent) => void): () => void {
    this.any.add(listener);
    return () => {
      this.any.delete(listener);
    };
  }

  emit<E extends PushEventName>(event: E, payload: PushPayload<E>): void {
    const checked = (pushEvents[event] as unknown as z.ZodType).safeParse(payload);
    if (!checked.success) {
      const error = new Error(
        `the ${event} event breaks the contract: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
      this.log.error(error.message);
      this.onContractBug(error);
      return;
    }
    const value = checked.data;
    for (const listener of this.byEvent.get(event) ?? []) this.deliver(event, () => listener(value));
    const named = { event, payload: value } as PushEvent;
    for (const listener of this.any) this.deliver(event, () => listener(named));
  }

  private deliver(event: PushEventName, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.log.error(`a listener of ${event} failed`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  clear(): void {
    this.byEvent.clear();
    this.any.clear();
  }
}
