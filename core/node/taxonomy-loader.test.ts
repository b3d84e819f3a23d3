import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, writeFile } from '../../tests/helpers/temp-workspace';
import { TaxonomyError } from '../taxonomy/taxonomy';
import { appRoot } from './app-root';
import { loadTaxonomy, loadTemplates } from './taxonomy-loader';

let root: string;
let cleanup: () => void;
beforeEach(() => ({ root, cleanup } = tempWorkspace()));
afterEach(() => cleanup());

describe('the built-in taxonomy', () => {
  it('has the 19 stages, 6 weighted categories of 5 criteria, and the five idea types', () => {
    const t = loadTaxonomy(null);
    expect({
      stages: t.stages.map((s) => s.id),
      categories: t.categories.map((c) => [c.id, c.weight, c.criteria.length]),
      criteria: t.criteria.length,
      types: [...t.typeIds],
    }).toEqual({
      stages: [
        'SPARK', 'CLARIFY', 'RESEARCH', 'IDEATE', 'EVALUATE', 'VALIDATE', 'DESIGN', 'PROTOTYPE', 'TEST', 'REFINE',
        'BUILD', 'LAUNCH', 'GROW', 'MAINTAIN', 'PIVOT', 'PAUSE', 'SUNSET', 'ARCHIVE', 'ABANDONED',
      ],
      categories: [
        ['problem', 0.2, 5],
        ['solution', 0.2, 5],
        ['feasibility', 0.15, 5],
        ['fit', 0.15, 5],
        ['market', 0.15, 5],
        ['risk', 0.15, 5],
      ],
      criteria: 30,
      types: ['business', 'creative', 'technical', 'personal', 'research'],
    });
    expect(t.criteria.filter((c) => c.critical).length).toBeGreaterThan(0);
  });

  it('loads every template', () => {
    expect(Object.keys(loadTemplates(null))).toEqual(['idea', 'development', 'evaluation', 'redteam', 'research', 'note']);
  });
});

describe('workspace overrides', () => {
  it("uses the workspace's own file where it has one", () => {
    const builtIn = readFileSync(join(appRoot(), 'taxonomy/idea-types.md'), 'utf8');
    writeFile(root, 'taxonomy/idea-types.md', builtIn.replace('  - id: research', '  - id: hardware\n    name: Hardware\n    description: Things with wires.\n  - id: research'));
    expect([...loadTaxonomy(root).typeIds]).toContain('hardware');
    expect(loadTaxonomy(root).stages).toHaveLength(19);
  });

  it('names the file and the field of an invalid override, and the line of bad YAML', () => {
    writeFile(root, 'taxonomy/tags.md', '---\nkind: tags\ncategories:\n  - id: Domain Tags\n    name: D\n    tags: []\n---\n');
    writeFile(root, 'taxonomy/idea-types.md', '---\nkind: idea-types\ntypes: [\n---\n');
    let problems: string[] = [];
    try {
      loadTaxonomy(root);
    } catch (error) {
      problems = (error as TaxonomyError).problems;
    }
    expect(problems).toEqual([
      `${join(root, 'taxonomy/idea-types.md')}: bad YAML frontmatter at line 4: unexpected end of the stream within a flow collection`,
      `${join(root, 'taxonomy/tags.md')}: categories[0].id: must be a lower-case kebab-case id`,
    ]);
  });

  it('refuses a template with an unknown placeholder', () => {
    writeFile(root, 'templates/note.md', '---\nkind: note\n---\n{{mystery}}\n');
    expect(() => loadTemplates(root)).toThrow(new TaxonomyError([`${join(root, 'templates/note.md')}: unknown placeholder {{mystery}}`]));
  });
});
