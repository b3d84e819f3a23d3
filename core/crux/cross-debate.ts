import { z } from 'zod';
import type { GraphDebate } from './global-graph';
import { jaccard, keywords } from './keywords';
import { cruxRelationSchema } from './record-schemas';
import { relationDismissal } from './relations';
import { count } from './schema-parts';
import type { ThreadState } from './state';
import type { CruxRelationKind, Side } from './vocabulary';

// The cross-debate analysis of the global crux graph (seed 000, level 3). Within a debate every pair
// of cruxes is put to a first call and, when it is sure and argued enough, to a second one
// (./relations.ts). Across debates the same two calls decide, with the same thresholds: the words are
// only the first pass that picks which pairs are worth a call (the spawn gate's measure), and a
// pair no model has looked at yet is shown as what it is, a match of wording. What the calls said is
// kept in the workspace (one record per pair, with the two questions as they were asked), so the
// graph stays a fold over files and a crux re-extracted since is looked at again.

/** Above this keyword similarity two questions are the same question by wording (the spawn gate's line). */
export const SAME_QUESTION = 0.5;
/** Cruxes of two debates sharing this many keywords or more are worth asking whether one rests on the other. */
export const CROSS_MIN_SHARED = 2;

/** One answered pair: the relation as within a debate, `a`, `b`, `from`, `to` each `<debateId>/<thread>`. */
export const crossRelationSchema = cruxRelationSchema.extend({
  /** The questions of `a` and `b` when they were asked: a crux that reads otherwise now is asked again. */
  questions: z.tuple([z.string(), z.string()]),
  /** The provider that answered (`simulated` offline). */
  provider: z.string(),
  checkedAt: z.string(),
});
export type CrossRelation = z.infer<typeof crossRelationSchema>;

/** The workspace's record of those answers (`debates/crux-relations.json`, the app's own file). */
export const crossRelationsFileSchema = z.object({
  version: z.literal(1),
  relations: z.array(crossRelationSchema),
  /** What every pass together cost. */
  usage: z.object({ llmCalls: count, costUsd: z.number().nonnegative() }),
});
export type CrossRelationsFile = z.infer<typeof crossRelationsFileSchema>;

/** A crux that stands for itself in the graph: crystallized and not merged within its own debate. */
export interface CrossCrux {
  key: string;
  debateId: string;
  thread: string;
  topic: string;
  question: string;
  positions: Record<string, Side>;
}

export interface CrossPair {
  a: CrossCrux;
  b: CrossCrux;
  /** Keyword Jaccard of the two questions, and how many keywords they share. */
  similarity: number;
  shared: number;
}

/** The first call's answer, as `relationAnswerSchema` (./live/relation-request.ts) reads it. */
export interface CrossFirstAnswer {
  relation: CruxRelationKind;
  deeper?: 'A' | 'B' | undefined;
  confidence: number;
  sketch: string;
  note?: string | undefined;
}

export const cruxKey = (debate: string, thread: string) => `${debate}/${thread}`;

