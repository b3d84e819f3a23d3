/**
 * A small markdown-to-HTML renderer for the documents the app itself writes (syntheses,
 * transcripts): headings, paragraphs, lists, tables, block quotes, rules, and inline bold, italic,
 * code, strikethrough and links. Everything is escaped first; nothing is fetched.
 */
function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

export function inline(text: string): string {
  let out = escapeHtml(text);
  out = out.replace(/`([^`]+)`/g, '<code>$1</code>');
  out = out.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  out = out.replace(/(^|[\s(])_([^_]+)_(?=[\s).,;:!?]|$)/g, '$1<em>$2</em>');
  out = out.replace(/(^|[\s(])\*([^*]+)\*(?=[\s).,;:!?]|$)/g, '$1<em>$2</em>');
  out = out.replace(/~~([^~]+)~~/g, '<del>$1</del>');
  // Links keep their text; only http(s) targets become links (no javascript:, no local files).
  out = out.replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
  out = out.replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1');
  return out;
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replaceAll('\\|', '|'));
}

export function markdownToHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      out.push(`<h${level}>${inline(heading[2] as string)}</h${level}>`);
      i++;
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (line.startsWith('|') && /^\|?\s*:?-{3,}/.test(lines[i + 1] ?? '')) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] as string).startsWith('|')) rows.push(cells(lines[i++] as string));
      out.push(
        `<table><thead><tr>${head.map((h) => `<th>${inline(h)}</th>`).join('')}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
      continue;
    }
    if (line.startsWith('>')) {
      const quote: string[] = [];
      while (i < lines.length && (lines[i] as string).startsWith('>')) quote.push((lines[i++] as string).replace(/^>\s?/, ''));
      out.push(`<blockquote>${markdownToHtml(quote.join('\n'))}</blockquote>`);
      continue;
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && /^\s*[-*]\s+/.test(lines[i] as string)) {
        let item = (lines[i++] as string).replace(/^\s*[-*]\s+/, '');
        // Continuation lines indented under the item belong to it.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i] as string) && !/^\s*[-*]\s+/.test(lines[i] as string)) item += `<br>${(lines[i++] as string).trim()}`;
        items.push(item);
      }
      out.push(`<ul>${items.map((it) => `<li>${it.split('<br>').map(inline).join('<br>')}</li>`).join('')}</ul>`);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && (lines[i] as string).trim() !== '' && !/^(#{1,6}\s|\||>|\s*[-*]\s+)/.test(lines[i] as string)) para.push(lines[i++] as string);
    out.push(`<p>${para.map(inline).join(' ')}</p>`);
  }
  return out.join('\n');
}

const STYLE = `
  :root { color-scheme: light; }
  body { font: 11pt/1.5 Georgia, 'Times New Roman', serif; color: #1d1d1f; max-width: 46rem; margin: 2rem auto; padding: 0 1.5rem; }
  h1, h2, h3 { font-family: 'Helvetica Neue', Arial, sans-serif; line-height: 1.25; margin: 1.6em 0 0.5em; }
  h1 { font-size: 1.7em; border-bottom: 2px solid #1d1d1f; padding-bottom: 0.2em; }
  h2 { font-size: 1.3em; } h3 { font-size: 1.1em; }
  table { border-collapse: collapse; width: 100%; margin: 0.8em 0; font: 9.5pt/1.35 'Helvetica Neue', Arial, sans-serif; page-break-inside: auto; }
  th, td { border: 1px solid #c7c7cc; padding: 0.25em 0.45em; text-align: left; vertical-align: top; }
  th { background: #f2f2f7; } tr { page-break-inside: avoid; }
  blockquote { margin: 0.8em 0; padding: 0.4em 0.9em; border-left: 4px solid #8e8e93; background: #f7f7f9; }
  code { font: 0.92em Menlo, Consolas, monospace; background: #f2f2f7; padding: 0 0.2em; }
  del { color: #8e8e93; } .meta { color: #636366; font: 9pt 'Helvetica Neue', Arial, sans-serif; }
  @page { size: A4; margin: 18mm 16mm; }
`;

/**
 * An exported document's Content Security Policy: nothing may load or run, only its inline styles
 * apply. It is in the page's meta tag, and the desktop app's printer sends it as a header too.
 */
export const DOCUMENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/** A complete, self-contained page: inline CSS, no scripts, nothing loaded from anywhere. */
export function htmlDocument(title: string, bodyMarkdown: string, meta: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${DOCUMENT_POLICY}">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><p class="meta">${escapeHtml(meta)}</p>
${markdownToHtml(bodyMarkdown)}
</body></html>
`;
}
