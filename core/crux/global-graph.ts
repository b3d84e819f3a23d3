import { z } from 'zod';
import {
  byAge,
  type CrossRelation,
  crossCandidates,
  currentRelations,
  SAME_QUESTION,
  standingCruxes,
  threadsWithCrux,
} from './cross-debate';
import { jaccard, keywords } from './keywords';
import type { CruxRelation } from './record-schemas';
import { count } from './schema-parts';
import type { CruxState, ThreadState } from './state';
import { CRUX_RELATIONS, THREAD_STATUSES } from './vocabulary';

// The global crux graph (seed 000, level 3): every crystallized crux of every debate of a workspace
// in one graph, a fold over the debates' states and nothing else (no call, no index). Within a
// debate, duplicates and dependencies are what its cross-thread analysis confirmed with a second call
// (./relations.ts). Across debates, the same two calls decide (./cross-debate.ts, answers kept in the
// workspace): a duplicate the second call confirmed is one node, a dependency it confirmed an edge.
// Until a model has looked at a pair, two cruxes whose questions are the same by the spawn gate's
// measure (keyword Jaccard above 0.5) are one node all the same, and the merge says what it rests
// on (`via: 'wording'`, its confidence that similarity); a pair the calls turned down is not merged
// on its words. From the graph: root cruxes (others rest on them, they rest on none), cruxes shared
// by several ideas, and the questions most worth debating next.

export { SAME_QUESTION } from './cross-debate';
/** How many recommended questions the graph offers. */
export const RECOMMENDED = 5;

const split = z.object({ yes: count, no: count, uncertain: count });
const DEPENDENCIES = CRUX_RELATIONS.filter((r) => r !== 'DUPLICATE' && r !== 'NONE') as [
  'ENTAILS',
  'SUPPORTS',
  'CONTRADICTS',
];

export const globalCruxMemberSchema = z.object({
  debateId: z.string(),
  thread: z.string(),
  ideaSlug: z.string().nullable(),
  question: z.string(),
  status: z.enum(THREAD_STATUSES),
  /** The thread of the same debate it was merged into, for a confirmed duplicate. */
  mergedInto: z.string().nullable(),
  dcg: z.number(),
  validated: z.boolean(),
  primary: z.boolean(),
  split,
});

export const globalCruxNodeSchema = z.object({
  /** `<debateId>/<thread>` of its first crux. */
  id: z.string(),
  question: z.string(),
  members: z.array(globalCruxMemberSchema),
  /** The ideas it was debated on (a debate on a free topic counts as none). */
  ideas: z.array(z.string()),
  debates: z.array(z.string()),
  /** Debated on two or more ideas. */
  shared: z.boolean(),
  /** Positions over its members, merged duplicates left out (they are the same agents again). */
  split,
  dcg: z.number(),
  validated: z.boolean(),
  root: z.boolean(),
  /** Cruxes that rest on it, directly or not. */
  downstream: count,
});

export const globalCruxMergeSchema = z.object({
  node: z.string(),
  /** The crux that was merged and the one it joined, each `<debateId>/<thread>`. */
  from: z.string(),
  into: z.string(),
  via: z.enum(['confirmed', 'wording']),
  confidence: z.number(),
  reason: z.string(),
});

export const globalCruxEdgeSchema = z.object({
  kind: z.enum(DEPENDENCIES),
  /** The deeper crux's node (the one the other rests on); either for CONTRADICTS. */
  from: z.string(),
  to: z.string(),
  confidence: z.number(),
  sketch: z.string(),
  /** What the second call said. */
  note: z.string(),
  debates: z.array(z.string()),
});

export const recommendedQuestionSchema = z.object({
  question: z.string(),
  reason: z.string(),
  /** The node it comes from, or null for a deeper crux proposed and never debated. */
  node: z.string().nullable(),
});

