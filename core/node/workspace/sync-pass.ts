import type Database from 'better-sqlite3';
import { filesOfSlugs, planScan, planSync } from '../../sync/plan';
import type { FolderListing, IndexedIdea, IndexedStat, ScannedFile, SyncPlan } from '../../sync/types';
import type { Taxonomy } from '../../taxonomy/taxonomy';
import type { ReadTask } from '../fs/read-folder';
import { type RenderedIndex, readInOrder, renderIndexAside } from '../fs/read-pool';
import { ideaFolderNames, LISTING_SETTLE_MS, type StatShare, scanIdea, walkWithListings } from '../fs/scan';
import { nodeHasher } from '../hasher';
import { BulkLoader } from '../sqlite/bulk-load';
import {
  applySyncPlan,
  forgetFolderListings,
  idOwnerLookup,
  indexCounts,
  isIndexEmpty,
  loadFolderListings,
  loadIndexedIdeas,
  loadIndexedSlugs,
  loadIndexedStats,
  loadIndexedStatsOf,
  syncErrors,
  syncErrorsMentioning,
  writeFolderListings,
} from '../sqlite/index-sql';

export interface SyncReport {
  ideas: number;
  files: number;
  added: number;
  changed: number;
  removed: number;
  errors: { file: string; reason: string }[];
  durationMs: number;
  /** Slugs touched by this pass (not part of the `sync --json` shape's promise, but handy). */
  slugs: { added: string[]; changed: string[]; removed: string[] };
}

const CLASH = 'is already used by';

/** A walk and the index's record of the same files, taken before the pass (see `Workspace.sync`). */
export interface PassInput {
  /**
   * The walked files of the folders to compare, with size and mtime; null when the index was
   * empty, so there is nothing to compare with and each idea folder is walked as it is read.
   */
  scanned: ScannedFile[] | null;
  /** The index's files of the folders to compare. */
  indexed: Map<string, IndexedStat>;
  /**
   * The folders to compare with the index; null for every folder. A full pass leaves out folders
   * its walk confirmed unchanged against their recorded listings.
   */
  compare: ReadonlySet<string> | null;
  /** A full pass over an index with no rows at all (a first sync, a rebuild): it only inserts. */
  fromEmpty: boolean;
  /** Listings a full pass records or forgets with its rows (`forgetChanged`: also those of changed folders). */
  listings: { record: FolderListing[]; forget: string[]; forgetChanged: boolean } | null;
  /** Folders unchanged since this (wall clock) may have their listings recorded. */
  trustBefore: number;
  /** When the work for this pass began (the walk may come before the pass itself). */
  startedAt: number;
}

/** Above this many folders to compare, the index's whole file list is read in one go. */
const LOAD_ALL_ABOVE = 2000;

/**
 * Walks what a pass covers and loads what the index says about the same files. A full pass uses
 * the recorded folder listings (see `walkWithListings`); a `thorough` one also lists every folder.
 */
export function passInput(
  root: string,
  db: Database.Database,
  scope: ReadonlySet<string> | null,
  options: { thorough?: boolean; share?: StatShare } = {},
): PassInput {
  const startedAt = performance.now();
  const trustBefore = Date.now() - LISTING_SETTLE_MS;
  if (scope) {
    const scanned = [...scope].flatMap((slug) => scanIdea(root, slug));
    return {
      scanned,
      indexed: loadIndexedStatsOf(db, scope),
      compare: scope,
      fromEmpty: false,
      listings: null,
      trustBefore,
      startedAt,
    };
  }
  if (isIndexEmpty(db)) {
    return {
      scanned: null,
      indexed: new Map(),
      compare: null,
      fromEmpty: true,
      listings: null,
      trustBefore,
      startedAt,
    };
  }
  // A thorough pass lists every folder, comparing the recorded ones name by name, and records
  // nothing: the listings it would write are the ones already kept, except for folders found
  // changed, which it forgets (below).
  const thorough = options.thorough === true;
  const walk = walkWithListings(root, loadFolderListings(db), thorough ? Number.NEGATIVE_INFINITY : trustBefore, {
    share: options.share,
    listEvery: thorough,
  });
  // Compare what the walk could not confirm, and what the index has but the folder no longer does.
  const compare = new Set(walk.unconfirmed);
  const onDisk = new Set(walk.folders);
  for (const slug of loadIndexedSlugs(db)) if (!onDisk.has(slug)) compare.add(slug);
  let indexed: Map<string, IndexedStat>;
  if (compare.size > LOAD_ALL_ABOVE) {
    indexed = loadIndexedStats(db);
    for (const [path, file] of indexed) if (!compare.has(file.slug)) indexed.delete(path);
  } else indexed = loadIndexedStatsOf(db, compare);
  return {
    scanned: walk.files,
    indexed,
    compare,
    fromEmpty: false,
    listings: { record: walk.record, forget: walk.stale, forgetChanged: thorough },
    trustBefore,
    startedAt,
  };
}

