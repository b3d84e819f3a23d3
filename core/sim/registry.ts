import { type LlmBrief, LlmError } from '../ports/llm';

/**
 * The simulator registry. Each protocol answers its own briefs offline with one pure function of the
 * seed and the brief per kind, and registers that table under its protocol name (one line in
 * `core/sim/simulators.ts`); the simulated model picks the table by `brief.protocol`, then the
 * answer by `brief.kind`. The registry knows no protocol, so none of them imports another.
 */

/** A protocol's answers, one per kind of its briefs; the type makes the table complete. */
export type SimulatorKinds<B extends LlmBrief> = {
  readonly [K in B['kind']]: (seed: number, brief: Extract<B, { kind: K }>) => unknown;
};

/** A protocol's simulator as the registry holds it: its briefs' types are checked at registration. */
export interface ProtocolSimulator {
  readonly protocol: string;
  /** The kinds of brief it answers, for the error that names them. */
  readonly kinds: readonly string[];
  /** The answer to a brief of this protocol whose kind is one of `kinds`. */
  answer(seed: number, brief: LlmBrief): unknown;
}

/** Registers the answers to one protocol's briefs `B` (a union narrowing `protocol` and `kind`). */
export function protocolSimulator<B extends LlmBrief>(
  protocol: B['protocol'],
  kinds: SimulatorKinds<B>,
): ProtocolSimulator {
  // The table is typed per kind for its author; the registry calls it with the brief that named it.
  const table = kinds as unknown as Readonly<Record<string, (seed: number, brief: LlmBrief) => unknown>>;
  return {
    protocol,
    kinds: Object.keys(table),
    answer: (seed, brief) => (table[brief.kind] as (seed: number, brief: LlmBrief) => unknown)(seed, brief),
  };
}

export interface SimulatorRegistry {
  /** The protocols with a simulator, in registration order. */
  readonly protocols: readonly string[];
  /**
   * The simulated answer to a request's brief; a request without a brief, or whose protocol or kind
   * has no simulator, fails as a bad request named after its answer shape (`what`).
   */
  answer(seed: number, brief: LlmBrief | undefined, what: string): unknown;
}

export function simulatorRegistry(simulators: readonly ProtocolSimulator[]): SimulatorRegistry {
  const byProtocol = new Map<string, ProtocolSimulator>();
  for (const simulator of simulators) {
    // Two answers to one protocol would make the simulated output depend on the order of a list.
    if (byProtocol.has(simulator.protocol))
      throw new Error(`two simulators are registered for protocol "${simulator.protocol}"`);
    byProtocol.set(simulator.protocol, simulator);
  }
  return {
    protocols: [...byProtocol.keys()],
    answer(seed, brief, what) {
      if (!brief)
        throw new LlmError('bad_request', `the simulator cannot answer a "${what}" request: it carries no brief`);
      const simulator = byProtocol.get(brief.protocol);
      if (!simulator)
        throw new LlmError(
          'bad_request',
          `the simulator cannot answer a "${what}" request: no simulator is registered for protocol "${brief.protocol}" (registered: ${[...byProtocol.keys()].join(', ') || 'none'})`,
        );
      if (!simulator.kinds.includes(brief.kind))
        throw new LlmError(
          'bad_request',
          `the simulator cannot answer a "${what}" request: the "${brief.protocol}" simulator has no answer for a "${brief.kind}" brief (it answers: ${simulator.kinds.join(', ')})`,
        );
      return simulator.answer(seed, brief);
    },
  };
}