export const globalCruxGraphSchema = z.object({
  /** The cross-debate analysis: pairs answered by a model (and how many it confirmed), pairs still to ask. */
  crossDebate: z.object({ checked: count, confirmed: count, unchecked: count }),
  debates: z.array(
    z.object({ id: z.string(), topic: z.string(), ideaSlug: z.string().nullable(), createdAt: z.string(), cruxes: count }),
  ),
  nodes: z.array(globalCruxNodeSchema),
  merges: z.array(globalCruxMergeSchema),
  edges: z.array(globalCruxEdgeSchema),
  roots: z.array(z.string()),
  recommended: z.array(recommendedQuestionSchema),
});
export type GlobalCruxGraph = z.infer<typeof globalCruxGraphSchema>;
type Member = z.infer<typeof globalCruxMemberSchema>;
type Split = z.infer<typeof split>;

/** One debate as the graph reads it: its header's words and its folded state. */
export interface GraphDebate {
  id: string;
  topic: string;
  ideaSlug: string | null;
  createdAt: string;
  state: Pick<CruxState, 'threads' | 'crystallized' | 'primaryCrux' | 'relations'>;
}

const key = (debate: string, thread: string) => `${debate}/${thread}`;
const round2 = (v: number) => Math.round(v * 100) / 100;

function splitOf(thread: ThreadState): Split {
  const sides = Object.values(thread.crux?.positions ?? {}).map((p) => p.side);
  return {
    yes: sides.filter((s) => s === 'YES').length,
    no: sides.filter((s) => s === 'NO').length,
    uncertain: sides.filter((s) => s === 'UNCERTAIN').length,
  };
}

/** Union-find over member keys; the root is always the earliest member, so a node's id is stable. */
class Groups {
  private readonly parent = new Map<string, string>();
  constructor(private readonly order: ReadonlyMap<string, number>) {}
  find(k: string): string {
    const p = this.parent.get(k) ?? k;
    if (p === k) return k;
    const root = this.find(p);
    this.parent.set(k, root);
    return root;
  }
  join(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    const [first, second] = (this.order.get(ra) ?? 0) <= (this.order.get(rb) ?? 0) ? [ra, rb] : [rb, ra];
    this.parent.set(second, first);
  }
}

/**
 * The graph of `input`'s debates. `crossRelations` are the answers of the cross-debate analysis
 * (those of cruxes since re-extracted or gone are left out here).
 */
