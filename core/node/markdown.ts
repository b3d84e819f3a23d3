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

/**
 * Frontmatter + body. The empty options object matters: without it gray-matter caches every input
 * forever and hands back `{}` for a text that once failed to parse.
 */
export function parseMarkdown(raw: string): ParsedMarkdown {
  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(raw, {});
  } catch (error) {
    const e = error as { reason?: string; mark?: { line?: number }; message?: string };
    // js-yaml counts from 0 within the block, which gray-matter hands over starting at the opening `---` line.
    const line = typeof e.mark?.line === 'number' ? e.mark.line + 1 : null;
    const reason = e.reason ?? e.message ?? String(error);
    throw new MarkdownError(`bad YAML frontmatter${line ? ` at line ${line}` : ''}: ${reason}`, line);
  }
  const data = parsed.data as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new MarkdownError('frontmatter must be a set of `key: value` lines', 1);
  }
  return { data: data as Record<string, unknown>, body: parsed.content };
}
