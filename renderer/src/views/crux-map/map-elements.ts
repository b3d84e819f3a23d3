import type { CruxMap, CruxNode } from '../../../../core/contract';

/** A graph node or edge, as cytoscape takes it. */
export interface Element {
  group: 'nodes' | 'edges';
  data: Record<string, string | number | boolean | null>;
}

/** Past this many nodes the map is placed by `cheapLayout` (preset) instead of fcose. */
export const LARGE_MAP = 300;

export function agentNodeId(agent: string): string {
  return `agent:${agent}`;
}

/**
 * Shown in a node: the question, cut short only when long (the full text shows on hover, on
 * selection and in the side panel). Binary questions run to about 100 characters.
 */
export function shortLabel(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** What an agent–crux line says: the side and the confidence the agent gave it. */
export function sideLabel(side: string, confidence: number | null): string {
  const word = side === 'YES' || side === 'NO' ? side : 'unsure';
  return confidence === null ? word : `${word} ${Math.round(confidence * 100)}%`;
}

/** What a crux–crux edge says. */
export const EDGE_WORDS = { dependency: 'rests on', contradiction: 'contradicts' } as const;

export type Lean = 'YES' | 'NO' | 'UNCERTAIN';

/**
 * The side an agent stands on in the map: its side on the primary crux when it took one there,
 * else the side it took more often (a tie, or no side at all, is UNCERTAIN). The layout puts YES
 * on the left, NO on the right, the rest below the cruxes.
 */
export function leanOf(map: CruxMap, agent: string): Lean {
  const primary = map.cruxes.find((c) => c.primary)?.positions.find((p) => p.agent === agent);
  if (primary && (primary.side === 'YES' || primary.side === 'NO')) return primary.side;
  let yes = 0;
  let no = 0;
  for (const c of map.cruxes) {
    for (const p of c.positions) {
      if (p.agent !== agent) continue;
      if (p.side === 'YES') yes++;
      else if (p.side === 'NO') no++;
    }
  }
  return yes > no ? 'YES' : no > yes ? 'NO' : 'UNCERTAIN';
}

/** Cruxes in the order the middle column stacks them: the primary, then crystallized ones by DCG, then the rest. */
function cruxOrder(map: CruxMap): CruxNode[] {
  const rank = (c: CruxNode) => (c.primary ? 0 : c.crystallized ? 1 : c.kind === 'crux' ? 2 : 3);
  return [...map.cruxes].sort((a, b) => rank(a) - rank(b) || (b.dcg ?? -1) - (a.dcg ?? -1));
}

/**
 * Positions by side, in a box the size of the canvas (so that fitting it fills the canvas rather
 * than floating a small graph in the middle): the cruxes stacked in the middle column (alternating
 * a little left and right when there are several, so their labels do not meet), the agents who
 * lean YES in a column on the left, those who lean NO on the right, each column ordered by the
 * height of the cruxes its agents are tied to (fewer crossings), and the undecided in a row below.
 */
export function sidesLayout(
  map: CruxMap,
  box: { width: number; height: number },
): Record<string, { x: number; y: number }> {
  const width = Math.max(520, box.width);
  const height = Math.max(360, box.height);
  const positions: Record<string, { x: number; y: number }> = {};
  const cruxes = cruxOrder(map);
  const undecided = map.agents.filter((a) => leanOf(map, a.id) === 'UNCERTAIN');
  // The cruxes take the height, less a band at the bottom for the undecided agents, if any.
  const bottom = undecided.length > 0 ? height * 0.8 : height;
  const stagger = cruxes.length > 2 ? width * 0.07 : 0;
  cruxes.forEach((c, i) => {
    positions[c.id] = {
      x: width / 2 + (i % 2 === 0 ? -stagger : stagger),
      y: (bottom * (i + 1)) / (cruxes.length + 1),
    };
  });
  // An agent's height: the mean height of the cruxes it took a side on (the middle when none).
  const heightOf = (agent: string) => {
    const ys = map.cruxes
      .filter((c) => c.positions.some((p) => p.agent === agent))
      .map((c) => positions[c.id]?.y ?? bottom / 2);
    return ys.length === 0 ? bottom / 2 : ys.reduce((a, b) => a + b, 0) / ys.length;
  };
  const column = (lean: Lean, x: number) => {
    const agents = map.agents
      .filter((a) => leanOf(map, a.id) === lean)
      .sort((a, b) => heightOf(a.id) - heightOf(b.id) || map.agents.indexOf(a) - map.agents.indexOf(b));
    agents.forEach((a, i) => {
      positions[agentNodeId(a.id)] = { x, y: (bottom * (i + 1)) / (agents.length + 1) };
    });
  };
  column('YES', width * 0.14);
  column('NO', width * 0.86);
  undecided.forEach((a, i) => {
    positions[agentNodeId(a.id)] = {
      x: width * 0.2 + (width * 0.6 * (i + 1)) / (undecided.length + 1),
      y: height * 0.92,
    };
  });
  return positions;
}

/** The crux's look: primary, validated, crystallized but not validated, open, or a deeper candidate. */
export function cruxClass(c: CruxNode): string {
  if (c.kind === 'candidate') return 'candidate';
  if (c.primary) return 'primary';
  if (c.validated) return 'validated';
  if (c.crystallized) return 'unvalidated';
  return 'open';
}

function sideEdge(agent: string, crux: string, side: string, confidence: number | null): Element {
  return {
    group: 'edges',
    data: {
      id: `side:${agent}>${crux}`,
      source: agentNodeId(agent),
      target: crux,
      type: 'side',
      side,
      label: sideLabel(side, confidence),
    },
  };
}

/**
 * The edges from agents to the cruxes they took a side on that touch one node (a crux or an
 * agent): what a large map draws for the selected node only.
 */
export function sideEdgesOf(map: CruxMap, nodeId: string): Element[] {
  return map.cruxes.flatMap((c) =>
    c.positions
      .filter((p) => c.id === nodeId || agentNodeId(p.agent) === nodeId)
      .map((p) => sideEdge(p.agent, c.id, p.side, p.confidence)),
  );
}

/**
 * The map's graph: a node per crux (sized by DCG; `label` its question, cut only when long, `full`
 * all of it), a node per agent (`persona` for its colour, `lean` for the side of the layout it
 * stands on), an edge from each agent to each crux it took a side on, labelled with the side and
 * confidence (unless `sides` is false: a large map draws them for the selected node only, see
 * CruxGraph), and the dependency and contradiction edges, labelled in words.
 */
export function elementsOf(map: CruxMap, sides = true): Element[] {
  const out: Element[] = [];
  for (const agent of map.agents) {
    out.push({
      group: 'nodes',
      data: {
        id: agentNodeId(agent.id),
        label: agent.name,
        full: agent.name,
        type: 'agent',
        persona: agent.persona ?? agent.id,
        lean: leanOf(map, agent.id),
      },
    });
  }
  for (const c of map.cruxes) {
    out.push({
      group: 'nodes',
      data: {
        id: c.id,
        label: shortLabel(c.question),
        full: c.question,
        type: 'crux',
        look: cruxClass(c),
        size: Math.round(28 + 52 * Math.max(0, Math.min(1, c.dcg ?? 0))),
      },
    });
    if (sides) for (const p of c.positions) out.push(sideEdge(p.agent, c.id, p.side, p.confidence));
  }
  map.edges.forEach((e, i) => {
    out.push({
      group: 'edges',
      data: { id: `${e.kind}:${i}`, source: e.from, target: e.to, type: e.kind, label: EDGE_WORDS[e.kind] },
    });
  });
  return out;
}

/**
 * Positions for a large map without running a force layout: cruxes on a sunflower spiral (the
 * most disputed, by DCG, in the middle) and agents on a ring around them. Linear in the number of
 * nodes, so 500 nodes are placed in well under a millisecond and the page never stalls.
 */
export function cheapLayout(map: CruxMap): Record<string, { x: number; y: number }> {
  const positions: Record<string, { x: number; y: number }> = {};
  const cruxes = [...map.cruxes].sort((a, b) => (b.dcg ?? -1) - (a.dcg ?? -1));
  const step = 46;
  const golden = Math.PI * (3 - Math.sqrt(5));
  cruxes.forEach((c, i) => {
    const r = step * Math.sqrt(i + 0.5);
    positions[c.id] = { x: r * Math.cos(i * golden), y: r * Math.sin(i * golden) };
  });
  const outer = step * Math.sqrt(cruxes.length + 1) + 120;
  map.agents.forEach((a, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, map.agents.length);
    positions[agentNodeId(a.id)] = { x: outer * Math.cos(angle), y: outer * Math.sin(angle) };
  });
  return positions;
}

