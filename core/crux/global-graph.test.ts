import { describe, expect, it } from 'vitest';
import type { CrossRelation } from './cross-debate';
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
    expect(globalCruxGraph([])).toEqual({
      crossDebate: { checked: 0, confirmed: 0, unchecked: 0 },
      debates: [],
      nodes: [],
      merges: [],
      edges: [],
      roots: [],
      recommended: [],
    });
  });
});

// The cross-debate analysis (./cross-debate.ts) read into the graph. A fourth debate asks a question
// sharing three keywords with solar's GRID ({grid, small, producers}): not the same question by
// wording (3 of 6: 0.5), but a pair the words pick out for the model.
const LEAVE = 'Will small producers leave the grid by 2030?';
const grid = replayed('grid', 'microgrid', '2026-04-01', quickCrux('t1', 'ana', 'ben', split(LEAVE, 0.7)));

/** An answer as the workspace keeps it: `questions` as asked unless given. */
function answered(
  a: string,
  b: string,
  relation: CrossRelation['relation'],
  status: CrossRelation['status'],
  extra: Partial<CrossRelation> = {},
): CrossRelation {
  const question = (k: string) =>
    ({ 'solar/t1': TARIFF, 'solar/t3': GRID, 'heat/t1': TARIFF_HEAT, 'grid/t1': LEAVE })[k] ?? k;
  return {
    a,
    b,
    relation,
    from: a,
    to: b,
    confidence: 0.9,
    sketch: `${a} and ${b}, argued at some length.`,
    status,
    note: `the second call on ${a} and ${b}`,
    questions: [question(a), question(b)],
    provider: 'anthropic',
    checkedAt: '2026-05-01T00:00:00.000Z',
    ...extra,
  };
}

describe('the global crux graph with the cross-debate analysis', () => {
  const view = (graph: ReturnType<typeof globalCruxGraph>) => ({
    cross: graph.crossDebate,
    nodes: graph.nodes.map((n) => [n.id, n.members.map((m) => `${m.debateId}/${m.thread}`), n.root, n.downstream]),
    merges: graph.merges.map((m) => [m.from, m.into, m.via, m.confidence, m.reason]),
    edges: graph.edges.map((e) => [e.kind, e.from, e.to, e.confidence, e.debates]),
  });

  it('merges on wording only what no model has answered, and counts the pairs still to ask', () => {
    expect(view(globalCruxGraph([solar, heat, grid]))).toMatchObject({
      cross: { checked: 0, confirmed: 0, unchecked: 2 },
      merges: [
        ['solar/t2', 'solar/t1', 'confirmed', 0.9, 'It holds.'],
        ['heat/t1', 'solar/t1', 'wording', 0.71, 'the questions share 71% of their keywords (not yet checked by a model)'],
      ],
    });
  });

  it('takes a confirmed duplicate and a confirmed dependency across debates, and drops a wording merge the model turned down', () => {
    const confirmed = globalCruxGraph(
      [solar, heat, grid],
      [
        answered('solar/t1', 'heat/t1', 'DUPLICATE', 'CONFIRMED'),
        // grid/t1 is the deeper crux: solar's GRID rests on it.
        answered('solar/t3', 'grid/t1', 'SUPPORTS', 'CONFIRMED', { from: 'grid/t1', to: 'solar/t3', confidence: 0.8512 }),
      ],
    );
    expect(view(confirmed)).toEqual({
      cross: { checked: 2, confirmed: 2, unchecked: 0 },
      nodes: [
        ['solar/t1', ['solar/t1', 'solar/t2', 'heat/t1'], false, 0],
        // GRID rests on LEAVE now: no longer a root; LEAVE is, with both below it.
        ['solar/t3', ['solar/t3'], false, 1],
        ['grid/t1', ['grid/t1'], true, 2],
      ],
      merges: [
        ['solar/t2', 'solar/t1', 'confirmed', 0.9, 'It holds.'],
        ['heat/t1', 'solar/t1', 'confirmed', 0.9, 'the second call on solar/t1 and heat/t1'],
      ],
      edges: [
        ['ENTAILS', 'solar/t3', 'solar/t1', 0.85, ['solar']],
        ['SUPPORTS', 'grid/t1', 'solar/t3', 0.85, ['solar', 'grid']],
      ],
    });

    const turnedDown = globalCruxGraph(
      [solar, heat, grid],
      [
        answered('solar/t1', 'heat/t1', 'DUPLICATE', 'REJECTED'),
        answered('solar/t3', 'grid/t1', 'SUPPORTS', 'DISMISSED', { confidence: 0.6 }),
      ],
    );
    expect(view(turnedDown)).toMatchObject({
      cross: { checked: 2, confirmed: 0, unchecked: 0 },
      nodes: [
        ['solar/t1', ['solar/t1', 'solar/t2'], false, 0],
        ['solar/t3', ['solar/t3'], true, 1],
        ['heat/t1', ['heat/t1'], false, 0],
        ['grid/t1', ['grid/t1'], false, 0],
      ],
      merges: [['solar/t2', 'solar/t1', 'confirmed', 0.9, 'It holds.']],
      edges: [['ENTAILS', 'solar/t3', 'solar/t1', 0.85, ['solar']]],
    });
  });

  it('keeps two cruxes from each resting on the other: the dependency confirmed first stands', () => {
    // heat/t1 joins solar/t1's node by wording; a confirmed "solar/t3 rests on heat/t1" would make
    // that node and solar/t3 rest on each other (solar's own ENTAILS says solar/t1 rests on solar/t3).
    const graph = globalCruxGraph(
      [solar, heat],
      [answered('solar/t3', 'heat/t1', 'SUPPORTS', 'CONFIRMED', { from: 'heat/t1', to: 'solar/t3' })],
    );
    expect([graph.crossDebate, graph.edges.map((e) => [e.kind, e.from, e.to]), graph.roots]).toEqual([
      { checked: 1, confirmed: 1, unchecked: 1 },
      [['ENTAILS', 'solar/t3', 'solar/t1']],
      ['solar/t3'],
    ]);
  });

  it('leaves out an answer about a crux that asks something else now, and asks about the pair again', () => {
    const reworded = answered('solar/t1', 'heat/t1', 'DUPLICATE', 'REJECTED', {
      questions: [TARIFF, 'Will the tariff in the region rise?'],
    });
    expect(view(globalCruxGraph([solar, heat, grid], [reworded]))).toMatchObject({
      cross: { checked: 0, confirmed: 0, unchecked: 2 },
      merges: [
        ['solar/t2', 'solar/t1', 'confirmed', 0.9, 'It holds.'],
        ['heat/t1', 'solar/t1', 'wording', 0.71, 'the questions share 71% of their keywords (not yet checked by a model)'],
      ],
    });
  });
});
