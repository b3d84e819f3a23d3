import { z } from 'zod';

/** Shapes of the frontmatter of the four taxonomy files (see taxonomy/*.md for the prose). */

const upperId = z.string().regex(/^[A-Z][A-Z_]*$/, 'must be an upper-case code such as SPARK');
const kebabId = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a lower-case kebab-case id');

export const lifecycleStagesSchema = z.object({
  kind: z.literal('lifecycle-stages'),
  stages: z
    .array(
      z.object({
        id: upperId,
        name: z.string().min(1),
        phase: z.string().min(1).optional(),
        description: z.string().min(1),
        exitCriteria: z.string().optional(),
      }),
    )
    .min(1),
});

export const evaluationCriteriaSchema = z.object({
  kind: z.literal('evaluation-criteria'),
  scale: z.object({ min: z.number().int(), max: z.number().int() }),
  categories: z
    .array(
      z.object({
        id: kebabId,
        name: z.string().min(1),
        weight: z.number().positive().max(1),
        description: z.string().optional(),
        criteria: z
          .array(
            z.object({
              id: kebabId,
              name: z.string().min(1),
              description: z.string().min(1),
              scale: z.object({ low: z.string().min(1), high: z.string().min(1) }),
              critical: z.boolean().optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});

export const ideaTypesSchema = z.object({
  kind: z.literal('idea-types'),
  types: z
    .array(
      z.object({
        id: kebabId,
        name: z.string().min(1),
        description: z.string().min(1),
        focus: z.array(kebabId).optional(),
      }),
    )
    .min(1),
});

export const tagsSchema = z.object({
  kind: z.literal('tags'),
  categories: z.array(
    z.object({
      id: kebabId,
      name: z.string().min(1),
      tags: z.array(z.object({ id: kebabId, description: z.string().optional() })),
    }),
  ),
});

export type LifecycleStages = z.infer<typeof lifecycleStagesSchema>;
export type EvaluationCriteria = z.infer<typeof evaluationCriteriaSchema>;
export type IdeaTypes = z.infer<typeof ideaTypesSchema>;
export type Tags = z.infer<typeof tagsSchema>;
