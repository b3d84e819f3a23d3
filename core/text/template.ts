/**
 * `{{name}}` placeholders. Inside the YAML frontmatter a value is escaped for a double-quoted YAML
 * string (templates put the quotes), so a title like `The "hard" part: why` cannot break the YAML;
 * in the body values go in as written. An unknown placeholder is an error, not silent emptiness.
 */
export class TemplateError extends Error {}

function escapeYamlQuoted(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function fill(
  text: string,
  values: Readonly<Record<string, string>>,
  encode: (value: string, name: string) => string,
  file: string,
): string {
  return text.replace(/\{\{\s*([a-zA-Z][\w-]*)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TemplateError(`${file}: unknown placeholder {{${name}}}`);
    return encode(value, name);
  });
}

/** Values that must go into YAML verbatim (lists, dates) are passed in `raw`. */
export function renderTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  options: { file: string; raw?: Readonly<Record<string, string>> } = { file: 'template' },
): string {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(template);
  const raw = options.raw ?? {};
  const all = { ...values, ...raw };
  if (!match) return fill(template, all, (v) => v, options.file);
  const front = fill(
    match[1] as string,
    all,
    (v, name) => (name in raw ? v : escapeYamlQuoted(v)),
    options.file,
  );
  const body = fill(template.slice(match[0].length), all, (v) => v, options.file);
  return `---\n${front}\n---\n${body}`;
}
