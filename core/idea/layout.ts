/**
 * Where things live in a workspace (all paths relative to the workspace, with forward slashes).
 *
 *   ideas/<slug>/README.md, development.md, research/*.md, notes/*.md, assets/*,
 *   evaluation.md, redteam.md, synthesis.md, debates/<id>.jsonl|md
 */
export const IDEAS_DIR = 'ideas';
export const INDEX_FILE = 'ideas/_index.md';
export const MAX_MARKDOWN_BYTES = 2 * 1024 * 1024;

export type IdeaFileKind =
  | 'readme'
  | 'development'
  | 'research'
  | 'note'
  | 'asset'
  | 'evaluation'
  | 'redteam'
  | 'synthesis'
  | 'debate'
  | 'conflict'
  | 'other';

/** Files whose content defines the idea: a change to any of them makes an evaluation stale. */
export const INPUT_KINDS: ReadonlySet<IdeaFileKind> = new Set(['readme', 'development', 'research']);

/** Kinds read as markdown (frontmatter + body) during sync. */
export const MARKDOWN_KINDS: ReadonlySet<IdeaFileKind> = new Set([
  'readme',
  'development',
  'research',
  'note',
  'evaluation',
  'redteam',
  'synthesis',
]);

export interface IdeaFilePath {
  slug: string;
  /** Path inside the idea folder, e.g. `research/prior-art.md`. */
  inner: string;
  kind: IdeaFileKind;
}

/**
 * Names that editors and the app itself leave behind for a moment (swap files, backups, our temp
 * files); they are never indexed and their events never trigger a sync.
 */
export function isTransientName(name: string): boolean {
  return (
    name.startsWith('.') ||
    name.endsWith('~') ||
    name.startsWith('#') ||
    /\.(swp|swx|swo|tmp|part|crdownload)$/i.test(name) ||
    name === '4913' // vim probes a folder's writability with this name
  );
}

/** Classifies a workspace-relative path; `null` when it is not inside an idea folder. */
export function classifyPath(path: string): IdeaFilePath | null {
  const parts = path.split('/');
  if (parts.length < 3 || parts[0] !== IDEAS_DIR) return null;
  const slug = parts[1] as string;
  if (slug.startsWith('_') || isTransientName(slug)) return null;
  const rest = parts.slice(2);
  if (rest.some(isTransientName)) return null;
  const inner = rest.join('/');
  const name = rest[rest.length - 1] as string;
  const isMd = /\.md$/i.test(name);
  let kind: IdeaFileKind = 'other';
  if (/\.conflict-[^/]*\.md$/i.test(name)) kind = 'conflict';
  else if (rest.length === 1) {
    const lower = name.toLowerCase();
    if (lower === 'readme.md') kind = 'readme';
    else if (lower === 'development.md') kind = 'development';
    else if (lower === 'evaluation.md') kind = 'evaluation';
    else if (lower === 'redteam.md') kind = 'redteam';
    else if (lower === 'synthesis.md') kind = 'synthesis';
  } else if (rest[0] === 'research' && isMd) kind = 'research';
  else if (rest[0] === 'notes' && isMd) kind = 'note';
  else if (rest[0] === 'assets') kind = 'asset';
  else if (rest[0] === 'debates') kind = 'debate';
  return { slug, inner, kind };
}

export function ideaFolder(slug: string): string {
  return `${IDEAS_DIR}/${slug}`;
}

export function ideaFile(slug: string, inner: string): string {
  return `${IDEAS_DIR}/${slug}/${inner}`;
}
