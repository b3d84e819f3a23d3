import { describe, expect, it } from 'vitest';
import { LlmError } from '../ports/llm';
import { protocolSimulator, simulatorRegistry } from './registry';
import { allSimulators } from './simulators';

// A protocol that lives only here: the registry must take it without knowing it.
type EchoBrief = { protocol: 'echo'; kind: 'say'; text: string } | { protocol: 'echo'; kind: 'count'; items: string[] };
const echo = protocolSimulator<EchoBrief>('echo', {
  say: (seed, brief) => ({ said: `${brief.text} #${seed}` }),
  count: (_seed, brief) => ({ count: brief.items.length }),
});

/** The error a call fails with, as its kind and words. */
function failure(run: () => unknown): { kind: string; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return { kind: error.kind, message: error.message };
  }
}

describe('the simulator registry', () => {
  it('answers a brief through the table of the protocol it names, by its kind', () => {
    const registry = simulatorRegistry([...allSimulators(), echo]);
    expect([
      registry.answer(4, { protocol: 'echo', kind: 'say', text: 'hello' } as EchoBrief, 'echo_say'),
      registry.answer(4, { protocol: 'echo', kind: 'count', items: ['a', 'b'] } as EchoBrief, 'echo_count'),
    ]).toEqual([{ said: 'hello #4' }, { count: 2 }]);
  });

  it('lists every protocol of the project once, with the kinds of brief each answers', () => {
    expect(allSimulators().map((s) => [s.protocol, s.kinds])).toEqual([
      ['crux', ['turn', 'analysis', 'baseline', 'relation', 'relation_check', 'labels', 'crux_check', 'review']],
      ['evaluation', ['evaluator', 'redteam', 'defense', 'arbiter', 'synthesis', 'narrative']],
      ['arena', ['proposal', 'critique', 'revision', 'refinement', 'similarity', 'vote', 'trickster', 'judge']],
      ['council', ['proposal', 'review', 'revision', 'compromise', 'outcome', 'episode']],
      ['development', ['questions']],
      ['classification', ['classify']],
      ['capture', ['placement']],
    ]);
  });

  it('fails as a bad request naming what is missing: the brief, the protocol or the kind', () => {
    const registry = simulatorRegistry([echo]);
    expect([
      failure(() => registry.answer(1, undefined, 'crux_move')),
      failure(() => registry.answer(1, { protocol: 'arena', kind: 'bout' }, 'arena_bout')),
      failure(() => registry.answer(1, { protocol: 'echo', kind: 'shout' }, 'echo_shout')),
      failure(() => registry.answer(1, { protocol: 'echo', kind: 'toString' }, 'echo_x')),
    ]).toEqual([
      { kind: 'bad_request', message: 'the simulator cannot answer a "crux_move" request: it carries no brief' },
      {
        kind: 'bad_request',
        message:
          'the simulator cannot answer a "arena_bout" request: no simulator is registered for protocol "arena" (registered: echo)',
      },
      {
        kind: 'bad_request',
        message:
          'the simulator cannot answer a "echo_shout" request: the "echo" simulator has no answer for a "shout" brief (it answers: say, count)',
      },
      {
        kind: 'bad_request',
        message:
          'the simulator cannot answer a "echo_x" request: the "echo" simulator has no answer for a "toString" brief (it answers: say, count)',
      },
    ]);
  });

  it('refuses two simulators for one protocol', () => {
    expect(() => simulatorRegistry([echo, echo])).toThrow('two simulators are registered for protocol "echo"');
  });
});
