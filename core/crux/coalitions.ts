import { z } from 'zod';
import type { AgentProfile, CoalitionLabel, CruxRecord } from './state';
import type { Side } from './vocabulary';

// Coalitions: agents that keep landing on the same side across cruxes. Similarity is a weighted
// agreement over shared cruxes (weights are the crystallizer's confidence in each crux), clustered
// bottom-up with average linkage until no two clusters agree enough.

export interface CoalitionSettings {
  minCruxes: number;
  minPositions: number;
  threshold: number;
}

export interface CrystallizedCrux {
  thread: string;
  crux: CruxRecord;
}

export const coalitionSchema = z.object({
  members: z.array(z.string()),
  /** thread id → the YES/NO side every member holds on it. */
  positions: z.record(z.string(), z.enum(['YES', 'NO'])),
  label: z.string(),
});
export type Coalition = z.infer<typeof coalitionSchema>;

function agreement(a: Side, b: Side): number {
  if (a === 'UNCERTAIN' || b === 'UNCERTAIN') return 0.5;
  return a === b ? 1 : 0;
}

/** Σ w·a / Σ w over the cruxes both agents have positions on; 0 with none in common. */
export function similarity(cruxes: readonly CrystallizedCrux[], x: string, y: string): number {
  let weighted = 0;
  let weights = 0;
  for (const { crux } of cruxes) {
    const px = crux.positions[x];
    const py = crux.positions[y];
    if (!px || !py) continue;
    weighted += crux.confidence * agreement(px.side, py.side);
    weights += crux.confidence;
  }
  return weights === 0 ? 0 : weighted / weights;
}

/**
 * Average-linkage agglomerative clustering of the eligible agents. Clusters stay sorted by their
 * first member in agent order, so scanning pairs in order and keeping only strictly better ones
 * makes the earliest pair win a tie.
 */
export function clusterAgents(
  agents: readonly AgentProfile[],
  cruxes: readonly CrystallizedCrux[],
  settings: CoalitionSettings,
): string[][] {
  if (cruxes.length < settings.minCruxes) return [];
  const order = agents.map((a) => a.id);
  const eligible = order.filter(
    (id) => cruxes.filter(({ crux }) => crux.positions[id] !== undefined).length >= settings.minPositions,
  );
  let clusters: string[][] = eligible.map((id) => [id]);
  const linkage = (a: string[], b: string[]) => {
    let sum = 0;
    for (const x of a) for (const y of b) sum += similarity(cruxes, x, y);
    return sum / (a.length * b.length);
  };

  for (;;) {
    let best: { i: number; j: number; score: number } | null = null;
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const score = linkage(clusters[i] ?? [], clusters[j] ?? []);
        if (best === null || score > best.score) best = { i, j, score };
      }
    }
    if (best === null || best.score < settings.threshold) break;
    const { i, j } = best;
    const merged = [...(clusters[i] ?? []), ...(clusters[j] ?? [])].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    clusters = clusters.filter((_, k) => k !== i && k !== j);
    clusters.push(merged);
    clusters.sort((a, b) => order.indexOf(a[0] ?? '') - order.indexOf(b[0] ?? ''));
  }
  return clusters.filter((c) => c.length >= 2);
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((m) => set.has(m));
}

export function findCoalitions(
  agents: readonly AgentProfile[],
  cruxes: readonly CrystallizedCrux[],
  settings: CoalitionSettings,
  labels: readonly CoalitionLabel[],
): Coalition[] {
  return clusterAgents(agents, cruxes, settings).map((members, index) => {
    const positions: Record<string, 'YES' | 'NO'> = {};
    for (const { thread, crux } of cruxes) {
      const first = crux.positions[members[0] ?? '']?.side;
      if (first !== 'YES' && first !== 'NO') continue;
      if (members.every((m) => crux.positions[m]?.side === first)) positions[thread] = first;
    }
    // The last label given for a member set wins; unlabeled coalitions are numbered by position.
    const label = [...labels].reverse().find((l) => sameMembers(l.members, members))?.label;
    return { members, positions, label: label ?? `Coalition ${index + 1}` };
  });
}
