import { z } from 'zod';
import { IDEAS_DIR } from '../idea/layout';
import { slugify } from '../idea/slug';

/**
 * The tools the council may propose, each with its arguments and its stakes. Stakes decide the
 * threshold (see `thresholds.ts`): reading is low, writing medium, what destroys or moves an idea high.
 */
export type Stakes = 'low' | 'medium' | 'high';
export const STAKES_ORDER: readonly Stakes[] = ['low', 'medium', 'high'];

/** A workspace-relative path that cannot leave the workspace or name a hidden file. */
const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.includes('\\'), 'must be a path relative to the workspace, with /')
  .refine(
    (p) => p.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !part.startsWith('.')),
    'must not hold empty, "." or ".." parts, nor hidden names',
  );
const slug = z
  .string()
  .min(1)
  .regex(/^[^/\\._][^/\\]*$/, 'must be an idea folder name (no slash, not starting with _ or .)');
/** A file inside an idea folder: effects never reach outside `ideas/<slug>/`. */
const ideaPath = relPath.refine(
  (p) => /^ideas\/[^/_][^/]*\/.+/.test(p),
  `must be a file inside an idea folder (${IDEAS_DIR}/<slug>/…)`,
);
const notePath = relPath.refine(
  (p) => /^ideas\/[^/_][^/]*\/notes\/[^/]+\.md$/.test(p),
  "must be a new .md file directly in an idea's notes/ folder (ideas/<slug>/notes/<name>.md)",
);
const readmePath = relPath.refine(
  (p) => /^ideas\/[^/_][^/]*\/README\.md$/.test(p),
  "must be an idea's README (ideas/<slug>/README.md)",
);

const tool = <T extends string, A extends z.ZodType>(name: T, args: A) =>
  z.strictObject({ tool: z.literal(name), args });

export const actionSchema = z.discriminatedUnion('tool', [
  tool('read_idea', z.strictObject({ idea: slug })),
  tool('list_ideas', z.strictObject({})),
  tool('search', z.strictObject({ query: z.string().min(1) })),
  tool('read_file', z.strictObject({ path: relPath })),
  tool('write_note', z.strictObject({ path: notePath, content: z.string() })),
  tool('edit_section', z.strictObject({ path: readmePath, section: z.string().trim().min(1), content: z.string() })),
  tool('add_tags', z.strictObject({ idea: slug, tags: z.array(z.string().trim().min(1)).min(1) })),
  tool(
    'link_ideas',
    z.strictObject({
      idea: slug,
      other: slug,
      kind: z.enum(['parent', 'child', 'related', 'combines', 'conflicts', 'inspired_by']),
    }),
  ),
  tool('set_stage', z.strictObject({ idea: slug, stage: z.string().trim().min(1) })),
  tool('capture_idea', z.strictObject({ title: z.string().trim().min(1), text: z.string() })),
  tool('archive_idea', z.strictObject({ idea: slug })),
  tool('delete_file', z.strictObject({ path: ideaPath })),
  tool('merge_ideas', z.strictObject({ idea: slug, into: slug })),
  tool('rename_idea', z.strictObject({ idea: slug, to: slug })),
]);
export type CouncilAction = z.infer<typeof actionSchema>;
export type ToolName = CouncilAction['tool'];

export const TOOL_STAKES: Record<ToolName, Stakes> = {
  read_idea: 'low',
  list_ideas: 'low',
  search: 'low',
  read_file: 'low',
  write_note: 'medium',
  edit_section: 'medium',
  add_tags: 'medium',
  link_ideas: 'medium',
  set_stage: 'medium',
  capture_idea: 'medium',
  archive_idea: 'high',
  delete_file: 'high',
  merge_ideas: 'high',
  rename_idea: 'high',
};

/** A proposal's stakes: the highest of its actions'. */
export function stakesOf(actions: readonly CouncilAction[]): Stakes {
  let index = 0;
  for (const action of actions) index = Math.max(index, STAKES_ORDER.indexOf(TOOL_STAKES[action.tool]));
  return STAKES_ORDER[index] as Stakes;
}

/** Whether an action changes the workspace (everything but the low-stakes reads). */
export function hasEffect(action: CouncilAction): boolean {
  return TOOL_STAKES[action.tool] !== 'low';
}

/**
 * What an action is about: its `path`, else the folder of the idea it names. A new idea has no
 * folder yet; its target is the folder its title would make. `list_ideas` and `search` have none.
 */
export function targetOf(action: CouncilAction): string | null {
  const args = action.args as Record<string, unknown>;
  if (typeof args.path === 'string') return args.path;
  if (typeof args.idea === 'string') return `${IDEAS_DIR}/${args.idea}`;
  if (action.tool === 'capture_idea') return `${IDEAS_DIR}/${slugify(action.args.title)}`;
  return null;
}