export function globalCruxGraph(input: readonly GraphDebate[], crossRelations: readonly CrossRelation[] = []): GlobalCruxGraph {
  // Oldest debate first; within one, its cruxes in crystallization order, merged ones after.
  const debates = byAge(input);
  const cross = currentRelations(standingCruxes(debates), crossRelations);
  const members: Member[] = [];
  for (const d of debates) {
    for (const t of threadsWithCrux(d.state)) {
      const crux = t.crux as NonNullable<ThreadState['crux']>;
      members.push({
        debateId: d.id,
        thread: t.id,
        ideaSlug: d.ideaSlug,
        question: crux.question,
        status: t.status,
        mergedInto: t.mergedInto ?? null,
        dcg: round2(crux.dcg.score),
        validated: crux.validated,
        primary: d.state.primaryCrux === t.id,
        split: splitOf(t),
      });
    }
  }
  const order = new Map(members.map((m, i) => [key(m.debateId, m.thread), i]));
  const groups = new Groups(order);
  const merges: Omit<z.infer<typeof globalCruxMergeSchema>, 'node'>[] = [];

  // Within a debate: what its second call confirmed.
  for (const d of debates) {
    for (const r of d.state.relations) {
      if (r.relation !== 'DUPLICATE' || r.status !== 'CONFIRMED') continue;
      const from = key(d.id, r.b);
      const into = key(d.id, r.a);
      if (!order.has(from) || !order.has(into)) continue;
      groups.join(into, from);
      merges.push({ from, into, via: 'confirmed', confidence: round2(r.confidence), reason: r.note ?? r.sketch });
    }
  }
  // Across debates: what the model's second call confirmed…
  for (const r of cross) {
    if (r.relation !== 'DUPLICATE' || r.status !== 'CONFIRMED' || groups.find(r.a) === groups.find(r.b)) continue;
    groups.join(r.a, r.b);
    merges.push({ from: r.b, into: r.a, via: 'confirmed', confidence: round2(r.confidence), reason: r.note ?? r.sketch });
  }
  // …then, for pairs no model has answered, the same question in the words of the spawn gate.
  const answered = new Set(cross.map((r) => `${r.a}|${r.b}`));
  const kept = members.filter((m) => m.mergedInto === null);
  const words = new Map(kept.map((m) => [key(m.debateId, m.thread), new Set(keywords(m.question))]));
  kept.forEach((b, j) => {
    for (const a of kept.slice(0, j)) {
      if (a.debateId === b.debateId) continue;
      const ka = key(a.debateId, a.thread);
      const kb = key(b.debateId, b.thread);
      if (answered.has(`${ka}|${kb}`)) continue;
      const similarity = jaccard(words.get(ka) ?? [], words.get(kb) ?? []);
      if (similarity <= SAME_QUESTION || groups.find(ka) === groups.find(kb)) continue;
      groups.join(ka, kb);
      merges.push({
        from: kb,
        into: ka,
        via: 'wording',
        confidence: round2(similarity),
        reason: `the questions share ${Math.round(similarity * 100)}% of their keywords (not yet checked by a model)`,
      });
    }
  });

  // Nodes, in the order of their first member.
  const byNode = new Map<string, Member[]>();
  for (const m of members) {
    const root = groups.find(key(m.debateId, m.thread));
    byNode.set(root, [...(byNode.get(root) ?? []), m]);
  }

  // Edges: confirmed dependencies, between nodes, one per kind and direction; within a debate, then
  // across two (whose edge names both).
  const edges: z.infer<typeof globalCruxEdgeSchema>[] = [];
  const addEdge = (r: CruxRelation, fromKey: string, toKey: string, found: readonly string[]) => {
    if (r.status !== 'CONFIRMED' || r.relation === 'DUPLICATE' || r.relation === 'NONE') return;
    if (!order.has(fromKey) || !order.has(toKey)) return;
    const from = groups.find(fromKey);
    const to = groups.find(toKey);
    if (from === to) return;
    // Two cruxes cannot each rest on the other: the first dependency confirmed (within a debate
    // before across) stands, and one the other way round between the same nodes is left out.
    if (r.relation !== 'CONTRADICTS' && edges.some((e) => e.kind !== 'CONTRADICTS' && e.from === to && e.to === from)) return;
    const same = edges.find((e) => e.kind === r.relation && e.from === from && e.to === to);
    if (same) {
      for (const d of found) if (!same.debates.includes(d)) same.debates.push(d);
      if (r.confidence > same.confidence)
        Object.assign(same, { confidence: round2(r.confidence), sketch: r.sketch, note: r.note ?? '' });
      return;
    }
    edges.push({ kind: r.relation, from, to, confidence: round2(r.confidence), sketch: r.sketch, note: r.note ?? '', debates: [...found] });
  };
  for (const d of debates) {
    for (const r of d.state.relations as CruxRelation[]) addEdge(r, key(d.id, r.from), key(d.id, r.to), [d.id]);
  }
  const debateOf = (k: string) => members.find((m) => key(m.debateId, m.thread) === k)?.debateId ?? k;
  for (const r of cross) addEdge(r, r.from, r.to, [debateOf(r.a), debateOf(r.b)]);

  // Roots: others rest on them (ENTAILS, SUPPORTS) and they rest on none.
  const rests = edges.filter((e) => e.kind !== 'CONTRADICTS');
  const downstream = (node: string): number => {
    const seen = new Set<string>([node]);
    const queue = [node];
    while (queue.length > 0) {
      const at = queue.shift() as string;
      for (const e of rests) {
        if (e.from === at && !seen.has(e.to)) {
          seen.add(e.to);
          queue.push(e.to);
        }
      }
    }
    return seen.size - 1;
  };
  const nodes = [...byNode.entries()].map(([id, list]) => {
    const first = list[0] as Member;
    const ideas = [...new Set(list.flatMap((m) => (m.ideaSlug ? [m.ideaSlug] : [])))];
    const counted = list.filter((m) => m.mergedInto === null);
    const isRoot = rests.some((e) => e.from === id) && !rests.some((e) => e.to === id);
    return {
      id,
      question: first.question,
      members: list,
      ideas,
      debates: [...new Set(list.map((m) => m.debateId))],
      shared: ideas.length >= 2,
      split: {
        yes: counted.reduce((n, m) => n + m.split.yes, 0),
        no: counted.reduce((n, m) => n + m.split.no, 0),
        uncertain: counted.reduce((n, m) => n + m.split.uncertain, 0),
      },
      dcg: Math.max(...list.map((m) => m.dcg)),
      validated: list.some((m) => m.validated),
      root: isRoot,
      downstream: downstream(id),
    };
  });
  const roots = nodes.filter((n) => n.root).map((n) => n.id);

  return {
    crossDebate: {
      checked: cross.length,
      confirmed: cross.filter((r) => r.status === 'CONFIRMED').length,
      unchecked: crossCandidates(debates, cross).length,
    },
    debates: debates.map((d) => ({
      id: d.id,
      topic: d.topic,
      ideaSlug: d.ideaSlug,
      createdAt: d.createdAt,
      cruxes: members.filter((m) => m.debateId === d.id).length,
    })),
    nodes,
    merges: merges.map((m) => ({ node: groups.find(m.into), ...m })),
    edges,
    roots,
    recommended: recommend(nodes, debates),
  };
}

