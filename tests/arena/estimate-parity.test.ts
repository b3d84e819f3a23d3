import { describe, expect, it } from 'vitest';
import type { ArenaRequest, Channel } from '../../core/contract';
import { appPerTest, IDEA, OTHER } from '../helpers/app-harness';
import { cli } from '../helpers/run-cli';

// An arena's cost is planned once (core/arena/plan.ts) and priced once (core/node/arena/
// arena-estimate.ts): the CLI's `arena --estimate` and the app's `arenas:estimate` (the arena start
// form, the library's tournament form) say the same for the same setup, to the call and the cent,
// and why the provider cannot run it when it cannot.

const THIRD = 'soil-moisture-lora';
const answered = new Set<Channel>();

describe('an arena estimate', { timeout: 120_000 }, () => {
  const t = appPerTest('crucible-arena-estimate-', answered, [IDEA, OTHER, THIRD]);

  it('is the same from the CLI and from the app, for an arena and for a tournament', async () => {
    const app = await t.boot();
    const both = async (
      request: Omit<ArenaRequest, 'judge' | 'trickster'> & { trickster?: boolean },
      flags: string[],
    ) => {
      const fromApp = await t.call(app, 'arenas:estimate', { judge: 'judge', trickster: false, ...request });
      const run = cli(['arena', '--workspace', t.root, '--judge', 'judge', ...flags, '--estimate', '--json']);
      if (run.code !== 0) throw new Error(`arena --estimate exited ${run.code}: ${run.stderr}`);
      const out = JSON.parse(run.stdout) as Record<string, unknown>;
      return { app: fromApp, cli: 'pairings' in out ? out.estimate : out };
    };
    const agents = ['investor', 'historian', 'regulator'];
    const cases = {
      // Priced from the model table with no key: the likely and worst figures, and why it cannot run.
      arena: await both({ ideaSlug: IDEA, agents, trickster: true, provider: 'anthropic' }, [
        '--idea',
        IDEA,
        '--agents',
        agents.join(','),
        '--trickster',
        '--provider',
        'anthropic',
      ]),
      // A topic, five agents, lexical, a budget of its own that caps the worst case.
      topic: await both(
        {
          topic: 'Should the school roof carry panels?',
          agents: [...agents, 'ethicist', 'systems-thinker'],
          similarity: 'lexical',
          provider: 'anthropic',
          budgetUsd: 0.5,
        },
        [
          '--topic',
          'Should the school roof carry panels?',
          '--agents',
          [...agents, 'ethicist', 'systems-thinker'].join(','),
          '--similarity',
          'lexical',
          '--provider',
          'anthropic',
          '--budget',
          '0.5',
        ],
      ),
      tournament: await both({ ideas: [IDEA, OTHER, THIRD], agents, provider: 'anthropic' }, [
        '--ideas',
        [IDEA, OTHER, THIRD].join(','),
        '--agents',
        agents.join(','),
        '--provider',
        'anthropic',
      ]),
    };
    expect(Object.fromEntries(Object.entries(cases).map(([k, c]) => [k, c.cli]))).toEqual(
      Object.fromEntries(Object.entries(cases).map(([k, c]) => [k, c.app])),
    );
    // What is compared is a real estimate: priced, the worst above the likely (or the budget), the
    // reason the provider cannot run, and a tournament's three meetings of two.
    expect({
      arena: [cases.arena.app.usd > 0, cases.arena.app.worstUsd > cases.arena.app.usd, cases.arena.app.cannotRun],
      topic: [cases.topic.app.worstUsd, cases.topic.app.basis],
      tournament: cases.tournament.app.basis,
    }).toEqual({
      arena: [true, true, expect.stringMatching(/^the anthropic provider needs an API key/)],
      topic: [0.5, expect.stringMatching(/^about \d+ calls for 5 agents: .*; at worst the budget stops it$/)],
      tournament: expect.stringMatching(
        /^3 head-to-head arenas, every pair of the 3 ideas once; each about \d+ calls for 2 agents/,
      ),
    });
  });
});
