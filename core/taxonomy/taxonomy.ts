import type { z } from 'zod';
import { describeIssues } from '../text/zod-issues';
import {
  type EvaluationCriteria,
  evaluationCriteriaSchema,
  type IdeaTypes,
  ideaTypesSchema,
  type LifecycleStages,
  lifecycleStagesSchema,
  type Tags,
  tagsSchema,
} from './schemas';

/** The taxonomy files the app reads, by file name inside a `taxonomy/` folder. */
export const TAXONOMY_FILES = {
  stages: 'lifecycle-stages.md',
  criteria: 'evaluation-criteria.md',
  types: 'idea-types.md',
  tags: 'tags.md',
} as const;

export interface TaxonomySource {
  /** Path shown in errors, e.g. `taxonomy/tags.md` or `<workspace>/taxonomy/tags.md`. */
  file: string;
  /** Parsed YAML frontmatter. */
  data: unknown;
}

export interface Criterion {
  id: string;
  name: string;
  category: string;
  description: string;
  scale: { low: string; high: string };
  critical: boolean;
}

export interface Taxonomy {
  stages: LifecycleStages['stages'];
  stageIds: ReadonlySet<string>;
  categories: EvaluationCriteria['categories'];
  criteria: Criterion[];
  scale: EvaluationCriteria['scale'];
  types: IdeaTypes['types'];
  typeIds: ReadonlySet<string>;
  tagCategories: Tags['categories'];
  /** Controlled-vocabulary tag id → its category id. Free tags are allowed beside these. */
  tagCategory: ReadonlyMap<string, string>;
}

export class TaxonomyError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'TaxonomyError';
  }
}

function parseWith<T>(schema: z.ZodType<T>, source: TaxonomySource, problems: string[]): T | undefined {
  const result = schema.safeParse(source.data);
  if (result.success) return result.data;
  problems.push(...describeIssues(source.file, result.error));
  return undefined;
}

function duplicates(ids: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}

/**
 * Validates the four taxonomy documents and joins them into one lookup structure.
 * Every problem in every file is collected before failing, so one run shows them all.
 */
export function buildTaxonomy(sources: {
  stages: TaxonomySource;
  criteria: TaxonomySource;
  types: TaxonomySource;
  tags: TaxonomySource;
}): Taxonomy {
  const problems: string[] = [];
  const stages = parseWith(lifecycleStagesSchema, sources.stages, problems);
  const criteria = parseWith(evaluationCriteriaSchema, sources.criteria, problems);
  const types = parseWith(ideaTypesSchema, sources.types, problems);
  const tags = parseWith(tagsSchema, sources.tags, problems);

  if (stages) {
    for (const id of duplicates(stages.stages.map((s) => s.id))) {
      problems.push(`${sources.stages.file}: stages: the id ${id} appears twice`);
    }
  }
  if (criteria) {
    const total = criteria.categories.reduce((sum, c) => sum + c.weight, 0);
    // Weights are a distribution over categories; a typo here would skew every overall score.
    if (Math.abs(total - 1) > 1e-6) {
      problems.push(`${sources.criteria.file}: categories: weights add up to ${total.toFixed(4)}, they must add up to 1`);
    }
    const ids = criteria.categories.flatMap((c) => c.criteria.map((k) => k.id));
    for (const id of duplicates(ids)) problems.push(`${sources.criteria.file}: criteria: the id ${id} appears twice`);
    for (const id of duplicates(criteria.categories.map((c) => c.id))) {
      problems.push(`${sources.criteria.file}: categories: the id ${id} appears twice`);
    }
    if (criteria.scale.min >= criteria.scale.max) {
      problems.push(`${sources.criteria.file}: scale: min must be below max`);
    }
  }
  if (types && criteria) {
    const categoryIds = new Set(criteria.categories.map((c) => c.id));
    types.types.forEach((t, i) => {
      (t.focus ?? []).forEach((f, j) => {
        if (!categoryIds.has(f)) {
          problems.push(`${sources.types.file}: types[${i}].focus[${j}]: unknown category ${f}`);
        }
      });
    });
  }
  if (problems.length > 0 || !stages || !criteria || !types || !tags) throw new TaxonomyError(problems);

  const tagCategory = new Map<string, string>();
  for (const category of tags.categories) for (const tag of category.tags) tagCategory.set(tag.id, category.id);

  return {
    stages: stages.stages,
    stageIds: new Set(stages.stages.map((s) => s.id)),
    categories: criteria.categories,
    criteria: criteria.categories.flatMap((c) =>
      c.criteria.map((k) => ({
        id: k.id,
        name: k.name,
        category: c.id,
        description: k.description,
        scale: k.scale,
        critical: k.critical ?? false,
      })),
    ),
    scale: criteria.scale,
    types: types.types,
    typeIds: new Set(types.types.map((t) => t.id)),
    tagCategories: tags.categories,
    tagCategory,
  };
}
