import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { type Channel, cruxesChannels } from '../../contract';
import type { AnalysisOutput } from '../../crux/analysis';
import type { AnalysisBrief } from '../../crux/live/brief';
import type { LlmRequest } from '../../ports/llm';
import { DebateService } from '../debates/debate-service';
import { type ProviderFactory, providerFor } from '../debates/providers';
import { Workspace } from '../workspace/workspace';

// The cruxes:* channel against a real app on a workspace where three simulated debates over related
// ideas have run. The simulator plays every agent and both calls of the cross-thread analysis; only
// the crystallizer's wording of each crux is the test's, so that the ideas' cruxes meet: on the
// solar co-op, t2's crux is t1's in other words (the simulator finds the duplicate, its second call
// confirms it, t2 is merged); on the bike workshop, t1 asks the same tariff question (one node for
// both ideas) and t2 is a question t1 rests on (SUPPORTS, confirmed: seed 1 is sure enough, 0.9);
// on the soil sensors, t1 asks the tariff question once more and t2 something else.

const answered = new Set<Channel>();
const IDEAS = ['community-solar-coop', 'ebike-repair-workshop', 'soil-moisture-lora'];
const AGENTS = ['ethicist', 'field-researcher', 'investor', 'regulator'];
const TARIFF = 'Will the local electricity tariff rise above 30 cents per kWh by 2028?';
const QUESTIONS: Record<string, Record<string, string>> = {
  'community-solar-coop': { t1: TARIFF, t2: 'Will the electricity tariff here rise above 30 cents per kWh by 2028?' },
  'ebike-repair-workshop': {
    t1: 'Will the electricity tariff in the region rise above 30 cents per kWh by 2028?',
    t2: 'Will rooftop solar output rise above 30 percent of local electricity demand by 2030?',
  },
  'soil-moisture-lora': {
    t1: 'Will the local electricity tariff rise above 30 cents per kWh before 2028?',
    t2: 'Will farmers adopt soil sensors on half their plots by 2029?',
  },
};

/** The simulator, with the crystallizer's question for each thread taken from QUESTIONS[idea]. */
const worded =
  (idea: string): ProviderFactory =>
  (name, root, seed) => {
    const inner = providerFor(name, root, seed);
    return {
      ...inner,
      llm: {
        provider: inner.llm.provider,
        async call<T>(request: LlmRequest<T>) {
          const result = await inner.llm.call(request);
          if (request.schemaName !== 'crux_analysis') return result;
          const thread = (request.brief as AnalysisBrief).thread.id;
          const question = QUESTIONS[idea]?.[thread];
          return question ? { ...result, value: { ...(result.value as AnalysisOutput), question } as T } : result;
        },
      },
    };
  };

describe('the global crux graph', () => {
  const t = appPerTest('crucible-cruxes-', answered, IDEAS);

  it('shows merged duplicates, a shared crux and a dependency across three debates over related ideas', async () => {
    const ws = Workspace.open(t.root);
    try {
      ws.sync();
      for (const idea of IDEAS) {
        const run = await new DebateService(ws, worded(idea)).start({ ideaSlug: idea, agents: AGENTS, provider: 'simulated', seed: 1 });
        expect(run.outcome.status).toBe('completed');
      }
    } finally {
      ws.close();
    }
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
