import matter from 'gray-matter';

export interface ParsedMarkdown {
  data: Record<string, unknown>;
  body: string;
}

export class MarkdownError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
    this.name = 'MarkdownError';
  }
}

export type MarkdownResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; message: string; line: number | null };

/**
 * Frontmatter + body, given gray-matter. The empty options object matters: without it gray-matter
 * caches every input forever and hands back `{}` for a text that once failed to parse.
 *
 * Frontmatter is YAML and only YAML. gray-matter picks its parser from whatever follows the opening
 * `---` (`---js`, `---javascript`, `---coffee`, `---json`), and its built-in JavaScript engine `eval`s
 * the block — a shared or dropped idea file would run code in the app. So any language named there is
 * refused before gray-matter sees the text, and as a second lock every engine but YAML is replaced by
 * one that throws (gray-matter consults `options.engines` before its own table).
 *
 * Self-contained on purpose (it uses nothing but its arguments): a sync of a large library runs its
 * source text on a worker thread too (see `fs/read-pool.ts`), so there is one parser, not two.
 */
export function parseMarkdownWith(parse: typeof matter, raw: string): MarkdownResult {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  // gray-matter's rule for a frontmatter block: `---` first, not followed by a fourth `-`.
  if (text.startsWith('---') && text.charAt(3) !== '-') {
    const newline = text.search(/\r?\n/);
    const language = (newline === -1 ? text.slice(3) : text.slice(3, newline)).trim();
    if (language !== '' && !/^ya?ml$/i.test(language)) {
      return {
        ok: false,
        message: `frontmatter must be YAML; "---${language.slice(0, 40)}" names another language, which Crucible never runs`,
        line: 1,
      };
    }
  }
  const refuse = (name: string) => () => {
    throw new Error(`frontmatter must be YAML, not ${name}`);
  };
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = parse(raw, {
      language: 'yaml',
      engines: {
        javascript: refuse('JavaScript'),
        js: refuse('JavaScript'),
        coffee: refuse('CoffeeScript'),
        json: refuse('JSON'),
        toml: refuse('TOML'),
      },
    });
  } catch (error) {
    const e = error as { reason?: string; mark?: { line?: number }; message?: string };
    // js-yaml counts from 0 within the block, which gray-matter hands over starting at the opening `---` line.
    const line = typeof e.mark?.line === 'number' ? e.mark.line + 1 : null;
    const reason = e.reason ?? e.message ?? String(error);
    return { ok: false, message: `bad YAML frontmatter${line ? ` at line ${line}` : ''}: ${reason}`, line };
  }
  const data = parsed.data as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, message: 'frontmatter must be a set of `key: value` lines', line: 1 };
  }
  return { ok: true, data: data as Record<string, unknown>, body: parsed.content };
}

/** Frontmatter + body; bad frontmatter throws a `MarkdownError` naming the line. */
export function parseMarkdown(raw: string): ParsedMarkdown {
  const result = parseMarkdownWith(matter, raw);
  if (!result.ok) throw new MarkdownError(result.message, result.line);
  return { data: result.data, body: result.body };
}
