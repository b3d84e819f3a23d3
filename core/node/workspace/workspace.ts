import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { firstLine } from '../../idea/first-line';
import { normalizeDate, readIdeaFrontmatter } from '../../idea/frontmatter';
import { firstHeading, firstHeadingAt, firstParagraph, withoutFirstHeading } from '../../idea/headings';
import { setFrontmatterField } from '../../idea/frontmatter-edit';
import { identitiesIn, identityMarker } from '../../capture/identity';
import { INDEX_MARKER, renderIndex } from '../../idea/index-md';
import { IDEAS_DIR, INDEX_FILE, ideaFile, MAX_MARKDOWN_BYTES } from '../../idea/layout';
import type { RelationshipType } from '../../idea/relationships';
import { uniqueSlug } from '../../idea/slug';
import type { Clock } from '../../ports/clock';
import type { Ids } from '../../ports/ids';
import type { Taxonomy } from '../../taxonomy/taxonomy';
import { searchableText } from '../../text/searchable-text';
import { snippetOf } from '../../text/snippet';
import { renderTemplate } from '../../text/template';
import { storedName } from '../fs/asset-name';
import { readForEdit, safeWrite, type WriteOutcome } from '../fs/atomic-write';
import { generatedTextInside } from '../fs/generated-text';
import { readTextInside } from '../fs/read-inside';
import type { RenderedIndex } from '../fs/read-pool';
import { ulidIds } from '../ids';
import { parseMarkdown } from '../markdown';
import { indexDataVersion } from '../sqlite/data-version';
import {
  countIdeaMatches,
  getIdea,
  ideaSlugs,
  getMeta,
  type IdeaFilter,
  type IdeaListRow,
  ideaFiles,
  ideaRelationships,
  indexEntries,
  listIdeas,
  queryTerms,
  type SearchHit,
  searchIdeas,
  setMeta,
  syncErrors,
} from '../sqlite/index-sql';
import { openIndexDeferred, type PendingIndex, settleIndex, settleRest } from '../sqlite/open';
import { releaseLeasesOf } from '../sqlite/run-leases';
import { loadTaxonomy, loadTemplates, type Templates } from '../taxonomy-loader';
import { foldersToRetry, type PassInput, passInput, passTasks, runSyncPass, type SyncReport } from './sync-pass';

/** A mistake in what the user asked for (unknown idea, bad stage …): one line, exit code 1. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

export interface WorkspaceOptions {
  clock?: Clock;
  ids?: Ids;
}

export interface CaptureResult {
  slug: string;
  path: string;
  idea: IdeaListRow | null;
  conflict: boolean;
}

/** What a capture placed by the orchestrator adds to a new idea (core/node/capture/capture-service.ts). */
export interface CaptureExtras {
  /** Recorded in the README beside the text (`<!-- captured: … -->`), so the same text is recognised later. */
  identity?: string;
  /** Links the new idea starts with (`inspired_by` the idea it grew from), as its frontmatter lists them. */
  relationships?: NewLink[];
}

export interface NewLink {
  target: string;
  type: RelationshipType;
  strength?: number;
  reason?: string;
}

export interface AppendResult {
  idea: IdeaListRow | null;
  /** The README, or the conflict copy beside it when the README changed meanwhile. */
  path: string;
  conflict: boolean;
  /** False when the README already records this text (nothing was written). */
  appended: boolean;
}

const systemClock: Clock = { now: () => new Date() };
const TEXT_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.text']);
/** How long a record of the app's own write is kept to recognise the watcher's echo of it. */
const OWN_WRITE_TTL_MS = 10_000;

/**
 * An open workspace: the folder, its index and the app's operations on both. The folder is the
 * truth; every write goes through `safeWrite` and is indexed at once.
 */
export class Workspace {
  private readonly ownWrites = new Map<string, { size: number; mtimeMs: number; at: number }>();
  private readonly listeners = new Set<(report: SyncReport) => void>();
  private indexDirty = false;
  /** Passes of this process that rewrote some folder's rows of files (see `indexVersion`). */
  private filesRewritten = 0;
  /** The index's `data_version` as the last watched pass left it (see `withOthersChanges`). */
  private watchedDataVersion: number | null = null;
  /** The ideas this process's listeners know of (see `withOthersChanges`); null before the first pass. */
  private knownSlugs: Set<string> | null = null;
  private indexTimer: NodeJS.Timeout | null = null;
  /**
   * The text of `_index.md` that the last pass that changed the index brought with it (a first sync
   * renders it on a reader thread as it loads); null when that pass brought none.
   */
  private indexText: (() => RenderedIndex) | null = null;
  /** How many times `_index.md` was made from a pass's own text, and from the index (diagnostics). */
  readonly indexRenders = { fromPass: 0, fromIndex: 0 };
  /**
   * When set, `_index.md` is regenerated this long after the last change instead of within the
   * pass: a watcher following a burst of edits then rewrites it once, and no edit waits for it.
   */
  deferIndexMs: number | null = null;
  /**
   * The rest of the integrity check (the full-text index, the file's page accounting) once the
   * index's tables have passed theirs: awaited before the full-text index is read or a pass may
   * change ideas (see `checkFully`).
   */
  private unverified: PendingIndex | null = null;

