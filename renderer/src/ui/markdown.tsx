import { type ReactNode, useMemo } from 'react';
import './markdown.css';

/**
 * A small markdown renderer that builds React elements, so nothing the researcher (or a model)
 * wrote is ever parsed as HTML by the page: raw HTML shows as text, HTML comments are dropped,
 * only http(s) and mailto links become links (opened outside the app), and images show their
 * alt text (the app loads nothing from the network). Covers what ideas and the app's documents use:
 * headings, paragraphs, lists (nested by indentation, numbered, task boxes), fenced code, quotes,
 * tables, rules, and inline code, bold, italic, strikethrough and links.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const nodes = useMemo(() => blocks(text.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, ''), 'b'), [text]);
  return <div className={className ? `markdown ${className}` : 'markdown'}>{nodes}</div>;
}

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

// ---- inline ----------------------------------------------------------------------------------

const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|!\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)|\[([^\]]+)\]\(([^)\s]*)(?:\s+"[^"]*")?\)|<(https?:\/\/[^>\s]+)>|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|~~([\s\S]+?)~~|\*([^*\s](?:[\s\S]*?[^*\s])?)\*|(?<![\p{L}\p{N}])_([^_\s](?:[\s\S]*?[^_\s])?)_(?![\p{L}\p{N}])/u;

export function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest.length > 0) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const k = `${key}.${n++}`;
    if (m[2] !== undefined)
      out.push(<code key={k}>{m[2].trim() === '' ? m[2] : m[2].replace(/^ (.*) $/s, '$1')}</code>);
    else if (m[4] !== undefined) {
      out.push(
        <span key={k} className="md-image" title={m[4]}>
          [image: {m[3] || m[4]}]
        </span>,
      );
    } else if (m[5] !== undefined) {
      const target = m[6] ?? '';
      out.push(
        SAFE_LINK.test(target) ? (
          <a key={k} href={target} target="_blank" rel="noreferrer noopener">
            {inline(m[5], k)}
          </a>
        ) : (
          <span key={k} className="md-link" title={target}>
            {inline(m[5], k)}
          </span>
        ),
      );
    } else if (m[7] !== undefined) {
      out.push(
        <a key={k} href={m[7]} target="_blank" rel="noreferrer noopener">
          {m[7]}
        </a>,
      );
    } else if (m[8] !== undefined || m[9] !== undefined)
      out.push(<strong key={k}>{inline(m[8] ?? m[9] ?? '', k)}</strong>);
    else if (m[10] !== undefined) out.push(<del key={k}>{inline(m[10], k)}</del>);
    else out.push(<em key={k}>{inline(m[11] ?? m[12] ?? '', k)}</em>);
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

/** Inline text with hard line breaks (two trailing spaces or a backslash) kept. */
function lines(parts: string[], key: string): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < parts.length; i++) {
    const line = parts[i] as string;
    const hard = / {2,}$|\\$/.test(line);
    out.push(...inline(line.replace(/ {2,}$|\\$/, ''), `${key}.${i}`));
    // Keys are positions in a static document (the text is the identity of the whole).
    const brKey = `${key}.br${i}`;
    if (i < parts.length - 1) out.push(hard ? <br key={brKey} /> : ' ');
  }
  return out;
}

// ---- blocks ----------------------------------------------------------------------------------

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replaceAll('\\|', '|'));
}

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    HEADING.test(line) ||
    FENCE.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    (line.includes('|') && next !== undefined && TABLE_RULE.test(next))
  );
}

