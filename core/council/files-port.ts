/**
 * How the council reaches the workspace: small file operations, each safe (never clobbering a file
 * changed since it was read) and atomic. The Node adapter (`core/node/council/council-files.ts`)
 * goes through the workspace's safe writes; tests use an in-memory one. Paths are workspace-relative.
 */
export interface FileText {
  text: string;
  /** Hash of the exact bytes `text` came from: what a write is made against. */
  hash: string;
}

/** What an idea's README frontmatter says, as far as the council's tools need it. */
export interface IdeaMetaView {
  id: string | null;
  title: string | null;
  stage: string | null;
  tags: string[];
  relationships: { target: string; type: string }[];
}

export interface WriteReport {
  /** Where our content went: the path, or a conflict copy beside it. */
  path: string;
  conflict: boolean;
}

export interface CouncilFiles {
  read(path: string): FileText | null;
  /** Every file under a folder, recursively, as workspace-relative paths in a stable order (null: no folder). */
  listFiles(dir: string): string[] | null;
  /** The folder names under `ideas/`. */
  ideaSlugs(): string[];
  meta(slug: string): IdeaMetaView | null;
  /** The lifecycle stages of the workspace's taxonomy. */
  stages(): string[];
  search(query: string): string[];
  hashOf(content: string): string;
  /** The bytes of a file, as an opaque string `restore` takes back (null: no file). */
  snapshot(path: string): string | null;
  /**
   * Writes `content` if the file still hashes `expected` (null: only if there is no file; 'any': a
   * file the app owns outright). Otherwise our version goes to a conflict copy beside it.
   */
  write(path: string, content: string, expected: string | null | 'any'): WriteReport;
  /** Puts a snapshot's bytes back, with the same rule as `write`. */
  restore(path: string, snapshot: string, expected: string | null): WriteReport;
  /**
   * Removes the file only if it still hashes `expected`; a changed file stays. A folder inside an
   * idea that the removal leaves empty goes too (the idea's own folder included), so a file the
   * council created and a revert removed leaves no trace; putting a file back makes its folders again.
   */
  remove(path: string, expected: string | 'any'): { removed: boolean };
  /** The date (YYYY-MM-DD) an edit writes into `updated:`. */
  today(): string;
  /** The moment, as an ISO string, for the council's own records. */
  now(): string;
  newId(): string;
}
