import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LoadedPersonas, PersonaLoadError } from '../../personas/find';
import { inspectPersona, type Persona, personaIssueText } from '../../personas/persona';
import { appRoot } from '../app-root';
import { readTextInside } from '../fs/read-inside';
import { MarkdownError, parseMarkdown } from '../markdown';

export { findPersonas, type LoadedPersonas, type PersonaLoadError, UnknownPersonaError } from '../../personas/find';

/** The built-in personas' folder, under the app's own data. */
export function builtInPersonasDir(): string {
  return join(appRoot(), 'resources', 'personas');
}

const LINK_REASON = 'is a symbolic link; Crucible does not follow links (put the file itself here)';

/** A file that is not a persona even though it ends in `.md`. */
const NOT_A_PERSONA = /^readme\.md$/i;

/**
 * Every valid persona of one folder, by id. Invalid files and ids claimed by more than one file are
 * reported in `errors` and skipped; the rest load.
 */
function readFolder(
  dir: string,
  show: (abs: string) => string,
  required: boolean,
  errors: PersonaLoadError[],
  workspace: { root: string; folder: string } | null = null,
): Map<string, Persona> {
  const found = new Map<string, Persona>();
  if (!existsSync(dir)) {
    if (required) errors.push({ file: show(dir), reason: 'the folder of built-in personas is missing' });
    return found;
  }
  let names: string[];
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    // In the workspace, a persona that is a link is reported, never followed (the link rule).
    if (workspace)
      for (const entry of entries)
        if (entry.isSymbolicLink() && entry.name.endsWith('.md'))
          errors.push({ file: show(join(dir, entry.name)), reason: LINK_REASON });
    names = entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && !NOT_A_PERSONA.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    errors.push({ file: show(dir), reason: `cannot be read (${(error as Error).message})` });
    return found;
  }

  const filesById = new Map<string, Persona[]>();
  for (const name of names) {
    const file = show(join(dir, name));
    let raw: string;
    try {
      raw = workspace
        ? readTextInside(workspace.root, `${workspace.folder}/${name}`)
        : readFileSync(join(dir, name), 'utf8');
    } catch (error) {
      errors.push({ file, reason: `cannot be read (${(error as Error).message})` });
      continue;
    }
    let parsed: { data: Record<string, unknown>; body: string };
    try {
      parsed = parseMarkdown(raw);
    } catch (error) {
      errors.push({ file, reason: error instanceof MarkdownError ? error.message : String(error) });
      continue;
    }
    const { persona, issues } = inspectPersona(file, parsed.data, parsed.body);
    if (!persona) {
      for (const issue of issues) errors.push({ file, reason: personaIssueText(issue) });
      continue;
    }
    filesById.set(persona.id, [...(filesById.get(persona.id) ?? []), persona]);
  }

  for (const [id, personas] of filesById) {
    if (personas.length === 1) {
      found.set(id, personas[0] as Persona);
      continue;
    }
    for (const persona of personas) {
      const others = personas.filter((p) => p !== persona).map((p) => p.file);
      errors.push({
        file: persona.file,
        reason: `id: "${id}" is also the id of ${others.join(', ')}; ids must be unique within a folder, so none of them was loaded`,
      });
    }
  }
  return found;
}

/**
 * The built-in personas (`resources/personas/*.md` of the app) and the workspace's own
 * (`<workspace>/personas/*.md`); a workspace persona replaces the built-in one with the same id.
 * A file that fails to read or validate is reported in `errors` and skipped; the others still load.
 */
export function loadPersonas(workspace: string | null): LoadedPersonas {
  const errors: PersonaLoadError[] = [];
  const builtIn = readFolder(builtInPersonasDir(), (abs) => relative(process.cwd(), abs) || abs, true, errors);
  const merged = new Map(builtIn);
  if (workspace) {
    const own = { root: workspace, folder: 'personas' };
    for (const [id, persona] of readFolder(join(workspace, 'personas'), (abs) => abs, false, errors, own)) {
      merged.set(id, persona);
    }
  }
  const personas = [...merged.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { personas, errors };
}
