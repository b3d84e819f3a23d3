import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { RELATED_IDEAS as IDEAS, runRelatedDebates, TARIFF } from '../../../tests/helpers/related-debates';
import { type Channel, type ContractError, cruxesChannels } from '../../contract';

// The cruxes:* channel against a real app on a workspace where three simulated debates over related
// ideas have run (tests/helpers/related-debates.ts says how their cruxes meet): the solar co-op's t2
// is merged into its t1, the three ideas' tariff questions are one node, and the bike workshop's t2
// is a question that node rests on.

const answered = new Set<Channel>();

describe('the global crux graph', () => {
  const t = appPerTest('crucible-cruxes-', answered, IDEAS);

  it('shows merged duplicates, a shared crux and a dependency across three debates over related ideas', async () => {
    expect(await runRelatedDebates(t.root)).toEqual(['completed', 'completed', 'completed']);
    const app = await t.boot();
    const graph = await t.call(app, 'cruxes:graph', {});
    const [solar, bikes, soil] = graph.debates.map((d) => d.id);
    const tariff = graph.nodes.find((n) => n.question === TARIFF);
    expect({
      debates: graph.debates.map((d) => [d.ideaSlug, d.cruxes]),
      tariff: {
        members: tariff?.members.map((m) => [m.debateId, m.thread, m.status, m.mergedInto]),
        ideas: tariff?.ideas,
        shared: tariff?.shared,
      },
      merges: graph.merges.map((m) => [m.from, m.into, m.via]),
      edges: graph.edges.map((e) => [e.kind, e.from, e.to]),
      roots: graph.roots,
      firstRecommended: graph.recommended[0]?.node,
    }).toEqual({
      debates: [
        ['community-solar-coop', 2],
        ['ebike-repair-workshop', 2],
        ['soil-moisture-lora', 2],
      ],
      tariff: {
        members: [
          [solar, 't1', 'CONVERGED', null],
          [solar, 't2', 'MERGED', 't1'],
          [bikes, 't1', 'CONVERGED', null],
          [soil, 't1', 'CONVERGED', null],
        ],
        ideas: IDEAS,
        shared: true,
      },
      merges: [
        [`${solar}/t2`, `${solar}/t1`, 'confirmed'],
        [`${bikes}/t1`, `${solar}/t1`, 'wording'],
        [`${soil}/t1`, `${solar}/t1`, 'wording'],
      ],
      edges: [['SUPPORTS', `${bikes}/t2`, `${solar}/t1`]],
      roots: [`${bikes}/t2`],
      firstRecommended: `${bikes}/t2`,
    });
    // Each debate's own result says the same of its pair of cruxes.
    const detail = await t.call(app, 'debates:get', { id: solar as string });
    expect(detail.result.threads.map((th) => [th.status, th.mergedInto ?? null])).toEqual([
      ['CONVERGED', null],
      ['MERGED', 't1'],
    ]);
    expect(detail.result.relations?.map((r) => [r.relation, r.status])).toEqual([['DUPLICATE', 'CONFIRMED']]);

    // Across debates the words only picked the pairs: the model's two calls decide (the simulator
    // plays them offline), and what they said is kept in the workspace.
    expect(graph.crossDebate).toEqual({ checked: 0, confirmed: 0, unchecked: 5 });
    // Asked twice at once (two windows, a double click): the second waits for the first, then finds
    // nothing left to ask; neither's paid answers are written over by the other.
    const [check, overlapping] = await Promise.all([
      t.call(app, 'cruxes:check', { provider: 'simulated' }),
      t.call(app, 'cruxes:check', { provider: 'simulated' }),
    ]);
    expect([overlapping.relations, overlapping.llmCalls]).toEqual([[], 0]);
    const pair = (r: (typeof check.relations)[number]) => [r.a, r.b, r.relation, r.from, r.status, r.provider];
    expect([check.relations.map(pair), check.llmCalls, check.left, check.stoppedBy]).toEqual([
      [
        // The same tariff question in three debates' words: confirmed duplicates.
        [`${solar}/t1`, `${soil}/t1`, 'DUPLICATE', `${solar}/t1`, 'CONFIRMED', 'simulated'],
        [`${solar}/t1`, `${bikes}/t1`, 'DUPLICATE', `${solar}/t1`, 'CONFIRMED', 'simulated'],
        [`${bikes}/t1`, `${soil}/t1`, 'DUPLICATE', `${bikes}/t1`, 'CONFIRMED', 'simulated'],
        // The rooftop share and the tariff: proposed, and turned down by the second call…
        [`${solar}/t1`, `${bikes}/t2`, 'SUPPORTS', `${bikes}/t2`, 'REJECTED', 'simulated'],
        // …and, from the soil debate's side, confirmed the other way round.
        [`${bikes}/t2`, `${soil}/t1`, 'SUPPORTS', `${soil}/t1`, 'CONFIRMED', 'simulated'],
      ],
      // Five first calls, five second ones.
      10,
      0,
      null,
    ]);
    const after = await t.call(app, 'cruxes:graph', {});
    expect({
      cross: after.crossDebate,
      merges: after.merges.map((m) => [m.from, m.into, m.via]),
      // The tariff node would rest on the rooftop share and hold it up at once: the dependency the
      // bike debate confirmed first stands.
      edges: after.edges.map((e) => [e.kind, e.from, e.to, e.debates]),
      roots: after.roots,
    }).toEqual({
      cross: { checked: 5, confirmed: 4, unchecked: 0 },
      merges: [
        [`${solar}/t2`, `${solar}/t1`, 'confirmed'],
        [`${soil}/t1`, `${solar}/t1`, 'confirmed'],
        [`${bikes}/t1`, `${solar}/t1`, 'confirmed'],
      ],
      edges: [['SUPPORTS', `${bikes}/t2`, `${solar}/t1`, [bikes]]],
      roots: [`${bikes}/t2`],
    });
    // Kept in the workspace: nothing is asked twice, and the file says what was asked.
    const stored = JSON.parse(readFileSync(join(t.root, 'debates', 'crux-relations.json'), 'utf8'));
    expect([stored.relations.length, stored.usage.llmCalls]).toEqual([5, 10]);
    const again = await t.call(app, 'cruxes:check', { provider: 'simulated' });
    expect([again.relations, again.llmCalls]).toEqual([[], 0]);
  });

  it('refuses to check with a provider it cannot run, and to write over a damaged record', async () => {
    const app = await t.boot();
    const refused = (p: Promise<unknown>) => p.then(() => null, (e: ContractError) => [e.code, e.message]);
    expect(await refused(t.call(app, 'cruxes:check', { provider: 'anthropic' }))).toEqual([
      'user_error',
      expect.stringMatching(/ANTHROPIC_API_KEY/),
    ]);
    mkdirSync(join(t.root, 'debates'), { recursive: true });
    writeFileSync(join(t.root, 'debates', 'crux-relations.json'), '{"version":1,"relations":[{"a":"x"}],"usage":{"llmCalls":0,"costUsd":0}}');
    expect(await refused(t.call(app, 'cruxes:check', { provider: 'simulated' }))).toEqual([
      'user_error',
      'debates/crux-relations.json: relations.0.b: Invalid input: expected string, received undefined (put it right or move it away, then ask again)',
    ]);
    // The graph is still drawn, without the damaged record.
    expect((await t.call(app, 'cruxes:graph', {})).crossDebate).toEqual({ checked: 0, confirmed: 0, unchecked: 0 });
  });

  it('answered every channel of core/contract/cruxes-channels.ts in this file', () => {
    expect(Object.keys(cruxesChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
