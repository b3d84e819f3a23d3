import type { FolderListing, FolderSnapshot, ReadFile } from '../../sync/types';

/**
 * Read folders as flat arrays, for the trip from a reader thread to the pass. Copying a value between
 * threads writes and reads every object's keys along with its values, and a file of a folder has
 * eight of them; a flat array has none. The frontmatter (`doc.data`) travels as it is.
 *
 * Layout, per folder: `[slug, files, listings]`, where `files` holds `FILE_FIELDS` values per file
 * and `listings` `LISTING_FIELDS` per listing (or is null when the read described none).
 */
export type PackedFolder = [slug: string, files: unknown[], listings: unknown[] | null];

const FILE_FIELDS = 8;
const LISTING_FIELDS = 5;

/**
 * Self-contained on purpose (it uses nothing but its argument and JavaScript's globals): a reader
 * thread runs its source text (see `read-pool.ts`). A file's slug is its folder's, so it is not sent.
 */
export function packFolders(folders: readonly FolderSnapshot[]): PackedFolder[] {
  const out: PackedFolder[] = [];
  for (const folder of folders) {
    const files: unknown[] = [];
    for (const f of folder.files) {
      files.push(f.path, f.kind, f.inner, f.size, f.mtimeMs, f.hash, f.doc, f.error);
    }
    let listings: unknown[] | null = null;
    if (folder.listings) {
      listings = [];
      for (const l of folder.listings) listings.push(l.path, l.mtimeMs, l.ctimeMs, l.subfolders, l.files);
    }
    out.push([folder.slug, files, listings]);
  }
  return out;
}

/** The folders `packFolders` was given, as equal objects (absent optional fields stay absent). */
export function unpackFolders(packed: readonly PackedFolder[]): FolderSnapshot[] {
  const out: FolderSnapshot[] = [];
  for (const [slug, flat, flatListings] of packed) {
    const files: ReadFile[] = [];
    for (let i = 0; i < flat.length; i += FILE_FIELDS) {
      const file: ReadFile = {
        path: flat[i] as string,
        slug,
        kind: flat[i + 1] as ReadFile['kind'],
        inner: flat[i + 2] as string,
        size: flat[i + 3] as number,
        mtimeMs: flat[i + 4] as number,
        hash: flat[i + 5] as string | null,
      };
      const doc = flat[i + 6] as ReadFile['doc'];
      const error = flat[i + 7] as string | undefined;
      if (error !== undefined) file.error = error;
      if (doc !== undefined) file.doc = doc;
      files.push(file);
    }
    if (flatListings === null) {
      out.push({ slug, files });
      continue;
    }
    const listings: FolderListing[] = [];
    for (let i = 0; i < flatListings.length; i += LISTING_FIELDS) {
      listings.push({
        path: flatListings[i] as string,
        mtimeMs: flatListings[i + 1] as number,
        ctimeMs: flatListings[i + 2] as number,
        subfolders: flatListings[i + 3] as string[],
        files: flatListings[i + 4] as string,
      });
    }
    out.push({ slug, files, listings });
  }
  return out;
}
