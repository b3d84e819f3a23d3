import type { IdeaMeta } from '../idea/frontmatter';
import type { IdeaFileKind } from '../idea/layout';

/** What the index remembers about one file of the workspace. */
export interface IndexedFile {
  path: string;
  slug: string;
  kind: IdeaFileKind;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the bytes; null for files we never read (assets, debate logs). */
  hash: string | null;
}

/** What a reconcile compares a walked file with: the size and mtime the index recorded. */
export type IndexedStat = Pick<IndexedFile, 'slug' | 'size' | 'mtimeMs'>;

/** One entry of a directory walk: enough to tell whether a file may have changed. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * Set for an entry the walk found but will not read (a symbolic link, an unreadable folder …):
   * why. It is indexed as a file row of kind `other` with its error, so that it is reported by
   * path, and its going away is noticed like any file's.
   */
  problem?: string;
}

/** A file of a dirty idea folder after the adapter read (and, for markdown, parsed) it. */
export interface ReadFile extends IndexedFile {
  inner: string;
  doc?: { data: unknown; body: string };
  /** Why the file could not be used (unreadable, binary, too large, bad YAML …). */
  error?: string;
}

export interface FolderSnapshot {
  slug: string;
  files: ReadFile[];
  /** How its folders looked when they were listed for this read (a first sync records them). */
  listings?: FolderListing[];
}

/**
 * What a full sync remembers of one folder it listed, so that a restart can skip listing it again
 * while its mtime and ctime are unchanged (entries added, removed or renamed change its ctime).
 */
export interface FolderListing {
  /** `ideas/<slug>` or a folder under it. */
  path: string;
  mtimeMs: number;
  ctimeMs: number;
  subfolders: string[];
  /** `name<TAB>size<TAB>mtimeMs` of each file directly in the folder, one per line, sorted by name. */
  files: string;
}

export interface IdeaRow {
  meta: IdeaMeta;
  folder: string;
  contentHash: string;
  /** Hash of everything stored for the idea; a different value means the idea changed. */
  rowHash: string;
  /** Content hash recorded by the idea's latest locked evaluation (from synthesis.md). */
  evaluatedHash: string | null;
  overallScore: number | null;
  confidence: number | null;
  evaluatedAt: string | null;
  evaluationId: string | null;
  redTeamSurvival: number | null;
  categoryScores: Record<string, number> | null;
  lockReason: string | null;
  recommendation: string | null;
  /** Markdown text of the idea's README, development, research and notes, for full-text search. */
  searchText: string;
}

export interface SyncErrorRow {
  path: string;
  reason: string;
}

/** The whole change to the index for one sync pass, applied by the store in one transaction. */
export interface SyncPlan {
  upsertFiles: IndexedFile[];
  deleteFiles: string[];
  upsertIdeas: IdeaRow[];
  deleteIdeas: string[];
  /** Slugs whose folder was looked at: their previous errors are cleared before `setErrors`. */
  clearErrorsFor: string[];
  setErrors: SyncErrorRow[];
  added: string[];
  changed: string[];
  removed: string[];
}

/** What the planner needs to know about an idea already in the index. */
export interface IndexedIdea {
  id: string;
  rowHash: string;
}

/**
 * A recorded listing as stored (path, mtimeMs, ctimeMs, subfolders joined by line breaks, files):
 * a restart reads one per folder of the library, so it stays a plain row.
 */
export type ListingRow = readonly [path: string, mtimeMs: number, ctimeMs: number, subfolders: string, files: string];
