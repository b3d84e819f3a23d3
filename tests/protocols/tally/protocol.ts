import { z } from 'zod';
import type { Protocol } from '../../../core/engine/protocol';
import type { ProtocolEntry } from '../../../core/engine/registry';
import type { LlmBrief } from '../../../core/ports/llm';
import { protocolSimulator } from '../../../core/sim/registry';

/**
 * "Tally", a protocol that exists only in the tests, to prove that a new protocol needs nothing but
 * its own folder and one registration: agents each estimate a number, see the others' estimates,
 * and estimate again until they agree within a tolerance or the rounds run out.
 */

export const tallySetupSchema = z.strictObject({
  agents: z
    .array(z.string().regex(/^[a-z][a-z0-9-]*$/))
    .min(2)
    .max(6)
    .default(['ada', 'bo', 'cy']),
  rounds: z.number().int().min(1).max(30).default(4),
  tolerance: z.number().min(0).max(100).default(6),
});
export type TallySetup = z.infer<typeof tallySetupSchema>;

export interface TallyState {
  setup: TallySetup;
  round: number;
  /** Estimates per round, by agent. */
  rounds: Record<string, { estimate: number; reason: string }>[];
  outcome: 'agreed' | 'no agreement' | 'stopped' | null;
  stopReason: string | null;
}

export type TallyInput =
  | { kind: 'estimate'; agent: string; round: number; estimate: number; reason: string }
  | { kind: 'stop'; reason: string };

export interface TallyAsk {
  agent: string;
  round: number;
}

export interface TallyBrief extends LlmBrief {
  protocol: 'tally';
  kind: 'estimate';
  agent: string;
  round: number;
  others: number[];
}

export class TallyInputError extends Error {}

const answerSchema = z.strictObject({
  reason: z.string().min(1).describe('why this number, in a sentence'),
  estimate: z.number().min(0).max(100).describe('the estimate, 0 to 100'),
});

function step(state: TallyState, input: TallyInput): { state: TallyState; events: unknown[] } {
  if (state.outcome) throw new TallyInputError(`the tally is over (${state.outcome})`);
  if (input.kind === 'stop') {
    return {
      state: { ...state, outcome: 'stopped', stopReason: input.reason },
      events: [{ kind: 'stopped', reason: input.reason }],
    };
  }
  if (input.round !== state.round)
    throw new TallyInputError(`an estimate for round ${input.round} in round ${state.round}`);
  if (!state.setup.agents.includes(input.agent)) throw new TallyInputError(`"${input.agent}" is not in this tally`);
  const current = { ...(state.rounds[state.round - 1] ?? {}) };
  if (current[input.agent]) throw new TallyInputError(`${input.agent} already estimated round ${state.round}`);
  current[input.agent] = { estimate: input.estimate, reason: input.reason };
  const rounds = [...state.rounds.slice(0, state.round - 1), current];
  const events: unknown[] = [{ kind: 'estimated', agent: input.agent, round: input.round, estimate: input.estimate }];
  if (Object.keys(current).length < state.setup.agents.length) return { state: { ...state, rounds }, events };
  const values = Object.values(current).map((a) => a.estimate);
  const spread = Math.max(...values) - Math.min(...values);
  if (spread <= state.setup.tolerance) {
    events.push({ kind: 'agreed', round: state.round, spread });
    return { state: { ...state, rounds, outcome: 'agreed' }, events };
  }
  if (state.round >= state.setup.rounds) {
    events.push({ kind: 'no_agreement', spread });
    return { state: { ...state, rounds, outcome: 'no agreement' }, events };
  }
  events.push({ kind: 'next_round', round: state.round + 1, spread });
  return { state: { ...state, rounds, round: state.round + 1 }, events };
}

function protocol(): Protocol<TallyState, TallyInput, TallyAsk> {
  return {
    name: 'tally',
    version: 1,
    step,
    isRefusal: (error) => error instanceof TallyInputError,
    done: (state) => state.outcome !== null,
    asks: (state) => ({
      asks: state.setup.agents
        .filter((a) => !state.rounds[state.round - 1]?.[a])
        .map((agent) => ({ agent, round: state.round })),
      resumed: false,
    }),
    describe: (ask) => ({
      agent: ask.agent,
      meterAgent: ask.agent,
      purpose: `round:${ask.round}`,
      failedAt: `round ${ask.round}`,
      planned: { kind: 'estimate', thread: `round ${ask.round}`, agent: ask.agent },
      degradable: true,
    }),
    degradeAfter: 2,
    request(state, ask) {
      const others = Object.entries(state.rounds[ask.round - 2] ?? {})
        .filter(([agent]) => agent !== ask.agent)
        .map(([, a]) => a.estimate);
      const brief: TallyBrief = { protocol: 'tally', kind: 'estimate', agent: ask.agent, round: ask.round, others };
      return {
        system: `You are ${ask.agent}. Estimate, from 0 to 100, the share of small towns that would back a solar co-op.`,
        messages: [
          {
            role: 'user',
            content: others.length
              ? `The others said: ${others.join(', ')}. Your estimate for round ${ask.round}?`
              : 'Your first estimate?',
          },
        ],
        schema: answerSchema,
        schemaName: 'tally_estimate',
        tier: 'fast',
        maxTokens: 200,
        brief,
      };
    },
    answer: (_state, ask, value) => {
      const { estimate, reason } = value as z.infer<typeof answerSchema>;
      return { kind: 'estimate', agent: ask.agent, round: ask.round, estimate, reason };
    },
    failed: () => [],
    stop: (_state, cause) => ({ inputs: [{ kind: 'stop', reason: cause.text }], after: 'partial' }),
  };
}

/** Deterministic offline estimates that drift toward the others' mean. */
export const tallySimulator = protocolSimulator<TallyBrief>('tally', {
  estimate(seed, brief) {
    let h = seed * 31;
    for (const c of brief.agent) h = (h * 33 + c.charCodeAt(0)) % 1000;
    const own = 20 + (h % 60);
    if (brief.others.length === 0) return { reason: `${brief.agent}'s first guess`, estimate: own };
    const mean = brief.others.reduce((a, b) => a + b, 0) / brief.others.length;
    // Each round closes a share of the gap, never all of it: a zero tolerance is never met.
    const pulled = Math.round((own + (mean - own) * Math.min(0.9, brief.round / 4)) * 10) / 10;
    return { reason: `moved toward the others' mean of ${mean.toFixed(1)}`, estimate: pulled };
  },
});

export const tallyEntry: ProtocolEntry<TallySetup, TallyState, TallyInput, TallyAsk> = {
  name: 'tally',
  version: 1,
  setup: tallySetupSchema as unknown as z.ZodType<TallySetup>,
  folder: 'tallies',
  init: (setup) => ({ setup, round: 1, rounds: [], outcome: null, stopReason: null }),
  protocol,
  summary: (state) => ({
    outcome: state.outcome,
    rounds: state.rounds.length,
    final: state.rounds[state.rounds.length - 1] ?? {},
  }),
  transcript: (state) =>
    state.rounds.flatMap((round, i) =>
      Object.entries(round).map(([agent, a]) => ({
        author: agent,
        text: `round ${i + 1}: ${a.estimate} — ${a.reason}`,
      })),
    ),
  simulator: tallySimulator,
};
