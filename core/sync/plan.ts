import { ideaContentHash } from '../idea/content-hash';
import { readIdeaFrontmatter } from '../idea/frontmatter';
import { classifyPath, ideaFolder } from '../idea/layout';
import type { Hasher } from '../ports/hash';
import type { Taxonomy } from '../taxonomy/taxonomy';
import { searchableText } from '../text/searchable-text';
import type { FolderSnapshot, IdeaRow, IndexedIdea, IndexedStat, ScannedFile, SyncErrorRow, SyncPlan } from './types';

/**
 * Step one of a sync: compare a directory walk with the index and decide which idea folders must be
 * read. A file whose size and modification time are unchanged is not read again; any new, changed or
 * vanished file makes its whole folder dirty (folders are small, and an idea's row depends on all of
 * its inputs together).
 *
 * `scope` limits the comparison to some folders (the watcher's incremental passes); without it the
 * whole workspace is reconciled and indexed files that no longer exist are found too. `scanned` is a
 * directory walk, so each path appears once.
 *
 * A restart compares every file of the library, so the common case is kept cheap: a known, unchanged
 * file costs one map lookup, and vanished files are looked for only when fewer known files were seen
 * than the index holds.
 */
export function planScan(
  indexed: ReadonlyMap<string, IndexedStat>,
  scanned: readonly ScannedFile[],
  scope?: ReadonlySet<string>,
): { dirty: Set<string>; unchanged: number } {
  const dirty = new Set<string>();
  let unchanged = 0;
  let knownSeen = 0;
  for (const file of scanned) {
    const known = indexed.get(file.path);
    if (known !== undefined) {
      knownSeen++;
      if (known.size === file.size && known.mtimeMs === file.mtimeMs) unchanged++;
      else dirty.add(known.slug);
      continue;
    }
    const where = classifyPath(file.path);
    if (where) dirty.add(where.slug);
    // A reported entry may be the idea folder itself (`ideas/<slug>` as a link): still its folder's.
    else if (file.problem !== undefined) dirty.add(file.path.split('/')[1] as string);
  }
  let inScope = 0;
  if (scope) {
    for (const known of indexed.values()) if (scope.has(known.slug)) inScope++;
  } else inScope = indexed.size;
  if (knownSeen < inScope) {
    const seen = new Set(scanned.map((f) => f.path));
    for (const [path, known] of indexed) {
      if (scope && !scope.has(known.slug)) continue;
      if (!seen.has(path)) dirty.add(known.slug);
    }
  }
  return { dirty, unchanged };
}

interface PlanContext {
  taxonomy: Taxonomy;
  hasher: Hasher;
  /** Files the index holds for the dirty folders (to find the ones that vanished). */
  indexedFiles: ReadonlyMap<string, Pick<IndexedStat, 'slug'>>;
  indexedIdeas: ReadonlyMap<string, IndexedIdea>;
  /** The folder the index records for an idea id, to catch two folders claiming one id. */
  ownerOf: (id: string) => string | undefined;
}

type EvaluationSummary = Pick<
  IdeaRow,
  | 'evaluatedHash'
  | 'overallScore'
  | 'confidence'
  | 'evaluatedAt'
  | 'evaluationId'
  | 'redTeamSurvival'
  | 'categoryScores'
  | 'lockReason'
  | 'recommendation'
>;

const NO_EVALUATION: EvaluationSummary = {
  evaluatedHash: null,
  overallScore: null,
  confidence: null,
  evaluatedAt: null,
  evaluationId: null,
  redTeamSurvival: null,
  categoryScores: null,
  lockReason: null,
  recommendation: null,
};