/**
 * The folders a pass reads: every idea folder for a pass into an empty index, otherwise those whose
 * files differ from the index's record of them. An empty list means the pass changes no idea.
 */
export function passTasks(root: string, input: PassInput): ReadTask[] {
  const { scanned, indexed } = input;
  if (scanned === null) {
    return ideaFolderNames(root)
      .sort()
      .map((slug) => ({ slug, files: null }));
  }
  const { dirty } = planScan(indexed, scanned, input.compare ?? undefined);
  const bySlug = new Map<string, ScannedFile[]>();
  if (dirty.size > 0) {
    for (const file of scanned) {
      const slug = file.path.split('/')[1] as string;
      if (!dirty.has(slug)) continue;
      const list = bySlug.get(slug);
      if (list) list.push(file);
      else bySlug.set(slug, [file]);
    }
  }
  // A dirty folder with no files left is read as empty (its rows go), never walked again.
  return [...dirty].sort().map((slug) => ({ slug, files: bySlug.get(slug) ?? [] }));
}

/** A pass into an empty index found it filled by another process once it held the write lock. */
class FilledMeanwhile extends Error {}

/** What an empty index holds for any folder: a first sync's batches need not ask it. */
const NO_IDEAS: ReadonlyMap<string, IndexedIdea> = new Map();

/**
 * One sync pass: walk (all of `ideas/`, or only some folders), plan in core, apply in one transaction.
 * Returns the plan so callers can tell whether anything changed. `input` is the walk and index
 * record when the caller already took them.
 */
