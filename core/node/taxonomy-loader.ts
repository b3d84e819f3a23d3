import { lstatSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildTaxonomy, TAXONOMY_FILES, type Taxonomy, TaxonomyError, type TaxonomySource } from '../taxonomy/taxonomy';
import { renderTemplate } from '../text/template';
import { appRoot } from './app-root';
import { readTextInside } from './fs/read-inside';
import { MarkdownError, parseMarkdown } from './markdown';

/** The templates the app writes from, by name; each is `templates/<name>.md`. */
export const TEMPLATE_NAMES = ['idea', 'development', 'evaluation', 'redteam', 'research', 'note'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];
export type Templates = Record<TemplateName, { file: string; text: string }>;

/**
 * A workspace's own `taxonomy/<file>` or `templates/<file>` wins over the app's built-in one. The
 * workspace's copy is read under the link rule (`fs/read-inside.ts`): a link there is refused, never
 * followed out of the workspace.
 */
function pick(workspace: string | null, folder: string, file: string): { shown: string; read: () => string } {
  if (workspace) {
    const own = join(workspace, folder, file);
    if (lstatSync(own, { throwIfNoEntry: false }))
      return { shown: own, read: () => readTextInside(workspace, `${folder}/${file}`) };
  }
  const builtIn = join(appRoot(), folder, file);
  return { shown: relative(process.cwd(), builtIn) || builtIn, read: () => readFileSync(builtIn, 'utf8') };
}

function readSource(workspace: string | null, file: string, problems: string[]): TaxonomySource {
  const { read, shown } = pick(workspace, 'taxonomy', file);
  try {
    return { file: shown, data: parseMarkdown(read()).data };
  } catch (error) {
    const reason = error instanceof MarkdownError ? error.message : `cannot be read (${(error as Error).message})`;
    problems.push(`${shown}: ${reason}`);
    return { file: shown, data: undefined };
  }
}

export function loadTaxonomy(workspace: string | null): Taxonomy {
  const problems: string[] = [];
  const sources = {
    stages: readSource(workspace, TAXONOMY_FILES.stages, problems),
    criteria: readSource(workspace, TAXONOMY_FILES.criteria, problems),
    types: readSource(workspace, TAXONOMY_FILES.types, problems),
    tags: readSource(workspace, TAXONOMY_FILES.tags, problems),
  };
  try {
    const taxonomy = buildTaxonomy(sources);
    if (problems.length > 0) throw new TaxonomyError(problems);
    return taxonomy;
  } catch (error) {
    if (error instanceof TaxonomyError) {
      // Unreadable files were reported above; don't repeat "expected object" for them.
      const unreadable = new Set(problems.map((p) => p.split(': ')[0]));
      const rest = error.problems.filter((p) => !unreadable.has(p.split(': ')[0]));
      throw new TaxonomyError([...problems, ...rest]);
    }
    throw error;
  }
}

/** Sample values a template must accept; rendering with them proves the template is usable. */
const PROBE: Record<string, string> = {
  id: '01JPROBE0000000000000000000',
  slug: 'probe',
  title: 'Probe "title": with punctuation',
  type: 'research',
  stage: 'SPARK',
  summary: 'A probe.',
  created: '2026-01-01',
  updated: '2026-01-01',
  text: 'Text.',
  source: 'probe',
  body: 'Body.',
};

export function loadTemplates(workspace: string | null): Templates {
  const problems: string[] = [];
  const out: Partial<Templates> = {};
  for (const name of TEMPLATE_NAMES) {
    const { read, shown } = pick(workspace, 'templates', `${name}.md`);
    let text: string;
    try {
      text = read();
    } catch (error) {
      problems.push(`${shown}: cannot be read (${(error as Error).message})`);
      continue;
    }
    try {
      const rendered = renderTemplate(text, PROBE, { file: shown, raw: { tags: '[]' } });
      const parsed = parseMarkdown(rendered);
      if (name === 'idea') {
        for (const key of ['id', 'title', 'stage']) {
          if (!(key in parsed.data)) problems.push(`${shown}: frontmatter: the field ${key} is missing`);
        }
      }
    } catch (error) {
      problems.push(
        error instanceof Error
          ? error.message.startsWith(shown)
            ? error.message
            : `${shown}: ${error.message}`
          : String(error),
      );
      continue;
    }
    out[name] = { file: shown, text };
  }
  if (problems.length > 0) throw new TaxonomyError(problems);
  return out as Templates;
}