/** Debates oldest first (the graph's order, and the order of `a` and `b` in a pair). */
export function byAge<T extends Pick<GraphDebate, 'createdAt' | 'id'>>(debates: readonly T[]): T[] {
  return [...debates].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** A debate's threads with a crux: in crystallization order, then the others (merged ones). */
export function threadsWithCrux(state: GraphDebate['state']): ThreadState[] {
  const withCrux = state.threads.filter((t) => t.crux !== null);
  return [
    ...state.crystallized.flatMap((id) => withCrux.filter((t) => t.id === id)),
    ...withCrux.filter((t) => !state.crystallized.includes(t.id)),
  ];
}

/** Every standing crux of the workspace, oldest debate first. */
export function standingCruxes(debates: readonly GraphDebate[]): CrossCrux[] {
  return byAge(debates).flatMap((d) =>
    threadsWithCrux(d.state)
      .filter((t) => (t.mergedInto ?? null) === null)
      .map((t) => {
        const crux = t.crux as NonNullable<ThreadState['crux']>;
        const positions: Record<string, Side> = {};
        for (const [agent, p] of Object.entries(crux.positions)) positions[agent] = p.side;
        return {
          key: cruxKey(d.id, t.id),
          debateId: d.id,
          thread: t.id,
          topic: d.topic,
          question: crux.question,
          positions,
        };
      }),
  );
}

/**
 * The answers that still hold: both cruxes still stand and still ask what they asked when the pair
 * was put to the model. A pair answered twice keeps its latest answer.
 */
export function currentRelations(cruxes: readonly CrossCrux[], records: readonly CrossRelation[]): CrossRelation[] {
  const question = new Map(cruxes.map((c) => [c.key, c.question]));
  const latest = new Map<string, CrossRelation>();
  for (const r of records) {
    if (question.get(r.a) !== r.questions[0] || question.get(r.b) !== r.questions[1]) continue;
    latest.delete(`${r.a}|${r.b}`);
    latest.set(`${r.a}|${r.b}`, r);
  }
  return [...latest.values()];
}

/**
 * The lexical first pass: pairs of cruxes of different debates whose questions are the same by
 * wording or share at least CROSS_MIN_SHARED keywords, and that no current answer covers. Most
 * similar first, then in the graph's order.
 */
export function crossCandidates(debates: readonly GraphDebate[], records: readonly CrossRelation[]): CrossPair[] {
  const cruxes = standingCruxes(debates);
  const answered = new Set(currentRelations(cruxes, records).map((r) => `${r.a}|${r.b}`));
  const words = new Map(cruxes.map((c) => [c.key, new Set(keywords(c.question))]));
  const out: CrossPair[] = [];
  cruxes.forEach((b, j) => {
    for (const a of cruxes.slice(0, j)) {
      if (a.debateId === b.debateId || answered.has(`${a.key}|${b.key}`)) continue;
      const wa = words.get(a.key) ?? new Set<string>();
      const wb = words.get(b.key) ?? new Set<string>();
      const similarity = jaccard(wa, wb);
      const shared = [...wa].filter((w) => wb.has(w)).length;
      if (similarity > SAME_QUESTION || shared >= CROSS_MIN_SHARED) out.push({ a, b, similarity, shared });
    }
  });
  // A stable sort: equal similarity keeps the graph's order.
  return out.sort((x, y) => y.similarity - x.similarity);
}

/**
 * The record of a first call's answer: PROPOSED when it passes the thresholds of the analysis
 * within a debate (a relation, confidence ≥ 0.8, a sketch of 20 characters), DISMISSED otherwise.
 */
export function firstAnswer(
  pair: CrossPair,
  answer: CrossFirstAnswer,
  meta: { provider: string; checkedAt: string },
): CrossRelation {
  const directed = answer.relation === 'ENTAILS' || answer.relation === 'SUPPORTS';
  const from = directed && answer.deeper === 'B' ? pair.b.key : pair.a.key;
  const note = relationDismissal(answer);
  return {
    a: pair.a.key,
    b: pair.b.key,
    relation: answer.relation,
    from,
    to: from === pair.a.key ? pair.b.key : pair.a.key,
    confidence: answer.confidence,
    sketch: answer.sketch,
    status: note === null ? 'PROPOSED' : 'DISMISSED',
    note,
    questions: [pair.a.question, pair.b.question],
    provider: meta.provider,
    checkedAt: meta.checkedAt,
  };
}

/** The record after the second call: only a relation it agrees with counts. */
export function secondAnswer(record: CrossRelation, check: { agrees: boolean; note: string }): CrossRelation {
  if (record.status !== 'PROPOSED')
    throw new Error(`the relation of ${record.a} and ${record.b} waits for no second call`);
  return { ...record, status: check.agrees ? 'CONFIRMED' : 'REJECTED', note: check.note };
}

/** Records of one pass added to the file's: a pair answered again replaces its old answer. */
export function withRelations(
  file: CrossRelationsFile,
  added: readonly CrossRelation[],
  usage: CrossRelationsFile['usage'],
): CrossRelationsFile {
  const again = new Set(added.map((r) => `${r.a}|${r.b}`));
  return {
    version: 1,
    relations: [...file.relations.filter((r) => !again.has(`${r.a}|${r.b}`)), ...added],
    usage: { llmCalls: file.usage.llmCalls + usage.llmCalls, costUsd: file.usage.costUsd + usage.costUsd },
  };
}

export const EMPTY_CROSS_FILE: CrossRelationsFile = { version: 1, relations: [], usage: { llmCalls: 0, costUsd: 0 } };
