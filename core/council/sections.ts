/**
 * `##` sections of a markdown text: found by their heading, replaced whole. A section runs from its
 * heading to the next heading of level 1 or 2 (or the end); headings inside code fences are text.
 */

interface Span {
  /** Index of the heading line's first character. */
  start: number;
  /** Index just after the heading line (its newline included). */
  bodyStart: number;
  /** Index where the next section (or the end) begins. */
  end: number;
}

function normalizeHeading(text: string): string {
  return text
    .trim()
    .replace(/\s+#*\s*$/, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

function findSection(text: string, section: string): Span | null {
  const want = normalizeHeading(section.replace(/^#+\s*/, ''));
  const lines = text.split(/(?<=\n)/);
  let offset = 0;
  let fence: string | null = null;
  let found: Span | null = null;
  for (const line of lines) {
    const bare = line.replace(/\r?\n$/, '');
    const fenceMark = /^\s{0,3}(```|~~~)/.exec(bare)?.[1];
    if (fenceMark) fence = fence === null ? fenceMark : fence === fenceMark ? null : fence;
    else if (fence === null) {
      const heading = /^(#{1,2})\s+(.*)$/.exec(bare);
      if (heading) {
        if (found) {
          found.end = offset;
          return found;
        }
        if (heading[1] === '##' && normalizeHeading(heading[2] as string) === want)
          found = { start: offset, bodyStart: offset + line.length, end: text.length };
      }
    }
    offset += line.length;
  }
  return found;
}

/** The text of a section's body (trimmed), or null when the text has no such section. */
export function sectionBody(text: string, section: string): string | null {
  const span = findSection(text, section);
  return span ? text.slice(span.bodyStart, span.end).trim() : null;
}

/** The text with the section's body replaced by `content`; a missing section is added at the end. */
export function replaceSection(text: string, section: string, content: string): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const body = content.trim().replace(/\r?\n/g, newline);
  const span = findSection(text, section);
  if (!span) {
    const title = section.replace(/^#+\s*/, '').trim();
    const head = text.replace(/\s*$/, '');
    return `${head}${newline}${newline}## ${title}${newline}${newline}${body}${newline}`;
  }
  const rest = text.slice(span.end);
  const tail = rest === '' ? newline : `${newline}${newline}`;
  return `${text.slice(0, span.bodyStart)}${newline}${body}${tail}${rest}`;
}
