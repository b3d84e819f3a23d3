import { existsSync, linkSync, lstatSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { CouncilFiles, IdeaMetaView } from '../../council/files-port';
import { IDEAS_DIR, isTransientName } from '../../idea/layout';
import type { Clock } from '../../ports/clock';
import type { Ids } from '../../ports/ids';
import { conflictName, currentHash, readForEdit, safeWrite } from '../fs/atomic-write';
import { readInside } from '../fs/read-inside';
import { sha256 } from '../hasher';
import { ulidIds } from '../ids';
import { parseMarkdown } from '../markdown';

/**
 * The council's file port on a real workspace. Every write goes through `safeWrite` (atomic, and
 * never over a file changed since it was read: ours goes to a conflict copy); a removal takes the
 * file out of the way under a hidden name first and puts it back if it turns out to have changed.
 * A move is the council's own two halves (a copy placed, the original removed; core/council/execution.ts).
 */
export interface NodeCouncilFilesOptions {
  stages: readonly string[];
  search?: (query: string) => string[];
  clock?: Clock;
  ids?: Ids;
  /** Called with every workspace-relative path the council wrote or removed (to sync the index). */
  onChange?: (path: string) => void;
}

function hiddenBeside(abs: string): string {
  return join(dirname(abs), `.${basename(abs)}.crucible-keep-${randomBytes(6).toString('hex')}`);
}

export function nodeCouncilFiles(root: string, options: NodeCouncilFilesOptions): CouncilFiles {
  const clock = options.clock ?? { now: () => new Date() };
  const ids = options.ids ?? ulidIds;
  const abs = (path: string) => join(root, path);
  const changed = (path: string) => options.onChange?.(path);

  function readText(path: string) {
    try {
      return readForEdit(abs(path));
    } catch (error) {
      if ((error as { code?: string }).code === 'EISDIR') return null;
      throw error;
    }
  }

  function remove(path: string, expected: string | 'any'): { removed: boolean } {
    const target = abs(path);
    const now = currentHash(target);
    if (now === null || (expected !== 'any' && now !== expected)) return { removed: false };
    const keep = hiddenBeside(target);
    renameSync(target, keep);
    if (expected !== 'any' && currentHash(keep) !== expected) {
      // Saved in the instant between the check and the rename: the researcher's file goes back,
      // beside a newer one if one has appeared meanwhile.
      try {
        linkSync(keep, target);
      } catch {
        linkSync(keep, conflictName(target, clock.now()));
      }
      rmSync(keep, { force: true });
      return { removed: false };
    }
    rmSync(keep, { force: true });
    changed(path);
    pruneEmptied(path);
    return { removed: true };
  }

  /**
   * The folders inside an idea that a removal left empty, deepest first, the idea's own folder
   * included: a renamed idea leaves no folder under its old name, and a revert of a file the council
   * created leaves none of the folders made for it. A folder holding anything stays.
   */
  function pruneEmptied(path: string): void {
    for (let dir = dirname(path); dir.startsWith(`${IDEAS_DIR}/`); dir = dirname(dir)) {
      try {
        rmdirSync(abs(dir));
      } catch {
        return;
      }
    }
  }

  function listFiles(dir: string): string[] | null {
    const start = abs(dir);
    if (!existsSync(start) || !lstatSync(start).isDirectory()) return null;
    const out: string[] = [];
    const walk = (rel: string) => {
      for (const entry of readdirSync(abs(rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (isTransientName(entry.name)) continue;
        const child = `${rel}/${entry.name}`;
        if (entry.isDirectory()) walk(child);
        else if (entry.isFile()) out.push(child);
      }
    };
    walk(dir);
    return out;
  }

  return {
    read: readText,
    listFiles,
    ideaSlugs: () =>
      existsSync(abs(IDEAS_DIR))
        ? readdirSync(abs(IDEAS_DIR), { withFileTypes: true })
            .filter((e) => e.isDirectory() && !e.name.startsWith('_') && !isTransientName(e.name))
            .map((e) => e.name)
            .sort()
        : [],
    meta(slug): IdeaMetaView | null {
      const found = readText(`${IDEAS_DIR}/${slug}/README.md`);
      if (!found) return null;
      let data: Record<string, unknown> = {};
      try {
        data = parseMarkdown(found.text).data;
      } catch {
        // An unreadable frontmatter is an idea with no fields, as the sync treats it.
      }
      const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
      const tags = Array.isArray(data.tags) ? data.tags.map(String) : typeof data.tags === 'string' ? [data.tags] : [];
      const relationships = Array.isArray(data.relationships)
        ? data.relationships.flatMap((r) =>
            r && typeof r === 'object' && typeof (r as { target?: unknown }).target === 'string'
              ? [
                  {
                    target: String((r as { target: string }).target),
                    type: String((r as { type?: unknown }).type ?? ''),
                  },
                ]
              : [],
          )
        : [];
      return { id: str(data.id), title: str(data.title), stage: str(data.stage), tags, relationships };
    },
    stages: () => [...options.stages],
    search: (query) => options.search?.(query) ?? [],
    hashOf: (content) => sha256(content),
    snapshot(path) {
      try {
        return readInside(root, path).toString('base64');
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return null;
        throw error;
      }
    },
    write(path, content, expected) {
      const outcome = safeWrite(root, path, content, expected, clock.now());
      changed(outcome.path);
      return { path: outcome.path, conflict: outcome.conflict };
    },
    restore(path, snapshot, expected) {
      const outcome = safeWrite(root, path, Buffer.from(snapshot, 'base64'), expected, clock.now());
      changed(outcome.path);
      return { path: outcome.path, conflict: outcome.conflict };
    },
    remove,
    today: () => clock.now().toISOString().slice(0, 10),
    now: () => clock.now().toISOString(),
    newId: () => ids.newId(),
  };
}
