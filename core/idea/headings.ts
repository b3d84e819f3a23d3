/**
 * A note's title and summary from its markdown when its frontmatter gives none: the first
 * level-1 heading, written `# Title` or underlined with `===`, never a line inside a fenced code
 * block (a shell comment `# install` is not a heading); its inline marks (emphasis, code, links,
 * wiki links, a `{#anchor}`) are dropped, so the title reads as the note shows it. The summary is
 * the first paragraph of prose (not a heading, a code block, a comment, a table, a quote's marker or
 * a picture).
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_2 = /^ {0,3}-+[ \t]*$/;

/** A heading's or paragraph's words without their inline marks. */
export function plainInline(text: string): string {
  return text
    .replace(/[ \t]*\{#[^}]*\}[ \t]*$/, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^\]|]+)\|([^\]]+)\]\]/g, '$2')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The lines of a body outside fenced code blocks, each with its index (fence lines themselves left out). */
function* proseLines(body: string): Generator<{ line: string; at: number; lines: string[] }> {
  const lines = body.split(/\r?\n/);
  let fence: string | null = null;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    const opens = FENCE.exec(line);
    if (fence !== null) {
      if (opens && opens[1]?.[0] === fence[0] && (opens[1]?.length ?? 0) >= fence.length && line.trim() === opens[1])
        fence = null;
      continue;
    }
    if (opens) {
      fence = opens[1] as string;
      continue;
    }
    yield { line, at, lines };
  }
}

/**
 * Where a body's first level-1 heading is: its words and its lines, `from` to `to` (exclusive,
 * counted in the body's lines), two lines for an underlined one. A caller that takes the heading
 * out of a text removes exactly these lines and nothing else.
 */
export interface HeadingAt {
  words: string;
  from: number;
  to: number;
}

/** The first level-1 heading of a markdown body with its line range; null when it has none. */
export function firstHeadingAt(body: string): HeadingAt | null {
  let previousBlank = true;
  for (const { line, at, lines } of proseLines(body)) {
    const atx = ATX.exec(line);
    if (atx) {
      const words = atx[1] === '#' ? plainInline(atx[2] ?? '') : '';
      if (words) return { words, from: at, to: at + 1 };
    } else if (
      previousBlank &&
      line.trim() !== '' &&
      SETEXT_1.test(lines[at + 1] ?? '') &&
      !/^ {0,3}([>|]|[-*+] |\d+[.)] )/.test(line)
    ) {
      const words = plainInline(line);
      if (words) return { words, from: at, to: at + 2 };
    }
    previousBlank = line.trim() === '';
  }
  return null;
}

/** The first level-1 heading of a markdown body, as words; null when it has none. */
export function firstHeading(body: string): string | null {
  return firstHeadingAt(body)?.words ?? null;
}

/** A body without the lines of its first level-1 heading (the body itself when it has none). */
export function withoutFirstHeading(body: string): string {
  const at = firstHeadingAt(body);
  if (!at) return body;
  const lines = body.split(/\r?\n/);
  return [...lines.slice(0, at.from), ...lines.slice(at.to)].join('\n');
}

/** The first paragraph of prose of a markdown body, as one line of words ('' when there is none). */
export function firstParagraph(body: string): string {
  const withoutComments = body.replace(/<!--[\s\S]*?-->/g, '');
  const paragraph: string[] = [];
  for (const { line, at, lines } of proseLines(withoutComments)) {
    const text = line.trim();
    const heading = ATX.test(line) || SETEXT_1.test(line) || (SETEXT_2.test(line) && paragraph.length > 0);
    const underlined = text !== '' && (SETEXT_1.test(lines[at + 1] ?? '') || SETEXT_2.test(lines[at + 1] ?? ''));
    const notProse = /^(\||!\[[^\]]*\]\([^)]*\)$|!\[\[.*\]\]$|<[a-z/!])/i.test(text) || /^[-*_]{3,}$/.test(text);
    if (text === '' || heading || notProse || (underlined && paragraph.length === 0)) {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(text.replace(/^(>\s*)+/, '').replace(/^([-*+]|\d+[.)])\s+/, ''));
  }
  return plainInline(paragraph.join(' '));
}
