import { describe, expect, it } from 'vitest';
import { type GraphDebate, globalCruxGraph } from './global-graph';
import { replayScript } from './replay';
import { FAST_CONFIG, analysis, debate, message, quickCrux, relation, script } from './script-builder';

// Three debates over related ideas, replayed, then read as one graph. Every crux is split ana YES /
// ben NO (DCG = the confidence: coverage 1, polarity 1).
//   solar (oldest): t1 TARIFF; t2 the same question reworded, a confirmed duplicate (merged into
//     t1); t3 GRID, which t1 rests on (ENTAILS from t3, confirmed).
//   heat-pump: t1 TARIFF in other words (the same question by wording: 5 of 7 keywords); in its
//     evidence ben proposes a deeper crux nobody debates.
//   bikes (a topic, no idea): t1 REPAIR, unrelated.

const TARIFF = 'Will the local electricity tariff rise above 30 cents per kWh by 2028?';
const TARIFF_AGAIN = 'Will the electricity tariff here rise above 30 cents per kWh by 2028?';
const TARIFF_HEAT = 'Will the electricity tariff in the region rise above 30 cents per kWh by 2028?';
const GRID = 'Will the grid operator cap feed-in for small producers before 2027?';
const REPAIR = 'Will repair shops keep a 20% margin on e-bike parts through 2027?';
const DEEPER = 'Will heat pump installers double their prices by 2027?';

const split = (question: string, confidence = 0.8) =>
  analysis({ ana: { side: 'YES', confidence }, ben: { side: 'NO', confidence } }, { question });
const agree = { agrees: true, note: 'It holds.' };

function replayed(id: string, ideaSlug: string | null, createdAt: string, lines: object[], config = FAST_CONFIG): GraphDebate {
  const { state } = replayScript(script(debate(['ana', 'ben'], config), ...(lines as never[])));
  return { id, topic: `Debate ${id}`, ideaSlug, createdAt, state };
}

const solar = replayed(
  'solar',
  'solar-coop',
  '2026-01-01',
  [
    ...quickCrux('t1', 'ana', 'ben', split(TARIFF, 0.8)),
    ...quickCrux('t2', 'ana', 'ben', split(TARIFF_AGAIN, 0.7)),
    ...quickCrux('t3', 'ana', 'ben', split(GRID, 0.9)),
    relation('t1', 't2', 'DUPLICATE', 0.9, { check: agree }),
    relation('t1', 't3', 'ENTAILS', 0.85, { from: 't3', check: agree }),
  ],
);
// Its evidence stage holds two messages (the proposal of a deeper crux, then evidence) before it crystallizes.
const heatLines = quickCrux('t1', 'ana', 'ben', split(TARIFF_HEAT, 0.6));
heatLines.splice(9, 0, message('t1', 'ben', 'PROPOSE_CRUX', { question: DEEPER }));
const heat = replayed('heat', 'heat-pump', '2026-02-01', heatLines, { ...FAST_CONFIG, budgets: { EVIDENCE: 2 } });
const bikes = replayed('bikes', null, '2026-03-01', quickCrux('t1', 'ana', 'ben', split(REPAIR, 0.5)));

describe('the global crux graph', () => {
  it('merges duplicates within a debate and across debates, keeps dependencies, and finds roots and shared cruxes', () => {
    // Given in any order: the graph reads the debates oldest first.
    const graph = globalCruxGraph([bikes, heat, solar]);
    expect({
      debates: graph.debates.map((d) => [d.id, d.cruxes]),
      nodes: graph.nodes.map((n) => ({
        id: n.id,
        members: n.members.map((m) => `${m.debateId}/${m.thread}${m.mergedInto ? `→${m.mergedInto}` : ''}`),
        ideas: n.ideas,
        shared: n.shared,
        split: [n.split.yes, n.split.no],
        dcg: n.dcg,
        root: n.root,
        downstream: n.downstream,
      })),
      merges: graph.merges.map((m) => [m.node, m.from, m.into, m.via, m.confidence]),
      edges: graph.edges.map((e) => [e.kind, e.from, e.to, e.confidence, e.debates]),
      roots: graph.roots,
    }).toEqual({
      debates: [
        ['solar', 3],
        ['heat', 1],
        ['bikes', 1],
      ],
      nodes: [
        {
          id: 'solar/t1',
          members: ['solar/t1', 'solar/t2→t1', 'heat/t1'],
          ideas: ['solar-coop', 'heat-pump'],
          shared: true,
          // The merged duplicate is the same two agents again: its positions are not counted twice.
          split: [2, 2],
          dcg: 0.8,
          root: false,
          downstream: 0,
        },
        { id: 'solar/t3', members: ['solar/t3'], ideas: ['solar-coop'], shared: false, split: [1, 1], dcg: 0.9, root: true, downstream: 1 },
        { id: 'bikes/t1', members: ['bikes/t1'], ideas: [], shared: false, split: [1, 1], dcg: 0.5, root: false, downstream: 0 },
      ],
      merges: [
        ['solar/t1', 'solar/t2', 'solar/t1', 'confirmed', 0.9],
        // {electricity, tariff, rise, above, cents} of {local, electricity, tariff, rise, above, cents, region}.
        ['solar/t1', 'heat/t1', 'solar/t1', 'wording', 0.71],
      ],
      edges: [['ENTAILS', 'solar/t3', 'solar/t1', 0.85, ['solar']]],
      roots: ['solar/t3'],
    });
    expect(graph.recommended).toEqual([
      { question: GRID, reason: 'a root crux: 1 other crux rests on it; still split 1 YES / 1 NO', node: 'solar/t3' },
      {
        question: TARIFF,
        reason: 'shared by 2 ideas (solar-coop, heat-pump); still split 2 YES / 2 NO',
        node: 'solar/t1',
      },
      {
        question: DEEPER,
        reason: 'proposed by ben as a deeper crux in Debate heat (t1, m9) and never debated',
        node: null,
      },
    ]);
  });

  it('is empty for a workspace without crystallized cruxes', () => {
    expect(globalCruxGraph([])).toEqual({ debates: [], nodes: [], merges: [], edges: [], roots: [], recommended: [] });
  });
});