export function runSyncPass(
  root: string,
  db: Database.Database,
  taxonomy: Taxonomy,
  scope: ReadonlySet<string> | null,
  now: () => Date,
  input: PassInput = passInput(root, db, scope),
  tasks: ReadTask[] = passTasks(root, input),
): { plan: SyncPlan; report: SyncReport; indexText?: () => RenderedIndex } {
  const { indexed, startedAt: started } = input;
  const stamp = now().toISOString();
  const total = emptyPlan();
  const bulk = input.fromEmpty ? new BulkLoader(db, { now: stamp, tagCategory: taxonomy.tagCategory }) : null;
  // A load into an empty index knows every row it wrote, so it asks itself instead of the index.
  const ownerOf = bulk ? (id: string) => bulk.ownerOf(id) : idOwnerLookup(db);
  let indexText: (() => RenderedIndex) | undefined;
  // One transaction for the whole pass; inside it, folders go in batches (read ahead by worker
  // threads when there are many) so a first sync of a large library never holds every parsed file
  // in memory at once.
  bulk?.begin();
  try {
    const pass = db.transaction(() => {
      // Whether the index was empty was read before the write lock was held: another process's
      // first sync may have filled it since, and a load would then insert its rows again.
      if (bulk && !isIndexEmpty(db)) throw new FilledMeanwhile();
      bulk?.dropLateIndexes();
      readInOrder(
        root,
        tasks,
        BATCH,
        (folders) => {
          const batch = new Set(folders.map((f) => f.slug));
          const plan = planSync(folders, {
            taxonomy,
            hasher: nodeHasher,
            indexedFiles: filesOfSlugs(indexed, batch),
            indexedIdeas: bulk ? NO_IDEAS : loadIndexedIdeas(db, batch),
            ownerOf,
          });
          if (bulk) {
            bulk.write(plan);
            for (const folder of folders) if (folder.listings) bulk.recordListings(folder.listings);
          } else applySyncPlan(db, plan, { now: stamp, tagCategory: taxonomy.tagCategory });
          mergeInto(total, plan);
        },
        {
          trustBefore: input.fromEmpty ? input.trustBefore : undefined,
          idle: bulk ? () => bulk.writeText(0, IDLE_TEXT_ROWS) : undefined,
        },
      );
      // A first sync knows every idea it wrote, so `_index.md` needs no reading back, and a reader
      // thread the load has left idle renders it while this one finishes the load and commits.
      if (bulk) indexText = renderIndexAside(bulk.entries);
      bulk?.writeText();
      bulk?.buildLateIndexes();
      // Listings go with the rows they describe: recorded by a full pass, forgotten by any other.
      const { listings } = input;
      if (listings) writeFolderListings(db, listings.record, listings.forget);
      if (scope) forgetFolderListings(db, scope);
      else if (listings?.forgetChanged)
        forgetFolderListings(
          db,
          tasks.map((t) => t.slug),
        );
    });
    // A pass that will write takes the write lock at its start (`immediate`): it reads the index
    // before it writes, and a transaction that has read cannot wait for the lock (SQLite fails it at
    // once with "database is locked", whatever the busy timeout) while another process writes. A
    // pass that finds nothing to do writes nothing and leaves the lock to others.
    const { listings } = input;
    const writes =
      scope !== null ||
      tasks.length > 0 ||
      bulk !== null ||
      (listings !== null && listings.record.length + listings.forget.length > 0);
    if (writes) pass.immediate();
    else pass();
  } catch (error) {
    if (!(error instanceof FilledMeanwhile)) throw error;
    bulk?.end();
    return runSyncPass(root, db, taxonomy, scope, now);
  } finally {
    bulk?.end();
  }

  const counts = indexCounts(db);
  const report: SyncReport = {
    ...counts,
    added: total.added.length,
    changed: total.changed.length,
    removed: total.removed.length,
    errors: syncErrors(db),
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    slugs: { added: total.added, changed: total.changed, removed: total.removed },
  };
  return { plan: total, report, indexText };
}

/** Text rows indexed per look at whether the awaited batch has come (about a millisecond's work). */
const IDLE_TEXT_ROWS = 8;

/** Folders per batch of a pass: enough to keep SQLite busy, few enough to bound memory and to share out. */
const BATCH = 200;

function emptyPlan(): SyncPlan {
  return {
    upsertFiles: [],
    deleteFiles: [],
    upsertIdeas: [],
    deleteIdeas: [],
    clearErrorsFor: [],
    setErrors: [],
    added: [],
    changed: [],
    removed: [],
  };
}

/** Keeps what the report and the retry rule need; the rows themselves are already written. */
function mergeInto(total: SyncPlan, plan: SyncPlan): void {
  total.added.push(...plan.added);
  total.changed.push(...plan.changed);
  total.removed.push(...plan.removed);
  total.setErrors.push(...plan.setErrors);
}

/**
 * Folders that were refused because another folder held their id, where that other folder has just
 * gone (a rename seen in two passes): they deserve another look.
 */
export function foldersToRetry(db: Database.Database, plan: SyncPlan): Set<string> {
  const retry = new Set<string>();
  if (plan.removed.length === 0) return retry;
  for (const row of syncErrorsMentioning(db, CLASH)) {
    if (plan.removed.some((slug) => row.reason.includes(`ideas/${slug}/`))) retry.add(row.slug);
  }
  return retry;
}
