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
    // YAML errors count lines from the start of the frontmatter block; the file has `---` above it.
    const line = typeof e.mark?.line === 'number' ? e.mark.line + 2 : null;
    const reason = e.reason ?? e.message ?? String(error);
    throw new MarkdownError(`bad YAML frontmatter${line ? ` at line ${line}` : ''}: ${reason}`, line);
  }
  const data = parsed.data as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new MarkdownError('frontmatter must be a set of `key: value` lines', 1);
  }
  return { data: data as Record<string, unknown>, body: parsed.content };
}
