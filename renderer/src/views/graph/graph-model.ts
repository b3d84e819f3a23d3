/**
 * What the graph view draws when the library is too large to draw idea by idea: ideas grouped (by
 * stage or by type) with the relationships between groups counted, one group's ideas, or one idea's
 * neighbourhood. Pure functions of the ideas and their relationships, so they are tested alone.
 */

/** Past this many ideas a drawing is a grid of overlapping labels and a layout of seconds. */
export const DRAWN_LIMIT = 300;

export interface GraphIdea {
  slug: string;
  title: string;
  stage: string;
  type: string | null;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  type: string;
  strength: number | null;
  reason: string | null;
}

export type GroupBy = 'stage' | 'type';

/** The group of a slug that names no idea of the library (a relationship to a renamed idea). */
export const MISSING_GROUP = '(missing)';
/** The group of an idea without a type. */
export const NO_TYPE = '(no type)';

export function groupOf(idea: GraphIdea | undefined, by: GroupBy): string {
  if (!idea) return MISSING_GROUP;
  return by === 'stage' ? idea.stage : (idea.type ?? NO_TYPE);
}

export interface Cluster {
  id: string;
  /** Ideas in the group. */
  size: number;
  /** Relationships between two ideas of the group. */
  inside: number;
}

export interface ClusterEdge {
  id: string;
  source: string;
  target: string;
  /** Relationships between an idea of one group and an idea of the other. */
  count: number;
}

/**
 * The groups of `slugs` (the ideas shown) and the relationships between groups, counted; a
 * relationship inside one group counts towards its `inside`. Groups come in `order` where it names
 * them (the taxonomy's order of stages), then by name.
 */
export function clusterGraph(
  slugs: readonly string[],
  edges: readonly GraphEdge[],
  bySlug: ReadonlyMap<string, GraphIdea>,
  by: GroupBy,
  order: readonly string[] = [],
): { clusters: Cluster[]; edges: ClusterEdge[] } {
  const groups = new Map<string, Cluster>();
  const group = (slug: string) => groupOf(bySlug.get(slug), by);
  for (const slug of slugs) {
    const id = group(slug);
    const cluster = groups.get(id) ?? { id, size: 0, inside: 0 };
    cluster.size++;
    groups.set(id, cluster);
  }
  const shown = new Set(slugs);
  const between = new Map<string, ClusterEdge>();
  for (const e of edges) {
    if (!shown.has(e.source) || !shown.has(e.target)) continue;
    const [a, b] = [group(e.source), group(e.target)].sort() as [string, string];
    if (a === b) {
      (groups.get(a) as Cluster).inside++;
      continue;
    }
    const id = `${a}|${b}`;
    const edge = between.get(id) ?? { id, source: a, target: b, count: 0 };
    edge.count++;
    between.set(id, edge);
  }
  const rank = (id: string) => {
    const i = order.indexOf(id);
    return i === -1 ? order.length : i;
  };
  const clusters = [...groups.values()].sort((x, y) => rank(x.id) - rank(y.id) || x.id.localeCompare(y.id));
  return { clusters, edges: [...between.values()].sort((x, y) => y.count - x.count || x.id.localeCompare(y.id)) };
}

/** How many relationships each slug has. */
function degrees(edges: readonly GraphEdge[]): Map<string, number> {
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  return degree;
}

/** At most `limit` of `slugs`, the most connected first (then by slug, so the choice is stable). */
export function mostLinked(slugs: readonly string[], edges: readonly GraphEdge[], limit: number): string[] {
  const degree = degrees(edges);
  return [...slugs].sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a.localeCompare(b)).slice(0, limit);
}

/**
 * The idea `centre` and the ideas linked to it, then those linked to them, nearest first, until
 * `limit` ideas: what one idea's place in a large library looks like.
 */
export function neighbourhood(centre: string, edges: readonly GraphEdge[], limit: number, hops = 2): string[] {
  const links = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    const list = links.get(from);
    if (list) list.push(to);
    else links.set(from, [to]);
  };
  for (const e of edges) {
    link(e.source, e.target);
    link(e.target, e.source);
  }
  const seen = new Set([centre]);
  let ring = [centre];
  for (let hop = 0; hop < hops && seen.size < limit; hop++) {
    const next: string[] = [];
    for (const slug of ring) {
      for (const other of [...(links.get(slug) ?? [])].sort()) {
        if (seen.size >= limit) break;
        if (seen.has(other)) continue;
        seen.add(other);
        next.push(other);
      }
    }
    ring = next;
  }
  return [...seen];
}

/** The relationships whose both ends are among `slugs`. */
export function edgesAmong(edges: readonly GraphEdge[], slugs: ReadonlySet<string>): GraphEdge[] {
  return edges.filter((e) => slugs.has(e.source) && slugs.has(e.target));
}
