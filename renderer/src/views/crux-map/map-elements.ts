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

/** Shown in a node: the question, cut short (the full text is in the side panel). */
function label(text: string, max = 70): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The crux's look: primary, validated, crystallized but not validated, open, or a deeper candidate. */
export function cruxClass(c: CruxNode): string {
  if (c.kind === 'candidate') return 'candidate';
  if (c.primary) return 'primary';
  if (c.validated) return 'validated';
  if (c.crystallized) return 'unvalidated';
  return 'open';
}

function sideEdge(agent: string, crux: string, side: string): Element {
  return {
    group: 'edges',
    data: { id: `side:${agent}>${crux}`, source: agentNodeId(agent), target: crux, type: 'side', side },
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
      .map((p) => sideEdge(p.agent, c.id, p.side)),
  );
}

/**
 * The map's graph: a node per crux (sized by DCG), a node per agent (coloured by coalition), an
 * edge from each agent to each crux it took a side on (unless `sides` is false: a large map draws
 * them for the selected node only, see CruxGraph), and the dependency and contradiction edges.
 */
export function elementsOf(map: CruxMap, sides = true): Element[] {
  const out: Element[] = [];
  for (const agent of map.agents) {
    out.push({
      group: 'nodes',
      data: { id: agentNodeId(agent.id), label: agent.name, type: 'agent', coalition: agent.coalition ?? -1 },
    });
  }
  for (const c of map.cruxes) {
    out.push({
      group: 'nodes',
      data: {
        id: c.id,
        label: label(c.question),
        type: 'crux',
        look: cruxClass(c),
        size: Math.round(28 + 52 * Math.max(0, Math.min(1, c.dcg ?? 0))),
      },
    });
    if (sides) for (const p of c.positions) out.push(sideEdge(p.agent, c.id, p.side));
  }
  map.edges.forEach((e, i) => {
    out.push({ group: 'edges', data: { id: `${e.kind}:${i}`, source: e.from, target: e.to, type: e.kind } });
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
