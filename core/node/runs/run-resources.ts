import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResources } from '../../engine/registry';
import { parseMarkdown } from '../markdown';
import type { Persona } from '../../personas/persona';
import { readTextInside } from '../fs/read-inside';
import { loadPersonas } from '../personas/load-personas';
import { ideaFiles } from '../sqlite/index-sql';
import type { Workspace } from '../workspace/workspace';

/**
 * The workspace as every protocol reads it (core/engine/registry.ts `RunResources`): personas as
 * loaded now (built-in ones and the workspace's `personas/`, read once per run), files read inside
 * the workspace and never through a link, an idea's inputs, the taxonomy.
 */
export function workspaceResources(ws: Workspace): RunResources {
  let personas: Map<string, Persona> | null = null;
  return {
    persona(id) {
      personas ??= new Map(loadPersonas(ws.root).personas.map((p) => [p.id, p]));
      return personas.get(id);
    },
    read(rel) {
      if (!existsSync(join(ws.root, rel))) return null;
      return readTextInside(ws.root, rel);
    },
    ideaText(slug) {
      const parts: string[] = [];
      for (const file of ideaFiles(ws.db, slug)) {
        if (!['readme', 'development', 'research'].includes(file.kind)) continue;
        try {
          parts.push(
            `## ${file.path.split('/').slice(2).join('/')}\n\n${parseMarkdown(readTextInside(ws.root, file.path)).body.trim()}`,
          );
        } catch {
          // An unreadable file is reported by sync; the run reads the rest.
        }
      }
      return parts.join('\n\n');
    },
    get taxonomy() {
      return ws.taxonomy;
    },
  };
}
