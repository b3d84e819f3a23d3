import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { parseMarkdownWith } from './markdown';

/** A frontmatter block that, if evaluated as JavaScript, sets a flag on the global object. */
const probe = (opening: string) => `${opening}\n{ title: (globalThis.__crucibleRan = true, 'ran') }\n---\nbody\n`;

describe('frontmatter languages', () => {
  it('never runs a block that names JavaScript or any language but YAML, and says which', () => {
    const openings = [
      '---js',
      '---javascript',
      '---JS',
      '--- js ',
      '---Javascript',
      '---coffee',
      '---json',
      '---toml',
      '\uFEFF---js',
    ];
    const results = openings.map((opening) => parseMarkdownWith(matter, probe(opening)));
    expect((globalThis as { __crucibleRan?: boolean }).__crucibleRan).toBeUndefined();
    expect(results.map((r) => (r.ok ? 'parsed' : r.message))).toEqual(
      openings.map(
        (o) =>
          `frontmatter must be YAML; "---${o.replace('\uFEFF', '').slice(3).trim()}" names another language, which Crucible never runs`,
      ),
    );
  });

  it('refuses the other engines even when gray-matter is handed a language some other way', () => {
    // The second lock: gray-matter's `lang` option would pick an engine without an opening tag.
    const parse = ((raw: string, options: object) =>
      matter(raw, { ...options, language: 'javascript' })) as typeof matter;
    const result = parseMarkdownWith(parse, probe('---'));
    expect((globalThis as { __crucibleRan?: boolean }).__crucibleRan).toBeUndefined();
    expect(result).toEqual({
      ok: false,
      message: 'bad YAML frontmatter: frontmatter must be YAML, not JavaScript',
      line: null,
    });
  });

  it('still reads YAML, named or not, with or without a BOM', () => {
    for (const opening of ['---', '---yaml', '---yml', '\uFEFF---']) {
      expect(parseMarkdownWith(matter, `${opening}\ntitle: Solar\n---\nbody\n`)).toEqual({
        ok: true,
        data: { title: 'Solar' },
        body: 'body\n',
      });
    }
  });
});