/** The numbers of the idea's current locked evaluation, read back from `synthesis.md`'s frontmatter. */
function synthesisSummary(data: unknown): EvaluationSummary {
  const record = (data ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const completed = record.completedAt;
  const categories = record.categoryScores;
  let categoryScores: Record<string, number> | null = null;
  if (categories && typeof categories === 'object' && !Array.isArray(categories)) {
    categoryScores = {};
    for (const [k, v] of Object.entries(categories)) if (typeof v === 'number') categoryScores[k] = v;
  }
  return {
    evaluatedHash: text(record.contentHashAtEvaluation),
    overallScore: num(record.overallScore),
    confidence: num(record.overallConfidence),
    evaluatedAt: completed instanceof Date ? completed.toISOString() : text(completed),
    evaluationId: text(record.evaluationId),
    redTeamSurvival: num(record.redTeamSurvivalRate),
    categoryScores,
    lockReason: text(record.lockReason),
    recommendation: text(record.recommendation),
  };
}

/**
 * Which rule made the search text (see `searchableText`). A new rule needs a migration that has every
 * folder read again (as step 8 did) and a new value here, so that the rows it rereads are rewritten.
 */
const SEARCH_TEXT_RULE = 'search-text:2 (without HTML comments)';

/**
 * Which rule made an idea's row from its README (`readIdeaFrontmatter`). The row hash stands for
 * the README by the hash of its bytes, not by the fields read from it, so a change to how fields are
 * read needs a new value here (and, like a new search-text rule, a migration that rereads folders).
 */
const ROW_RULE = 'row:3 (fields from the README, by its bytes; secondary types in the search text)';

/**
 * Step two: from the freshly read dirty folders, the exact rows to write and delete. Pure: the same
 * folders and index always give the same plan, which is what the tests pin.
 */
export function planSync(folders: readonly FolderSnapshot[], context: PlanContext): SyncPlan {
  const plan: SyncPlan = {
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
  const dirtySlugs = new Set(folders.map((f) => f.slug));
  // Ids claimed in this plan; ids held by folders being re-planned count as released, so a rename or
  // an id edit in one folder does not look like a clash with its own old row.
  const claimed = new Map<string, string>();
  const ownerOf = (id: string): string | undefined => {
    const mine = claimed.get(id);
    if (mine !== undefined) return mine;
    const indexed = context.ownerOf(id);
    return indexed !== undefined && !dirtySlugs.has(indexed) ? indexed : undefined;
  };

  const sorted = [...folders].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  for (const folder of sorted) {
    plan.clearErrorsFor.push(folder.slug);
    const present = new Set(folder.files.map((f) => f.path));
    for (const [path, known] of context.indexedFiles) {
      if (known.slug === folder.slug && !present.has(path)) plan.deleteFiles.push(path);
    }
    for (const file of folder.files) {
      const { inner: _inner, doc: _doc, error: _error, ...row } = file;
      plan.upsertFiles.push(row);
      if (file.error) plan.setErrors.push({ path: file.path, reason: file.error });
    }

    const previous = context.indexedIdeas.get(folder.slug);
    const row = planIdea(folder, context, ownerOf, plan.setErrors);
    if (row === 'keep') continue;
    if (row === null) {
      if (previous) {
        plan.deleteIdeas.push(folder.slug);
        plan.removed.push(folder.slug);
      }
      continue;
    }
    claimed.set(row.meta.id, folder.slug);
    if (!previous) plan.added.push(folder.slug);
    else if (previous.rowHash !== row.rowHash) plan.changed.push(folder.slug);
    else continue;
    plan.upsertIdeas.push(row);
  }
  return plan;
}

/** The idea row of one folder; `null` when the folder holds no idea, `'keep'` to leave the old row. */
function planIdea(
  folder: FolderSnapshot,
  context: PlanContext,
  ownerOf: (id: string) => string | undefined,
  errors: SyncErrorRow[],
): IdeaRow | null | 'keep' {
  const readme = folder.files.find((f) => f.kind === 'readme');
  if (!readme) return null;
  const hadRow = context.indexedIdeas.has(folder.slug);
  // A README that cannot be used right now (a half-typed edit, say) keeps the last good row, so the
  // idea does not vanish from the library while the researcher is typing; the error says why.
  if (readme.error || !readme.doc) return hadRow ? 'keep' : null;

  const result = readIdeaFrontmatter(readme.doc.data, {
    slug: folder.slug,
    body: readme.doc.body,
    taxonomy: context.taxonomy,
  });
  if (!result.ok) {
    for (const problem of result.problems) errors.push({ path: readme.path, reason: problem });
    return hadRow ? 'keep' : null;
  }
  const meta = result.meta;
  const owner = ownerOf(meta.id);
  if (owner !== undefined && owner !== folder.slug) {
    errors.push({
      path: readme.path,
      reason: `id: "${meta.id}" is already used by ${ideaFolder(owner)}/README.md (give this copy a new id)`,
    });
    return hadRow ? 'keep' : null;
  }

  const hashes = folder.files
    .filter((f) => f.hash !== null)
    .map((f) => ({ inner: f.inner, kind: f.kind, hash: f.hash as string }));
  const contentHash = ideaContentHash(hashes, context.hasher);

  const synthesis = folder.files.find((f) => f.kind === 'synthesis' && f.doc && !f.error);
  const evaluation = synthesis ? synthesisSummary(synthesis.doc?.data) : NO_EVALUATION;

  const textFiles = folder.files
    .filter(
      (f) =>
        f.doc &&
        !f.error &&
        (f.kind === 'readme' || f.kind === 'development' || f.kind === 'research' || f.kind === 'note'),
    )
    .sort((a, b) => (a.inner < b.inner ? -1 : a.inner > b.inner ? 1 : 0));
  const searchText = textFiles.map((f) => searchableText(f.doc?.body ?? '')).join('\n\n');
  // The row is a function of the folder's name, of its files' bytes and of the rules that read them,
  // so the row hash is made of those: the text files' paths and hashes (the README among them, which
  // is where the fields come from), the content hash, the evaluation read from `synthesis.md`, and
  // the rules' versions. Serializing the fields and the text themselves cost more than the rest of
  // planning a row (~110 of ~220 ms for 10,000 ideas).
  const textSources = [SEARCH_TEXT_RULE, ...textFiles.map((f) => `${f.inner}\t${f.hash}`)];

  const evaluated = evaluation === NO_EVALUATION ? null : evaluation;
  const rowHash = context.hasher.sha256(JSON.stringify([ROW_RULE, folder.slug, contentHash, evaluated, textSources]));
  return { meta, folder: ideaFolder(folder.slug), contentHash, rowHash, ...evaluation, searchText };
}

/** Groups indexed files by the slug of their folder (used to hand the planner only what it needs). */
export function filesOfSlugs<T extends Pick<IndexedStat, 'slug'>>(
  indexed: ReadonlyMap<string, T>,
  slugs: ReadonlySet<string>,
): Map<string, T> {
  const out = new Map<string, T>();
  for (const [path, file] of indexed) if (slugs.has(file.slug)) out.set(path, file);
  return out;
}
