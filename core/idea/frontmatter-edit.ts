/**
 * Changes one top-level scalar field of a markdown file's frontmatter by editing that line only, so
 * the researcher's formatting, comments and field order survive an app edit such as a stage change.
 */
export function setFrontmatterField(raw: string, key: string, value: string): string {
  // A byte order mark before the opening `---` is kept where it is and the block edited behind it:
  // the parser skips it, so the block is the frontmatter (a new block above it would demote the
  // researcher's to body text).
  const bom = raw.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  return bom + setField(raw.slice(bom.length), key, value);
}

function setField(text: string, key: string, value: string): string {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const match = /^---\r?\n([\s\S]*?)(\r?\n)---(\r?\n|$)/.exec(text);
  if (!match) return `---${newline}${key}: ${value}${newline}---${newline}${text}`;
  const block = match[1] as string;
  const lines = block.split(/\r?\n/);
  const pattern = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`);
  const at = lines.findIndex((line) => pattern.test(line));
  if (at >= 0) {
    // Keep a trailing comment on the line (`stage: SPARK  # first draft`).
    const comment = /\s+#.*$/.exec((lines[at] as string).replace(pattern, ''))?.[0] ?? '';
    lines[at] = `${key}: ${value}${comment}`;
    // A value written over several lines (a block list or map) goes with it: the lines that follow,
    // indented or starting a list item, belong to this key.
    let end = at + 1;
    while (end < lines.length && /^(\s+\S|-\s|-$)/.test(lines[end] as string)) end++;
    lines.splice(at + 1, end - at - 1);
  } else lines.push(`${key}: ${value}`);
  return `---${newline}${lines.join(newline)}${match[2]}---${match[3]}${text.slice(match[0].length)}`;
}
