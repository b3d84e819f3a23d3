import { describe, expect, it } from 'vitest';
import { renderTemplate, TemplateError } from './template';

describe('renderTemplate', () => {
  it('escapes values for YAML in the frontmatter and leaves the body as written', () => {
    const template = '---\ntitle: "{{title}}"\ntags: {{tags}}\n---\n# {{title}}\n';
    expect(renderTemplate(template, { title: 'The "hard" part: why\\' }, { file: 't.md', raw: { tags: '["a"]' } })).toBe(
      '---\ntitle: "The \\"hard\\" part: why\\\\"\ntags: ["a"]\n---\n# The "hard" part: why\\\n',
    );
  });

  it('refuses an unknown placeholder, naming the template', () => {
    expect(() => renderTemplate('{{nope}}', {}, { file: 'templates/x.md' })).toThrow(
      new TemplateError('templates/x.md: unknown placeholder {{nope}}'),
    );
  });
});
