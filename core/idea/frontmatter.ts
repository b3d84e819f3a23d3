import { z } from 'zod';
import type { Taxonomy } from '../taxonomy/taxonomy';
import { issuePath } from '../text/zod-issues';
import { firstHeading } from './headings';
import { RELATIONSHIP_TYPES, type Relationship } from './relationships';

/** The title when the frontmatter has none (core/idea/headings.ts). */
export { firstHeading };

/**
 * The README frontmatter as the researcher may write it. We are strict about types (a number where
 * text belongs is an error that names the field) but forgiving about absence: a README with no
 * frontmatter at all still becomes an idea, with defaults the app can fill in later.
 */
const dateLike = z.union([z.string(), z.date()], { error: 'must be a date such as 2026-01-31' });
const text = z.union([z.string(), z.number()], { error: 'must be text' }).transform((v) => String(v));

export const ideaFrontmatterSchema = z.looseObject({
  id: text.optional(),
  slug: z.string().optional(),
  title: text.optional(),
  type: z.string({ error: 'must be text' }).nullable().optional(),
  /** The seed's secondary domains (§11.7): other idea types it also belongs to, beside `type`. */
  secondaryTypes: z
    .union([z.array(z.string()), z.string(), z.null()], {
      error: 'must be a list of idea types, e.g. [research, technical]',
    })
    .optional(),
  stage: z.string({ error: 'must be text' }).optional(),
  tags: z
    .union([z.array(z.string()), z.string(), z.null()], { error: 'must be a list of tags, e.g. [energy, local]' })
    .optional(),
  summary: z.string().nullable().optional(),
  created: dateLike.nullable().optional(),
  updated: dateLike.nullable().optional(),
  relationships: z
    .array(
      z.object({
        target: z.string().min(1),
        type: z.enum(RELATIONSHIP_TYPES),
        strength: z.number().min(0).max(1).optional(),
        reason: z.string().optional(),
      }),
    )
    .nullable()
    .optional(),
});

export interface IdeaMeta {
  id: string;
  /** The folder name: the folder is the truth, a differing `slug:` field is ignored. */
  slug: string;
  title: string;
  type: string | null;
  /** Other idea types it also belongs to (the seed's secondary domains), never the primary one again. */
  secondaryTypes: string[];
  stage: string;
  tags: string[];
  summary: string;
  created: string | null;
  updated: string | null;
  relationships: Relationship[];
}

export type FrontmatterResult = { ok: true; meta: IdeaMeta } | { ok: false; problems: string[] };

export const DEFAULT_STAGE = 'SPARK';

/** `2026-03-04` for a date-only value, the full ISO string when there is a time of day. */
export function normalizeDate(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * What the search's tag column holds for an idea: its tags and its secondary types, so that an idea
 * is found by a type it also belongs to (its primary type is a filter of the library's own).
 */
export function tagText(meta: Pick<IdeaMeta, 'tags' | 'secondaryTypes'>): string {
  return [...meta.tags, ...meta.secondaryTypes].join(' ');
}

function normalizeTags(tags: string[] | string | null | undefined): string[] {
  const list = typeof tags === 'string' ? tags.split(',') : (tags ?? []);
  const out: string[] = [];
  for (const raw of list) {
    const tag = raw.trim().toLowerCase();
    if (tag !== '' && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * Validates a README's frontmatter against the schema and the taxonomy (stage and type must be known),
 * returning every problem with the field it concerns.
 */
export function readIdeaFrontmatter(
  data: unknown,
  context: { slug: string; body: string; taxonomy: Taxonomy },
): FrontmatterResult {
  const parsed = ideaFrontmatterSchema.safeParse(data ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${issuePath(issue.path) || 'frontmatter'}: ${issue.message}`),
    };
  }
  const fm = parsed.data;
  const problems: string[] = [];

  const stage = (fm.stage ?? DEFAULT_STAGE).trim().toUpperCase();
  if (!context.taxonomy.stageIds.has(stage)) {
    problems.push(`stage: unknown stage "${fm.stage}" (one of ${[...context.taxonomy.stageIds].join(', ')})`);
  }
  const type = fm.type?.trim().toLowerCase() || null;
  if (type !== null && !context.taxonomy.typeIds.has(type)) {
    problems.push(`type: unknown idea type "${fm.type}" (one of ${[...context.taxonomy.typeIds].join(', ')})`);
  }
  // Written as a list or a comma-separated line, like tags; the primary type named again is dropped.
  const secondaryTypes = normalizeTags(fm.secondaryTypes).filter((t) => t !== type);
  for (const t of secondaryTypes)
    if (!context.taxonomy.typeIds.has(t))
      problems.push(`secondaryTypes: unknown idea type "${t}" (one of ${[...context.taxonomy.typeIds].join(', ')})`);
  if (problems.length > 0) return { ok: false, problems };

  const title = fm.title?.trim() || firstHeading(context.body) || context.slug;
  return {
    ok: true,
    meta: {
      // Without an id the idea is still indexed; the folder name keeps it stable until one is written.
      id: fm.id?.trim() || `slug:${context.slug}`,
      slug: context.slug,
      title,
      type,
      secondaryTypes,
      stage,
      tags: normalizeTags(fm.tags),
      summary: fm.summary?.trim() ?? '',
      created: normalizeDate(fm.created),
      updated: normalizeDate(fm.updated),
      relationships: (fm.relationships ?? []).map((r) => ({
        target: r.target,
        type: r.type,
        strength: r.strength ?? null,
        reason: r.reason ?? null,
      })),
    },
  };
}
