import type { ComparisonView, EvaluationDetail } from '../../contract';
import { getIdea } from '../sqlite/index-sql';
import { UserError, type Workspace } from '../workspace/workspace';

/** A crux as the comparison needs it: which idea's debate reached it, its question, and its node. */
export interface CruxOfIdea {
  ideaSlug: string | null;
  question: string;
  crystallized: boolean;
  /**
   * Its node in the workspace's global crux graph (core/crux/global-graph.ts): the cruxes of
   * different debates that the graph holds to be one question (a duplicate the debate confirmed, or
   * questions sharing more than half their keywords) have the same node. Null: not in the graph.
   */
  node: string | null;
}

/** What a comparison reads: the ideas' current evaluations and every debate's cruxes. */
export interface ComparisonSources {
  /** The idea's current evaluation in full, or null when it has none. */
  currentEvaluation(slug: string): EvaluationDetail | null;
  cruxes(): CruxOfIdea[] | Promise<CruxOfIdea[]>;
}

/**
 * What makes two cruxes one: the graph's node; for a crux outside the graph, its words (case,
 * spacing and a closing question mark aside).
 */
function cruxKey(crux: CruxOfIdea): string {
  if (crux.node !== null) return `node:${crux.node}`;
  return crux.question
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[?？]+$/, '')
    .trim();
}

/**
 * Two to four ideas side by side, from their current evaluations. An unknown idea is an error naming
 * it; an idea without an evaluation is shown as not evaluated while at least two have one, and an
 * error naming the ones without otherwise (there is nothing to compare).
 */
export async function compareIdeas(
  ws: Workspace,
  sources: ComparisonSources,
  slugs: string[],
): Promise<ComparisonView> {
  const unknown = slugs.filter((slug) => !getIdea(ws.db, slug));
  if (unknown.length > 0) {
    throw new UserError(`no idea ${unknown.map((s) => `"${s}"`).join(', ')} (see: npm run cli -- list)`);
  }
  const evaluations = slugs.map((slug) => sources.currentEvaluation(slug));
  const evaluated = evaluations.filter((e) => e !== null).length;
  if (evaluated < 2) {
    const missing = slugs.filter((_, i) => evaluations[i] === null);
    throw new UserError(
      `${missing.map((s) => `"${s}"`).join(', ')} ${missing.length === 1 ? 'has' : 'have'} no evaluation, and a comparison needs at least two evaluated ideas (start one: npm run cli -- evaluate ${missing[0]})`,
    );
  }

  const bySlug = new Map<string, Map<string, string>>();
  for (const crux of await sources.cruxes()) {
    if (!crux.crystallized || crux.ideaSlug === null || !slugs.includes(crux.ideaSlug)) continue;
    const questions = bySlug.get(crux.ideaSlug) ?? new Map<string, string>();
    const key = cruxKey(crux);
    if (!questions.has(key)) questions.set(key, crux.question);
    bySlug.set(crux.ideaSlug, questions);
  }
  const shared = new Map<string, { question: string; slugs: string[] }>();
  for (const slug of slugs) {
    for (const [key, question] of bySlug.get(slug) ?? []) {
      const entry = shared.get(key) ?? { question, slugs: [] };
      entry.slugs.push(slug);
      shared.set(key, entry);
    }
  }

  const { categories, criteria } = ws.taxonomy;
  return {
    categories: categories.map((c) => ({ id: c.id, name: c.name, weight: c.weight })),
    criteria: criteria.map((c) => ({ id: c.id, name: c.name, category: c.category })),
    ideas: slugs.map((slug, i) => {
      const idea = getIdea(ws.db, slug);
      const e = evaluations[i] ?? null;
      const categoryScore = new Map((e?.categories ?? []).map((c) => [c.id, c.score]));
      const criterionScore = new Map((e?.criteria ?? []).map((c) => [c.id, c.score]));
      return {
        slug,
        title: idea?.title ?? slug,
        stage: idea?.stage ?? '',
        evaluationId: e?.id ?? null,
        overallScore: e?.overallScore ?? null,
        categories: Object.fromEntries(categories.map((c) => [c.id, categoryScore.get(c.id) ?? null])),
        criteria: Object.fromEntries(criteria.map((c) => [c.id, criterionScore.get(c.id) ?? null])),
        confidence: e?.confidence ?? null,
        recommendation: e?.recommendation ?? null,
        strengths: e?.narrative?.keyStrengths ?? [],
        weaknesses: e?.narrative?.keyWeaknesses ?? [],
        stale: e?.stale ?? false,
        staleReasons: e?.staleReasons ?? [],
        evaluatedAt: e?.completedAt ?? null,
        cruxes: [...(bySlug.get(slug)?.values() ?? [])],
      };
    }),
    sharedCruxes: [...shared.values()].filter((s) => s.slugs.length >= 2),
  };
}