  private constructor(
    readonly root: string,
    private handle: Database.Database,
    /** The background integrity check of the index, until someone needs a trusted index. */
    private pending: PendingIndex | null,
    private rebuiltAs: null | 'missing' | 'corrupt',
    readonly taxonomy: Taxonomy,
    readonly templates: Templates,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  static open(root: string, options: WorkspaceOptions = {}): Workspace {
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      throw new UserError(`no workspace at ${root} (create one with: npm run cli -- init ${root})`);
    }
    if (!existsSync(join(root, IDEAS_DIR))) {
      throw new UserError(
        `${root} is not a workspace: it has no ${IDEAS_DIR}/ folder (create one with: npm run cli -- init DIR)`,
      );
    }
    // The index's quick_check starts first, on its own thread, so that it runs while this thread
    // loads the taxonomy and (in `sync`) walks the folder.
    const indexPath = join(root, '.crucible', 'index.db');
    checkIndexPlace(indexPath);
    const opened = openIndexDeferred(indexPath);
    const taxonomy = loadTaxonomy(root);
    const templates = loadTemplates(root);
    const pending = 'check' in opened ? opened : null;
    const rebuilt = 'check' in opened ? null : opened.rebuilt;
    return new Workspace(
      root,
      opened.db,
      pending,
      rebuilt,
      taxonomy,
      templates,
      options.clock ?? systemClock,
      options.ids ?? ulidIds,
    );
  }

  /**
   * The index, once `PRAGMA quick_check` has passed its tables (a damaged index is rebuilt empty
   * first and the next `sync` fills it from the folder). The first use waits for that part of the
   * background check; the full-text index's part goes on until `checkFully` needs it.
   */
  get db(): Database.Database {
    this.settle();
    return this.handle;
  }

  /**
   * Why the index was (re)built from scratch since the workspace opened, or null while it is the one
   * that was there. Damage only the full-text part of the check sees turns it to 'corrupt' later,
   * when `checkFully` meets it.
   */
  get rebuilt(): null | 'missing' | 'corrupt' {
    this.settle();
    return this.rebuiltAs;
  }

  private settle(): void {
    if (!this.pending) return;
    const opened = settleIndex(this.pending);
    this.pending = null;
    this.unverified = opened.rest;
    this.handle = opened.db;
    this.rebuiltAs = opened.rebuilt;
  }

  /**
   * Waits for the whole integrity check of the index, the full-text index included. Until then a
   * restart that finds nothing changed needs only the tables (a fifth of the check); search and every
   * pass that changes ideas wait here. An index found damaged is rebuilt empty and filled from the
   * folder at once: the report of that sync is returned, null when the index was sound.
   */
  checkFully(): SyncReport | null {
    this.settle();
    if (!this.unverified) return null;
    const opened = settleRest(this.unverified);
    this.unverified = null;
    if (opened.rebuilt === null) return null;
    this.handle = opened.db;
    this.rebuiltAs = opened.rebuilt;
    return this.sync();
  }

  close(): void {
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
    if (this.pending) {
      // Closed before anything was read: nothing to trust or write, only the check to stop.
      this.pending.check.stop();
      this.pending = null;
    }
    this.unverified?.check.stop();
    this.unverified = null;
    if (this.indexDirty && this.handle.open) this.writeIndexNow();
    if (this.handle.open) {
      // Runs still held through this index end with it (one paused at shutdown resumes elsewhere).
      releaseLeasesOf(this.handle);
      this.handle.close();
    }
  }

  /**
   * `text`: gives the text of `_index.md`, when the pass already has it on the way (a first sync).
   * It is kept until `_index.md` is written, also when that is deferred (a watcher's first sync), and
   * dropped by any later change, which it would not show.
   */
  private indexChanged(text?: () => RenderedIndex): void {
    this.indexDirty = true;
    this.indexText = text ?? null;
    if (this.deferIndexMs === null) {
      this.writeIndexNow();
      return;
    }
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = setTimeout(() => {
      this.indexTimer = null;
      if (this.db.open) this.writeIndexNow();
    }, this.deferIndexMs);
    this.indexTimer.unref();
  }

