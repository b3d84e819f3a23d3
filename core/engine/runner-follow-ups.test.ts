import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Llm, LlmRequest } from '../ports/llm';
import type { Protocol, RunRecord } from './protocol';
import { Runner } from './runner';

// An answer and the inputs that follow from it (a thread a REFRAME opens) reach the log in one
// append: a kill -9 between two appends would leave the answer logged without what it caused, and a
// resumed run, which never asks that answer again, would never open the thread.

interface State {
  said: string[];
  threads: string[];
}
type Ask = { agent: string };
type Input = { kind: 'said'; agent: string } | { kind: 'thread'; id: string };

const protocol: Protocol<State, Input, Ask> = {
  name: 'reframes',
  version: 1,
  step: (state, input) =>
    input.kind === 'said'
      ? { state: { ...state, said: [...state.said, input.agent] }, events: [{ type: 'said' }] }
      : { state: { ...state, threads: [...state.threads, input.id] }, events: [{ type: 'thread_opened' }] },
  isRefusal: () => false,
  done: (state) => state.said.length >= 2,
  asks: (state) => ({ asks: [{ agent: state.said.length === 0 ? 'ana' : 'ben' }], resumed: false }),
  describe: (ask) => ({
    agent: ask.agent,
    meterAgent: ask.agent,
    purpose: 'turn',
    failedAt: null,
    planned: { kind: 'turn', thread: 't1', agent: ask.agent },
    degradable: false,
  }),
  request: (_state, ask) => ({
    system: '',
    messages: [{ role: 'user', content: ask.agent }],
    schema: z.object({}),
    schemaName: 'turn',
    tier: 'standard',
    maxTokens: 10,
  }),
  answer: (_state, ask) => ({ kind: 'said', agent: ask.agent }),
  // Ana's answer opens a thread, decided on the state after it.
  followUps: (state, ask) => (ask.agent === 'ana' ? [{ kind: 'thread', id: `t${state.threads.length + 2}` }] : []),
  failed: () => [],
  stop: () => ({ inputs: [], after: 'partial' }),
};

describe('the runner', () => {
  it('appends an answer and its follow-ups together, and tells its listeners after the append', async () => {
    const appends: string[][] = [];
    const order: string[] = [];
    const llm: Llm = {
      provider: 'fake',
      call: async <T>(_request: LlmRequest<T>) => ({ value: {} as T, calls: [] }),
    };
    const runner = new Runner(
      protocol,
      { said: [], threads: [] },
      { budgetUsd: null, timeLimitMs: null, concurrency: 1 },
      {
        llm,
        append: (records: readonly RunRecord[]) => {
          order.push('append');
          appends.push(
            records.map((r) =>
              r.type === 'input'
                ? `input:${String(r.input.kind)}`
                : r.type === 'event'
                  ? `event:${String(r.event.type)}`
                  : r.type,
            ),
          );
        },
        estimateCostUsd: () => 0,
        now: () => 0,
      },
    );
    runner.onEvents((events) => order.push(`told:${(events as { type: string }[]).map((e) => e.type).join(',')}`));
    await runner.run();
    expect({ appends, order: order.slice(0, 4) }).toEqual({
      appends: [
        ['round'],
        ['input:said', 'event:said', 'input:thread', 'event:thread_opened'],
        ['round'],
        ['input:said', 'event:said'],
        ['status'],
      ],
      order: ['append', 'append', 'told:said', 'told:thread_opened'],
    });
  });
});
