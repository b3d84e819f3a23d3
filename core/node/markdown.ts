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
 * Self-contained on purpose (it uses nothing but its arguments): a sync of a large library runs its
 * source text on a worker thread too (see `fs/read-pool.ts`), so there is one parser, not two.
 */
export function parseMarkdownWith(parse: typeof matter, raw: string): MarkdownResult {
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = parse(raw, {});
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