/**
 * A made-up map of `nodes` nodes for timing the layout (the `#/crux-map/__bench?nodes=N` route):
 * 12 agents, the rest cruxes, each agent on about a third of them, and a dependency chain and a
 * few contradictions so the graph has the shape of a real one.
 */
export function benchMap(nodes: number): CruxMap {
  const agentCount = Math.min(12, Math.max(2, Math.floor(nodes / 10)));
  const agents = Array.from({ length: agentCount }, (_, i) => ({
    id: `a${i + 1}`,
    name: `Agent ${i + 1}`,
    persona: null,
    coalition: i % 3 === 2 ? null : i % 2,
  }));
  const sides = ['YES', 'NO', 'UNCERTAIN'] as const;
  const cruxes: CruxNode[] = Array.from({ length: Math.max(1, nodes - agentCount) }, (_, i) => ({
    id: `crux:t${i + 1}`,
    thread: `t${i + 1}`,
    kind: 'crux',
    question: `Will benchmark question ${i + 1} resolve YES by 2030?`,
    threadStatus: 'CONVERGED',
    crystallized: i % 4 !== 3,
    validated: i % 3 === 0,
    primary: i === 0,
    dcg: ((i * 37) % 100) / 100,
    validationFailures: [],
    dominantHorizon: '5y',
    positions: agents
      .filter((_, a) => (a + i) % 3 === 0)
      .map((a, k) => ({
        agent: a.id,
        side: sides[(i + k) % 3] ?? 'YES',
        confidence: 0.7,
        statement: null,
        falsifier: null,
        wouldFlip: true,
      })),
    resolutionCriteria: ['A published figure', 'An independent audit'],
    supporting: [],
    history: [],
  }));
  const edges = cruxes
    .slice(1)
    .flatMap((c, i) => [
      ...(i % 5 === 0
        ? [{ kind: 'dependency' as const, from: c.id, to: cruxes[Math.floor(i / 2)]?.id ?? c.id, reason: 'bench' }]
        : []),
      ...(i % 17 === 0
        ? [{ kind: 'contradiction' as const, from: c.id, to: cruxes[i]?.id ?? c.id, reason: 'bench' }]
        : []),
    ]);
  return {
    debateId: '__bench',
    topic: `Layout benchmark: ${nodes} nodes`,
    ideaSlug: null,
    status: 'completed',
    agents,
    coalitions: [
      { label: 'Coalition 1', members: agents.filter((a) => a.coalition === 0).map((a) => a.id), positions: {} },
      { label: 'Coalition 2', members: agents.filter((a) => a.coalition === 1).map((a) => a.id), positions: {} },
    ],
    cruxes,
    edges,
    layout: null,
  };
}
