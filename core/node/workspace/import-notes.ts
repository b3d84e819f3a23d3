import { createHash } from 'node:crypto';
import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { MAX_MARKDOWN_BYTES } from '../../idea/layout';
import { slugify } from '../../idea/slug';
import { idOwnerLookup } from '../sqlite/index-sql';
import { textIdea, UserError, type Workspace } from './workspace';

/** What became of one note of the folder; `file` is its path inside the folder, with `/`. */
export interface ImportedNote {
  file: string;
  slug: string;
  title: string;
}
export interface SkippedNote {
  file: string;
  slug: string;
  reason: string;
}
export interface FailedNote {
  file: string;
  reason: string;
}

export interface ImportReport {
  /** The folder as given, resolved. */
  source: string;
  created: ImportedNote[];
  /** Notes already imported before (by the same folder name and path, or the same `id`): left as they are. */
  skipped: SkippedNote[];
  errors: FailedNote[];
  /** Files that are not markdown (images, PDFs …) and hidden files and folders, left out. */
  ignored: number;
}

const NOTE = /\.(md|markdown)$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Imports a folder of markdown notes (an Obsidian vault, a Zettelkasten) as ideas: each note becomes
 * `ideas/<slug>/README.md` with its frontmatter and body (wiki links included) as they were, its
 * title from the frontmatter's `title` or else its first `#` heading, and its origin recorded in
 * `imported_from`. The folder is only read: nothing in it is written, moved or followed through a
 * link. A note that cannot be imported is reported by its path and the rest goes on; a note imported
 * before is skipped, so importing the same folder again adds only what is new in it.
 */
export function importNotes(ws: Workspace, dir: string, options: { type?: string; stage?: string } = {}): ImportReport {
  const source = checkSource(ws.root, dir);
  const report: ImportReport = { source, created: [], skipped: [], errors: [], ignored: 0 };
  const ownerOf = idOwnerLookup(ws.db);
  // Case-folded, as uniqueSlug compares: a folder `Idea` and a slug `idea` are one on some disks.
  const taken = new Map(ws.existingSlugs().map((s) => [s.toLowerCase(), s]));
  const idsThisRun = new Map<string, string>();
  const folderName = basename(source);

  for (const file of walk(source, report)) {
    const rel = relative(source, file).split(sep).join('/');
    try {
      const text = readNote(file, rel);
      const parsed = textIdea(text, basename(file), rel);
      const origin = `${folderName}/${rel}`;
      // A note's own id is kept; one without gets an id made from where it came from, so the same
      // note imported again is recognised even after its title changed.
      const ownId = parsed.data.id;
      const id =
        typeof ownId === 'string' || typeof ownId === 'number'
          ? String(ownId).trim()
          : `imported-${createHash('sha256').update(origin).digest('hex').slice(0, 24)}`;
      const before = ownerOf(id) ?? idsThisRun.get(id);
      if (before !== undefined) {
        report.skipped.push({ file: rel, slug: before, reason: `already imported as "${before}"; left as it is` });
        continue;
      }
      const slug = slugify(parsed.title);
      const holder = taken.get(slug.toLowerCase());
      if (holder !== undefined) {
        throw new UserError(
          `its title "${parsed.title}" gives the folder name "${slug}", which the idea "${holder}" already has: give the note a distinct \`title:\` in its frontmatter (or rename "${holder}") and import again`,
        );
      }
      ws.writeTextIdea(parsed, slug, { ...options, fields: { id, imported_from: origin } });
      taken.set(slug.toLowerCase(), slug);
      idsThisRun.set(id, slug);
      report.created.push({ file: rel, slug, title: parsed.title });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      report.errors.push({ file: rel, reason: error.message.replace(`${rel}: `, '') });
    }
  }
  // One pass indexes every new idea (and writes `_index.md` once), however many there are.
  if (report.created.length > 0) ws.syncSlugs(report.created.map((c) => c.slug));
  return report;
}

/** The folder to import, resolved; refused when it is not a folder or overlaps the workspace. */
function checkSource(root: string, dir: string): string {
  let source: string;
  try {
    source = realpathSync(dir);
  } catch {
    throw new UserError(`no folder at ${dir}`);
  }
  if (!statSync(source).isDirectory()) throw new UserError(`${dir} is not a folder (import takes a folder of notes)`);
  const workspace = realpathSync(root);
  const inside = (a: string, b: string) => {
    const rel = relative(b, a);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  if (inside(source, workspace) || inside(workspace, source)) {
    throw new UserError(
      `${dir} and the workspace ${root} overlap: import a folder of notes from outside the workspace`,
    );
  }
  return source;
}

/**
 * The markdown files under `dir`, in a stable order (sorted by name, folder by folder). Hidden
 * entries (`.obsidian/`, `.git/`, `.trash/`) and other files are counted as ignored; a symbolic link
 * is never followed: it is reported, naming where it points when that is outside the folder.
 */
function* walk(dir: string, report: ImportReport, root = dir): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    report.errors.push({ file: relative(root, dir) || '.', reason: `cannot list it: ${(error as Error).message}` });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.name.startsWith('.')) {
      report.ignored++;
      continue;
    }
    if (entry.isSymbolicLink()) {
      if (!NOTE.test(entry.name) && !isLinkedFolder(path)) {
        report.ignored++;
        continue;
      }
      const rel = relative(root, path).split(sep).join('/');
      report.errors.push({ file: rel, reason: linkReason(root, path) });
      continue;
    }
    if (entry.isDirectory()) yield* walk(path, report, root);
    else if (entry.isFile() && NOTE.test(entry.name)) yield path;
    else report.ignored++;
  }
}

function isLinkedFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function linkReason(root: string, path: string): string {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return 'is a symbolic link to nothing (broken); not imported';
  }
  const rel = relative(root, target);
  const outside = rel.startsWith('..') || isAbsolute(rel);
  return outside
    ? `is a symbolic link to ${target}, outside the folder; links are not followed, so it was not imported`
    : `is a symbolic link to ${rel.split(sep).join('/')} in the folder; links are not followed (that note is imported on its own)`;
}

/** A note's text: refused when too big for a README or not UTF-8, before it is decoded. */
function readNote(file: string, rel: string): string {
  const size = lstatSync(file).size;
  if (size > MAX_MARKDOWN_BYTES) {
    throw new UserError(
      `it is ${(size / (1024 * 1024)).toFixed(1)} MiB, and an idea's README holds at most ${MAX_MARKDOWN_BYTES / (1024 * 1024)} MiB (split the note, or attach it to an idea instead)`,
    );
  }
  const bytes = readFileSync(file);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UserError(`${rel}: it is not UTF-8 text (save it as UTF-8 and import again)`);
  }
}