type Node = GlobalCruxGraph['nodes'][number];

/**
 * What to debate next, best first: a root crux still split (answering it settles or moves the most
 * others), then a crux several ideas share and still split, then a crux whose crystallizer asked
 * for clarification, then a deeper crux an agent proposed and no debate took up.
 */
function recommend(nodes: readonly Node[], debates: readonly GraphDebate[]): GlobalCruxGraph['recommended'] {
  const out: GlobalCruxGraph['recommended'] = [];
  const add = (question: string, reason: string, node: string | null) => {
    if (out.length < RECOMMENDED && (node === null || !out.some((r) => r.node === node)))
      out.push({ question, reason, node });
  };
  const splitText = (n: Node) => `still split ${n.split.yes} YES / ${n.split.no} NO`;
  const isSplit = (n: Node) => n.split.yes > 0 && n.split.no > 0;
  const byWeight = (a: Node, b: Node) => b.downstream - a.downstream || b.dcg - a.dcg;
  for (const n of nodes.filter((x) => x.root && isSplit(x)).sort(byWeight))
    add(n.question, `a root crux: ${n.downstream} other crux${n.downstream === 1 ? ' rests' : 'es rest'} on it; ${splitText(n)}`, n.id);
  for (const n of nodes.filter((x) => x.shared && isSplit(x)).sort(byWeight))
    add(n.question, `shared by ${n.ideas.length} ideas (${n.ideas.join(', ')}); ${splitText(n)}`, n.id);
  for (const n of nodes.filter((x) => x.members.some((m) => m.mergedInto === null && !m.validated)))
    add(n.question, 'not yet a clean crux (not validated): sharpen the question or its criteria and debate it again', n.id);
  const asked = nodes.map((n) => new Set(keywords(n.question)));
  for (const d of debates) {
    for (const t of d.state.threads) {
      for (const c of t.candidateCruxes) {
        const words = new Set(keywords(c.question));
        if (asked.some((a) => jaccard(a, words) > SAME_QUESTION)) continue;
        asked.push(words);
        add(c.question, `proposed by ${c.by} as a deeper crux in ${d.topic} (${t.id}, ${c.messageId}) and never debated`, null);
      }
    }
  }
  return out;
}
