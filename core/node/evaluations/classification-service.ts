import { join } from 'node:path';
import { type Classification, classificationRequest } from '../../classification/classify';
import { setFrontmatterField } from '../../idea/frontmatter-edit';
import { ideaFile } from '../../idea/layout';
import { type Provider, type ProviderName, providerFor } from '../debates/providers';
import { safeWrite } from '../fs/atomic-write';
import { parseMarkdown } from '../markdown';
import { loadPersonas } from '../personas/load-personas';
import { getIdea, listIdeas } from '../sqlite/index-sql';
import { readReadmeForEdit, UserError, type Workspace } from '../workspace/workspace';

export interface ClassificationResult {
  classification: Classification;
  /** Tags outside the controlled vocabulary. */
  freeTags: string[];
  path: string;
  conflict: boolean;
}

/**
 * Classifies an idea and writes the result into its README's frontmatter (`type`, `tags`,
 * `relationships` lines only, through the safe-write path: a README edited meanwhile is kept and the
 * classified version goes beside it).
 */
export class ClassificationService {
  constructor(
    private readonly ws: Workspace,
    private readonly providers: (name: ProviderName, workspace: string, seed: number | null) => Provider = providerFor,
  ) {}

  async classify(slug: string, options: { provider: ProviderName; seed?: number }): Promise<ClassificationResult> {
    const idea = getIdea(this.ws.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    const rel = ideaFile(slug, 'README.md');
    const abs = join(this.ws.root, rel);
    const { text: raw, hash: expected } = readReadmeForEdit(abs, rel, idea.id);
    const persona = loadPersonas(this.ws.root).personas.find((p) => p.id === 'classifier');
    if (!persona) throw new UserError('the "classifier" persona did not load (see resources/personas)');
    const vocabulary = [...this.ws.taxonomy.tagCategory.keys()];
    const others = listIdeas(this.ws.db).filter((i) => i.slug !== slug);
    const provider = this.providers(options.provider, this.ws.root, options.seed ?? 1);
    const { value } = await provider.llm.call(
      classificationRequest(
        persona,
        {
          idea: {
            slug,
            title: idea.title,
            summary: idea.summary,
            text: parseMarkdown(raw).body,
            type: idea.type,
            tags: idea.tags,
          },
          types: this.ws.taxonomy.types.map((t) => ({ id: t.id, description: t.description })),
          vocabulary,
          others: others.map((o) => ({ slug: o.slug, title: o.title, summary: o.summary, tags: o.tags })),
        },
        new Date().toISOString().slice(0, 10),
      ),
    );
    // What the model says is checked against the library before it is written.
    if (!this.ws.taxonomy.typeIds.has(value.type))
      throw new UserError(`the classifier chose the unknown type "${value.type}"`);
    const known = new Set(others.map((o) => o.slug));
    // The researcher's own links stay; the classifier's are added where they are new.
    const existing = (
      (parseMarkdown(raw).data.relationships as Classification['relationships'] | undefined) ?? []
    ).filter((r) => r && typeof r === 'object');
    const relationships = [
      ...existing,
      ...value.relationships.filter(
        (r) => known.has(r.target) && !existing.some((e) => e.target === r.target && e.type === r.type),
      ),
    ];
    const tags = [...new Set(value.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
    let text = setFrontmatterField(raw, 'type', value.type);
    text = setFrontmatterField(text, 'tags', JSON.stringify(tags));
    text = setFrontmatterField(text, 'relationships', JSON.stringify(relationships));
    text = setFrontmatterField(text, 'updated', new Date().toISOString().slice(0, 10));
    parseMarkdown(text); // a frontmatter the app cannot read back is never written
    const outcome = safeWrite(this.ws.root, rel, text, expected);
    this.ws.syncSlugs([slug]);
    const vocab = new Set(vocabulary);
    return {
      classification: { type: value.type, tags, relationships },
      freeTags: tags.filter((t) => !vocab.has(t)),
      path: outcome.path,
      conflict: outcome.conflict,
    };
  }
}
