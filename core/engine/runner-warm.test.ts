import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Llm, LlmRequest } from '../ports/llm';
import type { Protocol } from './protocol';
import { Runner } from './runner';

// A round's first call alone until it starts answering: only a run's first round with
// `warmFirstCall`, every round with `warmEachRound`, so the round's other calls read what it caches.

interface State {
  round: number;
  answered: string[];
}
type Ask = { agent: string; round: number };
type Input = Ask;

const AGENTS = ['a', 'b', 'c'];

function protocol(warm: { warmFirstCall?: boolean; warmEachRound?: boolean }): Protocol<State, Input, Ask> {
  return {
    name: 'rounds',
    version: 1,
    ...warm,
    step: (state, input) => {
      const answered = [...state.answered, input.agent];
      return answered.length === AGENTS.length
        ? { state: { round: state.round + 1, answered: [] }, events: [] }
        : { state: { ...state, answered }, events: [] };
    },
    isRefusal: () => false,
    done: (state) => state.round > 3,
    asks: (state) => ({
      asks: AGENTS.filter((a) => !state.answered.includes(a)).map((agent) => ({ agent, round: state.round })),
      resumed: false,
    }),
    describe: (ask) => ({
      agent: ask.agent,
      meterAgent: ask.agent,
      purpose: 'answer',
      failedAt: null,
      planned: { kind: 'answer', thread: String(ask.round), agent: ask.agent },
      degradable: false,
    }),
    request: (_state, ask) => ({
      system: '',
      messages: [{ role: 'user', content: `${ask.round}${ask.agent}` }],
      schema: z.object({}),
      schemaName: 'answer',
      tier: 'standard',
      maxTokens: 10,
    }),
    answer: (_state, ask) => ask,
    failed: () => [],
    stop: () => ({ inputs: [], after: 'partial' }),
  };
}

/** What happened, in order: `1a>` a call started, `1a!` it started answering, `1a.` it ended. */
async function trace(warm: { warmFirstCall?: boolean; warmEachRound?: boolean }): Promise<string[]> {
  const events: string[] = [];
  const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
  const llm: Llm = {
    provider: 'fake',
    async call<T>(request: LlmRequest<T>) {
      const id = request.messages[0]?.content ?? '';
      events.push(`${id}>`);
      await tick();
      events.push(`${id}!`);
      request.onStarted?.();
      await tick();
      events.push(`${id}.`);
      return { value: {} as T, calls: [] };
    },
  };
  const runner = new Runner(
    protocol(warm),
    { round: 1, answered: [] },
    { budgetUsd: null, timeLimitMs: null, concurrency: 3 },
    { llm, append: () => {}, estimateCostUsd: () => 0, now: () => 0 },
  );
  await runner.run();
  return events.filter((e) => e.endsWith('>') || e.endsWith('!'));
}

describe('warming rounds', () => {
  it('holds back the others until the first call of a warmed round starts answering', async () => {
    const staggered = ['a>', 'a!', 'b>', 'c>'];
    const together = ['a>', 'b>', 'c>'];
    // Per round, the starts and the first call's "started" in the order they happened (the other
    // calls' "started" are left out: their order among themselves is the pool's).
    const rounds = (events: string[]) =>
      [1, 2, 3].map((r) =>
        events.filter((e) => e.startsWith(String(r)) && (e.endsWith('>') || e === `${r}a!`)).map((e) => e.slice(1)),
      );
    expect({
      first: rounds(await trace({ warmFirstCall: true })),
      each: rounds(await trace({ warmFirstCall: true, warmEachRound: true })),
      none: rounds(await trace({})),
    }).toEqual({
      first: [staggered, [...together, 'a!'], [...together, 'a!']],
      each: [staggered, staggered, staggered],
      none: [
        [...together, 'a!'],
        [...together, 'a!'],
        [...together, 'a!'],
      ],
    });
  });
});