  private writeIndexNow(): void {
    this.indexDirty = false;
    const text = this.indexText;
    this.indexText = null;
    if (text) {
      this.indexRenders.fromPass++;
      this.writeIndex(text().text);
    } else this.regenerateIndex();
  }

  /**
   * A value that changes whenever the index's rows may have changed: after a pass of this process
   * that rewrote the rows of some folder's files (`onChange` is told only when an idea's row
   * changed), or a commit by another process (the command line, a second window). What is kept
   * from the index's files may be keyed on it.
   */
  indexVersion(): string {
    return `${this.filesRewritten}:${indexDataVersion(this.db)}`;
  }

  /** Called with the report of every pass that changed the index. */
  onChange(listener: (report: SyncReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Full reconcile: the whole folder against the whole index. Folders whose recorded listing and
   * files are unchanged are confirmed without listing them again; `thorough` lists every folder.
   */
  sync(options: { thorough?: boolean } = {}): SyncReport {
    return this.pass(null, options.thorough === true);
  }

  /**
   * Incremental pass over some idea folders. `watched`: the watcher saw their files change, made by
   * another program (its own writes are not reported), so what they hold is news to the app's
   * views even when another process indexed it first (see `withOthersChanges`).
   */
  syncSlugs(slugs: Iterable<string>, options: { watched?: boolean } = {}): SyncReport {
    return this.pass(new Set(slugs), false, options.watched === true);
  }

  /**
   * A watched pass's report with the ideas another process changed and indexed before this pass
   * looked (the command line evaluating an idea while the app is open): the pass found their rows
   * already up to date and reports nothing, yet what the app shows of them changed. They are told
   * as added, changed or removed by the slugs this process knew; a folder that never was an idea
   * is not told. Only after another connection committed (`data_version`), so this process's own
   * unannounced appends (a run's log) do not wake every view.
   */
  private withOthersChanges(report: SyncReport, scope: Set<string>): SyncReport {
    const dataVersion = indexDataVersion(this.db);
    const othersCommitted = dataVersion !== this.watchedDataVersion;
    this.watchedDataVersion = dataVersion;
    if (!othersCommitted) return report;
    const told = new Set([...report.slugs.added, ...report.slugs.changed, ...report.slugs.removed]);
    const slugs = {
      added: [...report.slugs.added],
      changed: [...report.slugs.changed],
      removed: [...report.slugs.removed],
    };
    for (const slug of scope) {
      if (told.has(slug)) continue;
      const indexed = getIdea(this.db, slug) !== null;
      const known = this.knownSlugs?.has(slug) ?? indexed;
      if (indexed) (known ? slugs.changed : slugs.added).push(slug);
      else if (known) slugs.removed.push(slug);
    }
    return {
      ...report,
      added: slugs.added.length,
      changed: slugs.changed.length,
      removed: slugs.removed.length,
      slugs,
    };
  }

  /** Keeps `knownSlugs` as the listeners were told (the whole index after the first pass). */
  private rememberSlugs(told: SyncReport): void {
    if (this.knownSlugs === null) {
      this.knownSlugs = new Set(ideaSlugs(this.db));
      return;
    }
    for (const slug of told.slugs.added) this.knownSlugs.add(slug);
    for (const slug of told.slugs.removed) this.knownSlugs.delete(slug);
  }

  /**
   * The walk and the index's file records for a full pass, taken while the index's integrity check
   * is still running on its worker: the walk needs no database, and what was read from the index is
   * thrown away unless the check passes.
   */
  private inputBeforeCheck(thorough: boolean): PassInput | undefined {
    if (!this.pending) return undefined;
    let input: PassInput | undefined;
    try {
      const check = this.pending.check;
      input = passInput(this.root, this.handle, null, { thorough, share: { to: (job) => check.shareStats(job) } });
    } catch {
      // A damaged index may fail to answer at all; the check will say so.
    }
    this.settle();
    // A rebuilt index starts empty: the pass starts over from it (the walk above leaned on the old one).
    if (this.rebuiltAs === 'corrupt') return undefined;
    return input;
  }

  private pass(scope: Set<string> | null, thorough: boolean, watched = false): SyncReport {
    const now = () => this.clock.now();
    const early = scope === null ? this.inputBeforeCheck(thorough) : undefined;
    const input = early ?? passInput(this.root, this.db, scope, { thorough });
    const tasks = passTasks(this.root, input);
    // A pass that changes ideas waits for the whole check; one that found damage has already rebuilt
    // and filled the index from the folder, which covers this pass too.
    if (this.unverified && tasks.length > 0 && this.checkFully() !== null) return this.pass(scope, thorough);
    let { plan, report, indexText } = runSyncPass(this.root, this.db, this.taxonomy, scope, now, input, tasks);
    // A folder read is a folder whose files differed from their rows: those rows were rewritten,
    // also when no idea's row changed (a new evaluation record, a checkpoint, a removed file).
    if (tasks.length > 0) this.filesRewritten++;
    const retry = foldersToRetry(this.db, plan);
    if (retry.size > 0) {
      const again = runSyncPass(this.root, this.db, this.taxonomy, retry, now);
      report = {
        ...again.report,
        added: report.added + again.report.added,
        changed: report.changed + again.report.changed,
        removed: report.removed + again.report.removed,
        slugs: {
          added: [...report.slugs.added, ...again.report.slugs.added],
          changed: [...report.slugs.changed, ...again.report.slugs.changed],
          removed: [...report.slugs.removed, ...again.report.slugs.removed],
        },
      };
      plan = again.plan;
      indexText = undefined;
    }
    const told = watched && scope !== null ? this.withOthersChanges(report, scope) : report;
    if (report.added + report.changed + report.removed > 0) this.indexChanged(indexText);
    if (told.added + told.changed + told.removed > 0) for (const listener of this.listeners) listener(told);
    this.rememberSlugs(told);
    // The opening pass is over: the rest of the index's check may have the processor now.
    this.unverified?.check.proceed();
    return report;
  }

  // ---- own writes -------------------------------------------------------------------------------

  private write(relPath: string, content: string | Uint8Array, expected: string | null | 'any'): WriteOutcome {
    const outcome = safeWrite(this.root, relPath, content, expected, this.clock.now());
    this.ownWrites.set(outcome.path, { size: outcome.size, mtimeMs: outcome.mtimeMs, at: Date.now() });
    return outcome;
  }

  /** A file the app wrote other than through `write` (the pipeline's appended log): its watcher event is an echo too. */
  recordOwnWrite(relPath: string, written: { size: number; mtimeMs: number }): void {
    this.ownWrites.set(relPath, { size: written.size, mtimeMs: written.mtimeMs, at: Date.now() });
  }

  /**
   * True when the file at `relPath` is exactly what the app itself last wrote there: the watcher's
   * event for it is an echo and needs no sync pass.
   */
  isOwnWrite(relPath: string): boolean {
    const record = this.ownWrites.get(relPath);
    if (!record) return false;
    if (Date.now() - record.at > OWN_WRITE_TTL_MS) {
      this.ownWrites.delete(relPath);
      return false;
    }
    try {
      const stat = statSync(join(this.root, relPath));
      return stat.size === record.size && stat.mtimeMs === record.mtimeMs;
    } catch {
      return false;
    }
  }

  // ---- reading ----------------------------------------------------------------------------------

  list(filter: IdeaFilter = {}): IdeaListRow[] {
    if (filter.stage && !this.taxonomy.stageIds.has(filter.stage.toUpperCase())) {
      throw new UserError(`unknown stage "${filter.stage}" (one of ${[...this.taxonomy.stageIds].join(', ')})`);
    }
    if (filter.type && !this.taxonomy.typeIds.has(filter.type.toLowerCase())) {
      throw new UserError(`unknown idea type "${filter.type}" (one of ${[...this.taxonomy.typeIds].join(', ')})`);
    }
    return listIdeas(this.db, filter);
  }

  errors(): { file: string; reason: string }[] {
    return syncErrors(this.db);
  }

  show(slug: string) {
    const idea = getIdea(this.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    let readme = '';
    // Read from the README as it is now, not kept in the index (the search text holds them).
    let secondaryTypes: string[] = [];
    try {
      const doc = parseMarkdown(readTextInside(this.root, ideaFile(slug, 'README.md')));
      readme = doc.body;
      const fields = readIdeaFrontmatter(doc.data, { slug, body: doc.body, taxonomy: this.taxonomy });
      if (fields.ok) secondaryTypes = fields.meta.secondaryTypes;
    } catch {
      readme = '';
    }
    return {
      ...idea,
      secondaryTypes,
      readme,
      files: ideaFiles(this.db, slug),
      relationships: ideaRelationships(this.db, slug),
      errors: this.errors().filter((e) => e.file.startsWith(`${IDEAS_DIR}/${slug}/`)),
    };
  }

  search(query: string, limit?: number): SearchHit[] {
    if (query.trim() === '') throw new UserError('search needs some words to look for');
    const terms = queryTerms(query);
    this.checkFully();
    return searchIdeas(this.db, query, limit).map((hit) => ({
      ...hit,
      snippet: snippetOf(this.ideaText(hit.slug), terms),
    }));
  }

  /** How many ideas a search matches in all, past the hits it answers. */
  countMatches(query: string): number {
    return countIdeaMatches(this.db, query);
  }

  /** The searchable text of an idea (README, development, research, notes), read from its files. */
  private ideaText(slug: string): string {
    const parts: string[] = [];
    for (const file of ideaFiles(this.db, slug)) {
      if (!['readme', 'development', 'research', 'note'].includes(file.kind)) continue;
      try {
        parts.push(searchableText(parseMarkdown(readTextInside(this.root, file.path)).body));
      } catch {
        // A file that cannot be read just gives no snippet text; sync reports it.
      }
    }
    return parts.join(' ');
  }

  // ---- writing ----------------------------------------------------------------------------------

  /** The folders under `ideas/` now (taken slugs), read from the folder, not the index. */
  existingSlugs(): string[] {
    try {
      return readdirSync(join(this.root, IDEAS_DIR));
    } catch {
      return [];
    }
  }

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  private checkType(type: string | undefined): string {
    const chosen = (type ?? 'research').toLowerCase();
    if (!this.taxonomy.typeIds.has(chosen)) {
      throw new UserError(`unknown idea type "${type}" (one of ${[...this.taxonomy.typeIds].join(', ')})`);
    }
    return chosen;
  }

  private checkStage(stage: string | undefined): string {
    const chosen = (stage ?? 'SPARK').toUpperCase();
    if (!this.taxonomy.stageIds.has(chosen)) {
      throw new UserError(`unknown stage "${stage}" (one of ${[...this.taxonomy.stageIds].join(', ')})`);
    }
    return chosen;
  }

  private finishCapture(slug: string, outcome: WriteOutcome): CaptureResult {
    this.syncSlugs([slug]);
    return { slug, path: outcome.path, idea: getIdea(this.db, slug), conflict: outcome.conflict };
  }

  /** A new idea from a title and some text, written from `templates/idea.md`. */
  capture(
    input: {
      title: string;
      text?: string;
      type?: string;
      stage?: string;
      tags?: string[];
      summary?: string;
    } & CaptureExtras,
  ): CaptureResult {
    const title = input.title.trim();
    if (title === '') throw new UserError('an idea needs a title (--title "…")');
    const type = this.checkType(input.type);
    const stage = this.checkStage(input.stage);
    const slug = uniqueSlug(title, this.existingSlugs());
    const text = (input.text ?? '').trim();
    const summary = (input.summary ?? text.split(/\n/)[0] ?? '').trim().slice(0, 200);
    const today = this.today();
    const marked = input.identity ? `${text}${text ? '\n\n' : ''}${identityMarker(input.identity)}` : text;
    let content = renderTemplate(
      this.templates.idea.text,
      { id: this.ids.newId(), slug, title, summary, text: marked },
      {
        file: this.templates.idea.file,
        raw: { type, stage, tags: JSON.stringify(input.tags ?? []), created: today, updated: today },
      },
    );
    if (input.relationships?.length) {
      this.checkTargets(input.relationships);
      content = setFrontmatterField(content, 'relationships', JSON.stringify(input.relationships));
    }
    return this.finishCapture(slug, this.write(ideaFile(slug, 'README.md'), content, null));
  }

  /**
   * A new idea from a dropped file. Markdown and text become the README, their frontmatter kept and
   * completed with what is missing; any other file becomes the idea's first asset.
   */
  captureFile(path: string, options: { type?: string; stage?: string } & CaptureExtras = {}): CaptureResult {
    if (!existsSync(path) || !statSync(path).isFile()) throw new UserError(`no file at ${path}`);
    const { identity, relationships, ...kind } = options;
    const ext = extname(path).toLowerCase();
    const stem = basename(path, extname(path));
    if (!TEXT_EXTENSIONS.has(ext)) {
      const result = this.capture({
        title: stem.replace(/[-_]+/g, ' '),
        text: `Captured from the file \`${basename(path)}\`, kept in \`assets/\`.`,
        ...kind,
        ...(relationships ? { relationships } : {}),
      });
      this.attach(result.slug, path);
      return { ...result, idea: getIdea(this.db, result.slug) };
    }
    // The text becomes the README, which sync reads only up to MAX_MARKDOWN_BYTES: a bigger file is
    // refused before it is read (a huge one would not even fit in a string).
    const parsed = this.readTextFile(path);
    const slug = uniqueSlug(parsed.title, this.existingSlugs());
    let marked = parsed;
    if (identity) marked = { ...marked, body: `${marked.body.replace(/\s*$/, '')}\n\n${identityMarker(identity)}\n` };
    if (relationships?.length) {
      this.checkTargets(relationships);
      // The note's own links stay; the new one is added after them.
      const own = Array.isArray(parsed.data.relationships) ? parsed.data.relationships : [];
      marked = { ...marked, data: { ...marked.data, relationships: [...own, ...relationships] } };
    }
    return this.finishCapture(slug, this.writeTextIdea(marked, slug, kind));
  }

  /**
   * A markdown or text file read as a new idea would be (`textIdea`), refused when it is not one: a
   * file of another kind, or one too big for a README (refused by its size, before it is read).
   */
  readTextFile(path: string): TextIdea {
    if (!existsSync(path) || !statSync(path).isFile()) throw new UserError(`no file at ${path}`);
    if (!TEXT_EXTENSIONS.has(extname(path).toLowerCase())) {
      throw new UserError(`${path} is not a markdown or text file (${[...TEXT_EXTENSIONS].join(', ')})`);
    }
    const size = statSync(path).size;
    if (size > MAX_MARKDOWN_BYTES) {
      throw new UserError(
        `${path} is ${mebibytes(size)}: a captured text file becomes the idea's README, which holds at most ${mebibytes(MAX_MARKDOWN_BYTES)} (attach it to an idea instead)`,
      );
    }
    return textIdea(readFileSync(path, 'utf8'), basename(path), path);
  }

  /** Every idea a new one links to must be in the library. */
  private checkTargets(relationships: readonly NewLink[]): void {
    for (const r of relationships) {
      if (!getIdea(this.db, r.target))
        throw new UserError(`no idea "${r.target}" to link to (see: npm run cli -- list)`);
    }
  }

  /**
   * Adds a captured text to the end of an idea's README, under a heading with the day (and the
   * capture's title), its identity recorded beside it, and moves `updated:`. Nothing the researcher
   * wrote is changed: the README is read and written back as one compare-and-swap, so one edited
   * meanwhile is kept and this version goes beside it as a conflict copy.
   */
  appendCapture(slug: string, capture: { title?: string; text: string; identity: string }): AppendResult {
    const idea = getIdea(this.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" to add to (see: npm run cli -- list)`);
    const rel = ideaFile(slug, 'README.md');
    const before = readReadmeForEdit(join(this.root, rel), rel, idea.id);
    if (identitiesIn(before.text).includes(capture.identity)) {
      return { idea, path: rel, conflict: false, appended: false };
    }
    const title = capture.title?.trim();
    let text = capture.text.trim();
    // The capture's own title heading is the section's heading now, not a second title of the idea:
    // exactly the line(s) of that heading go, never another line that merely starts with `#`.
    if (title && firstHeadingAt(text)?.words === title) text = withoutFirstHeading(text).trim();
    const newline = before.text.includes('\r\n') ? '\r\n' : '\n';
    const block = [
      `## Captured ${this.today()}${title ? `: ${title}` : ''}`,
      '',
      identityMarker(capture.identity),
      text,
    ]
      .join('\n')
      .trimEnd();
    const updated = setFrontmatterField(before.text, 'updated', this.today());
    const content = `${updated.replace(/\s*$/, '')}\n\n${block}\n`.replace(/\r?\n/g, newline);
    const outcome = this.write(rel, content, before.hash);
    this.syncSlugs([slug]);
    return { idea: getIdea(this.db, slug), path: outcome.path, conflict: outcome.conflict, appended: true };
  }

  /**
   * Writes a new idea's README from a parsed text file (see `textIdea`) into `ideas/<slug>/`, through
   * the safe write, without indexing it: the caller runs `syncSlugs` (once, for an import of many).
   * The file's own frontmatter wins; only what is missing is filled in, `fields` (an import's
   * provenance) before it.
   */
  writeTextIdea(
    parsed: TextIdea,
    slug: string,
    options: { type?: string; stage?: string; fields?: Record<string, unknown> } = {},
  ): WriteOutcome {
    const { data, body } = parsed;
    const today = this.today();
    const completed: Record<string, unknown> = {
      id: this.ids.newId(),
      slug,
      title: parsed.title,
      type: this.checkType(typeof data.type === 'string' ? data.type : options.type),
      stage: this.checkStage(typeof data.stage === 'string' ? data.stage : options.stage),
      tags: [],
      summary: parsed.summary,
      created: today,
      updated: today,
      relationships: [],
      ...options.fields,
      ...data,
    };
    completed.slug = slug;
    for (const key of ['created', 'updated']) {
      const value = completed[key];
      if (value instanceof Date) completed[key] = normalizeDate(value);
    }
    const header = serializeFrontmatter(completed);
    const content = `---\n${header}---\n${body.startsWith('\n') ? body : `\n${body}`}`;
    return this.write(ideaFile(slug, 'README.md'), content, null);
  }

  /** Copies any file into `ideas/<slug>/assets/`, under a new name if that one is taken. */
  attach(slug: string, path: string): { path: string } {
    if (!getIdea(this.db, slug)) throw new UserError(`no idea "${slug}" to attach to (see: npm run cli -- list)`);
    if (!existsSync(path) || !statSync(path).isFile()) throw new UserError(`no file at ${path}`);
    // A name near the file system's limit is shortened (the extension kept): writing it adds a suffix.
    const original = storedName(basename(path, extname(path)).replace(/[/\\]/g, '-') || 'file', extname(path));
    const ext = extname(original);
    const stem = basename(original, ext);
    let name = original;
    for (let n = 2; existsSync(join(this.root, ideaFile(slug, `assets/${name}`))); n++)
      name = storedName(stem, `-${n}${ext}`);
    const rel = ideaFile(slug, `assets/${name}`);
    const size = statSync(path).size;
    if (size > 64 * 1024 * 1024) {
      // Large assets are copied rather than loaded into memory; the copy cannot clobber anything
      // because the name was just chosen to be free.
      copyFileSync(path, join(this.root, rel));
      const stat = statSync(join(this.root, rel));
      this.ownWrites.set(rel, { size: stat.size, mtimeMs: stat.mtimeMs, at: Date.now() });
    } else {
      this.write(rel, readFileSync(path), null);
    }
    this.syncSlugs([slug]);
    return { path: rel };
  }

  /** Moves an idea to another lifecycle stage by editing only the `stage:` and `updated:` lines. */
  setStage(slug: string, stage: string): { idea: IdeaListRow | null; path: string; conflict: boolean } {
    const chosen = this.checkStage(stage);
    const idea = getIdea(this.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    const rel = ideaFile(slug, 'README.md');
    const abs = join(this.root, rel);
    // The edit and the hash it is written against come from one read (see `readForEdit`).
    const before = readReadmeForEdit(abs, rel, idea.id);
    let text = setFrontmatterField(before.text, 'stage', chosen);
    text = setFrontmatterField(text, 'updated', this.today());
    const outcome = this.write(rel, text, before.hash);
    this.syncSlugs([slug]);
    return { idea: getIdea(this.db, slug), path: outcome.path, conflict: outcome.conflict };
  }

  /** Rewrites `ideas/_index.md` from the index, unless it already says the same. */
  regenerateIndex(): { path: string; written: boolean; conflict: boolean } {
    this.indexRenders.fromIndex++;
    return this.writeIndex(renderIndex(indexEntries(this.db)));
  }

  private writeIndex(content: string): { path: string; written: boolean; conflict: boolean } {
    const abs = join(this.root, INDEX_FILE);
    const existing = existsSync(abs) ? generatedTextInside(this.root, INDEX_FILE) : null;
    if (existing === content) return { path: INDEX_FILE, written: false, conflict: false };
    const lastWritten = getMeta(this.db, 'index_md_hash');
    // The file is ours when it holds what we last wrote, or still carries our marker (an index
    // rebuilt from scratch has no record of the last write).
    const ours =
      existing === null ? null : existing.includes(INDEX_MARKER) && lastWritten === null ? 'any' : lastWritten;
    const outcome = this.write(INDEX_FILE, content, existing === null ? null : (ours ?? 'none'));
    if (!outcome.conflict) setMeta(this.db, 'index_md_hash', outcome.hash);
    return { path: outcome.path, written: true, conflict: outcome.conflict };
  }
}

/**
 * Reads an idea's README to edit it, and refuses a text that is not that idea's README just now: one
 * caught while another program rewrites it (an editor that truncates the file and then writes it
 * leaves a moment when it is empty or cut short). An edit made from such a text would replace the
 * researcher's README with a stub, and the compare-and-swap cannot see it when the file is still in
 * that state at the swap; the idea's id in the frontmatter tells the two apart.
 */
export function readReadmeForEdit(abs: string, rel: string, ideaId: string): { text: string; hash: string } {
  const read = readForEdit(abs);
  if (!read) throw new UserError(`${rel} is gone (run: npm run cli -- sync)`);
  let id: string | null = null;
  let whole = read.text.trim() !== '';
  try {
    const data = parseMarkdown(read.text).data;
    id = typeof data.id === 'string' || typeof data.id === 'number' ? String(data.id).trim() : null;
  } catch {
    whole = false;
  }
  // An idea whose README has no id of its own is known by its folder (`slug:<folder>`): then only an
  // empty or unreadable text gives the moment away.
  const same = ideaId.startsWith('slug:') ? whole && !id : id === ideaId;
  if (!same)
    throw new UserError(
      `${rel} is not the idea's README just now (${id === null ? 'it has no id' : `its id is ${id}`}; the index has ${ideaId}): another program may be writing it; nothing was changed (try again)`,
    );
  return read;
}

/** A markdown or text file read as a new idea: its frontmatter, body, title and summary. */
export interface TextIdea {
  data: Record<string, unknown>;
  body: string;
  title: string;
  summary: string;
}

/**
 * Reads a markdown or text file's contents as an idea. The title is the frontmatter's `title`, else
 * (markdown) the first level-1 heading (core/idea/headings.ts) or (plain text) the first non-empty
 * line, else the file name; the summary is the frontmatter's `description`, else the first paragraph of prose. `where`
 * names the file in the error a broken frontmatter gives.
 */
export function textIdea(raw: string, name: string, where: string): TextIdea {
  const ext = extname(name).toLowerCase();
  const stem = basename(name, extname(name));
  let data: Record<string, unknown> = {};
  let body = raw;
  if (ext === '.md' || ext === '.markdown') {
    try {
      ({ data, body } = parseMarkdown(raw));
    } catch (error) {
      throw new UserError(`${where}: ${(error as Error).message}`);
    }
  }
  const titleField = data.title;
  // Plain text has no heading: its first line is what the writer put on top, so it is the title
  // (and the summary comes from what follows), as for text dropped straight onto the page.
  const plain = ext === '.txt' || ext === '.text';
  const lead = plain ? firstLine(body) : null;
  // A `# Costs` further down a text file is a line like any other, not the file's title.
  const title =
    (typeof titleField === 'string' && titleField.trim()) ||
    (plain ? lead?.title : firstHeading(body)) ||
    stem.replace(/[-_]+/g, ' ');
  // A vault's own one-line `description` (Obsidian's, a static site's) is the summary it meant.
  const description = typeof data.description === 'string' ? data.description.trim() : '';
  const summary = description || firstParagraph(plain ? (lead?.rest ?? '') : body);
  return { data, body, title, summary: summary.slice(0, 200) };
}

function mebibytes(size: number): string {
  return `${(size / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

/**
 * The index is the app's own file at `.crucible/index.db`. Something else in its place (a folder, a
 * `.crucible` that is a file) is not the app's to delete or move, so opening stops with its path.
 */
function checkIndexPlace(indexPath: string): void {
  const kind = (path: string) => {
    try {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat === undefined ? 'nothing' : stat.isDirectory() ? 'a folder' : stat.isFile() ? 'a file' : 'not a file';
    } catch (error) {
      throw new UserError(`${path}: ${(error as Error).message}`);
    }
  };
  const folder = dirname(indexPath);
  const found = kind(folder);
  const problem =
    found !== 'a folder' && found !== 'nothing'
      ? `${folder} is ${found}, not the folder of the index`
      : found === 'a folder' && !['a file', 'nothing'].includes(kind(indexPath))
        ? `${indexPath} is ${kind(indexPath)}, not the index file`
        : null;
  if (problem !== null) {
    throw new UserError(`${problem}: move it away, and Crucible rebuilds the index from the ideas folder`);
  }
}

/** YAML for a completed frontmatter: plain keys, JSON-quoted strings (valid YAML), flow lists. */
function serializeFrontmatter(data: Record<string, unknown>): string {
  let out = '';
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    out += `${/^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key)}: ${yamlValue(value)}\n`;
  }
  return out;
}

function yamlValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Lists and maps as JSON: a subset of YAML, so nothing the file held is lost or reinterpreted.
  return JSON.stringify(value, (_k, v) => (v instanceof Date ? v.toISOString() : v));
}