function blocks(text: string, key: string): ReactNode[] {
  const src = text.split('\n');
  const out: ReactNode[] = [];
  let i = 0;
  let n = 0;
  while (i < src.length) {
    const line = src[i] as string;
    const k = `${key}.${n++}`;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < src.length && !(src[i] as string).trimStart().startsWith(marker)) body.push(src[i++] as string);
      i++;
      out.push(
        <pre key={k}>
          <code data-lang={fence[2] || undefined}>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(6, (heading[1] as string).length + 1);
      // The page's own title is the h1; a document's headings sit one level below it.
      const Tag = `h${level}` as 'h2';
      out.push(<Tag key={k}>{inline(heading[2] as string, k)}</Tag>);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push(<hr key={k} />);
      i++;
      continue;
    }
    if (line.includes('|') && TABLE_RULE.test(src[i + 1] ?? '')) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < src.length && (src[i] as string).includes('|') && (src[i] as string).trim() !== '')
        rows.push(cells(src[i++] as string));
      out.push(
        <div key={k} className="md-table">
          <table className="data">
            <thead>
              <tr>
                {head.map((h, c) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity but their place
                  <th key={c}>{inline(h, `${k}.h${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, ri) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a static document
                <tr key={ri}>
                  {head.map((_, c) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity but their place
                    <td key={c}>{inline(r[c] ?? '', `${k}.${ri}.${c}`)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
      continue;
    }
    if (QUOTE.test(line)) {
      const quote: string[] = [];
      while (i < src.length && QUOTE.test(src[i] as string)) quote.push((src[i++] as string).replace(QUOTE, ''));
      out.push(<blockquote key={k}>{blocks(quote.join('\n'), k)}</blockquote>);
      continue;
    }
    if (ITEM.test(line)) {
      const end = listEnd(src, i);
      out.push(list(src.slice(i, end), k));
      i = end;
      continue;
    }
    const para: string[] = [];
    while (
      i < src.length &&
      (src[i] as string).trim() !== '' &&
      (para.length === 0 || !startsBlock(src[i] as string, src[i + 1]))
    ) {
      para.push((src[i++] as string).trim());
    }
    out.push(<p key={k}>{lines(para, k)}</p>);
  }
  return out;
}

/** Where a list starting at `start` ends: a blank line followed by something not indented or another item. */
function listEnd(src: string[], start: number): number {
  let i = start + 1;
  while (i < src.length) {
    const line = src[i] as string;
    if (line.trim() === '') {
      const next = src[i + 1];
      if (next !== undefined && (ITEM.test(next) || /^\s{2,}\S/.test(next))) {
        i++;
        continue;
      }
      return i;
    }
    if (!ITEM.test(line) && !/^\s/.test(line) && startsBlock(line, src[i + 1])) return i;
    i++;
  }
  return i;
}

function list(src: string[], key: string): ReactNode {
  const first = ITEM.exec(src[0] as string) as RegExpExecArray;
  const indent = (first[1] as string).length;
  const ordered = /\d/.test(first[2] as string);
  const items: { head: string; rest: string[] }[] = [];
  for (const line of src) {
    const m = ITEM.exec(line);
    if (m && (m[1] as string).length <= indent) items.push({ head: m[3] as string, rest: [] });
    else items.at(-1)?.rest.push(line.slice(Math.min(indent + 2, line.length - line.trimStart().length)));
  }
  const children = items.map((item, n) => {
    const k = `${key}.${n}`;
    const task = /^\[([ xX])\]\s+(.*)$/.exec(item.head);
    const body = item.rest.filter((l) => l.trim() !== '');
    const nestedAt = body.findIndex((l) => ITEM.test(l));
    const continuation = nestedAt < 0 ? body : body.slice(0, nestedAt);
    const nested = nestedAt < 0 ? [] : body.slice(nestedAt);
    return (
      <li key={k} className={task ? 'md-task' : undefined}>
        {task && (
          <input
            type="checkbox"
            checked={task[1] !== ' '}
            disabled
            aria-label={task[1] !== ' ' ? 'done' : 'not done'}
          />
        )}
        {lines([task ? (task[2] as string) : item.head, ...continuation.map((l) => l.trim())], k)}
        {nested.length > 0 && blocks(nested.join('\n'), k)}
      </li>
    );
  });
  if (ordered) {
    const startAt = Number.parseInt(first[2] as string, 10);
    return (
      <ol key={key} start={startAt === 1 ? undefined : startAt}>
        {children}
      </ol>
    );
  }
  return <ul key={key}>{children}</ul>;
}

/** A file's YAML frontmatter, split off (shown apart, as the app's own fields). */
export function splitFrontmatter(text: string): { frontmatter: string | null; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(text);
  if (!m) return { frontmatter: null, body: text };
  return { frontmatter: m[1] as string, body: text.slice(m[0].length) };
}
