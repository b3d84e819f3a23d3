import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { RELATED_IDEAS as IDEAS, runRelatedDebates, TARIFF } from '../../../tests/helpers/related-debates';
import { type Channel, cruxesChannels } from '../../contract';

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
  });

  it('answered every channel of core/contract/cruxes-channels.ts in this file', () => {
    expect(Object.keys(cruxesChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
