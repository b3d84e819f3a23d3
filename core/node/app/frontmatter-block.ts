/**
 * Replaces one top-level key of a markdown file's frontmatter, with everything written under it
 * (indented lines, list items), by new lines; `null` removes the key. The rest of the file (other
 * keys, comments outside the block, the body) stays byte for byte. A file without frontmatter
 * gets one. Used for the nested `providers:` and `prices:` maps of models.md, which the one-line
 * editor (core/idea/frontmatter-edit.ts) cannot write.
 */
export function setFrontmatterBlock(raw: string, key: string, lines: readonly string[] | null): string {
  // A byte order mark stays in front and the block behind it is edited (as in frontmatter-edit.ts).
  const bom = raw.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  return bom + setBlock(raw.slice(bom.length), key, lines);
}

function setBlock(text: string, key: string, lines: readonly string[] | null): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const match = /^---\r?\n([\s\S]*?)(\r?\n)---(\r?\n|$)/.exec(text);
  const replacement = lines === null ? [] : [`${key}:`, ...lines];
  if (!match) {
    if (lines === null) return text;
    return `---${newline}${replacement.join(newline)}${newline}---${newline}${text}`;
  }
  const block = (match[1] as string).split(/\r?\n/);
  const pattern = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`);
  const at = block.findIndex((line) => pattern.test(line));
  if (at >= 0) {
    let end = at + 1;
    // What belongs to the key: indented lines (comments too), list items, blank lines between them.
    while (end < block.length && /^(\s+\S|-\s|-$|\s*$)/.test(block[end] as string)) end++;
    // Blank lines at the end of the block separate it from what follows: keep them.
    while (end > at + 1 && /^\s*$/.test(block[end - 1] as string)) end--;
    block.splice(at, end - at, ...replacement);
  } else block.push(...replacement);
  const head = block.join(newline);
  return `---${newline}${head}${head === '' ? '' : match[2]}---${match[3]}${text.slice(match[0].length)}`;
}

/** A YAML scalar for a string: JSON's double-quoted form is valid YAML and needs no thought. */
export function yamlString(value: string): string {
  return JSON.stringify(value);
}

/** A one-line YAML flow mapping of scalars: `{ a: 1, b: "x" }`. */
export function yamlFlow(entries: Record<string, string | number>): string {
  const parts = Object.entries(entries).map(([k, v]) => `${k}: ${typeof v === 'number' ? String(v) : yamlString(v)}`);
  return `{ ${parts.join(', ')} }`;
}
