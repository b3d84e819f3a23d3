import { lstatSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { IDEAS_DIR, isTransientName } from '../../idea/layout';
import { walkFiles } from '../fs/scan';
import type { SyncReport } from './sync-pass';
import type { Workspace } from './workspace';

export interface WatchOptions {
  /** Quiet time after the last event before a pass runs (bursts become one pass). */
  debounceMs?: number;
  /** A pass that involves a vanished file waits this long, so a save-by-rename is not a delete. */
  deleteConfirmMs?: number;
  /** Upper bound on how long a continuous stream of events can postpone a pass. */
  maxWaitMs?: number;
  /** Delay of the second look after each pass (see `scheduleRecheck`). */
  recheckMs?: number;
  onPass?: (report: SyncReport) => void;
  onError?: (error: unknown) => void;
}

/**
 * Keeps the index following the folder. Events only mark idea folders dirty; a debounced pass then
 * re-reads exactly those folders. The app's own writes are recognised and skipped.
 */
export class WorkspaceWatcher {
  private watcher: FSWatcher | null = null;
  private readonly dirty = new Set<string>();
  private sawUnlink = false;
  private firstEventAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly recheckDue = new Set<string>();
  private recheckTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Passes run so far (tests use it to see that an echo caused none). */
  passes = 0;
  echoesIgnored = 0;
  rechecks = 0;

  constructor(
    private readonly workspace: Workspace,
    private readonly options: WatchOptions = {},
  ) {}

  async start(): Promise<void> {
    const root = join(this.workspace.root, IDEAS_DIR);
    // While watching, `_index.md` follows a little behind the edits instead of delaying each one.
    this.workspace.deferIndexMs ??= 500;
    this.watcher = watch(root, {
      ignoreInitial: true,
      // chokidar is asked to track folders only: it would otherwise hold a native watcher for every
      // file as well (three times as many, ~150 MB at 10,000 ideas). What happens to files inside a
      // watched folder still arrives, as the folder watcher's raw events, handled below. Swap files,
      // backups and our own temp files never matter and never wake the debounce.
      // Links are never followed (see `entry-rule.ts`): a link to a folder is not watched through,
      // so a loop (`ln -s . self`) cannot make the watch grow without end. Its own appearance and
      // removal still arrive as raw events of its folder, and a pass reports it.
      ignored: (path: string, stats?: { isFile(): boolean; isSymbolicLink(): boolean }) =>
        isTransientName(basename(path)) || (stats?.isFile() ?? false) || (stats?.isSymbolicLink() ?? false),
      followSymlinks: false,
      persistent: true,
    });
    // Every callback catches what it meets and reports it: an odd entry in the folder (a link loop,
    // an unreadable folder) must never end the watch, or the process it runs in.
    this.watcher.on('addDir', (path: string) => this.guard(() => this.onEvent('addDir', path)));
    this.watcher.on('unlinkDir', (path: string) => this.guard(() => this.onEvent('unlinkDir', path)));
    this.watcher.on('raw', (event: string, name: string | null, details: unknown) =>
      this.guard(() => {
        const folder = (details as { watchedPath?: string } | undefined)?.watchedPath;
        if (!folder || !name || isTransientName(basename(name))) return;
        this.onEvent(event === 'rename' ? 'rename' : 'change', join(folder, name));
      }),
    );
    this.watcher.on('error', (error) => this.guard(() => this.options.onError?.(error)));
    await new Promise<void>((resolve) => this.watcher?.once('ready', () => resolve()));
    // A large folder takes seconds to come under watch; whatever changed meanwhile is caught by one
    // more reconcile now that every later change will raise an event. It lists every folder rather
    // than trusting recorded listings, so that a file system that does not keep folder times
    // (some network and cloud drives) still has everything found within seconds of the start.
    try {
      // The index's integrity check has long finished its full-text part by now (a restart that
      // found nothing changed did not wait for it): a damaged index is rebuilt here, not at the
      // researcher's first search.
      const rebuilt = this.workspace.checkFully();
      if (rebuilt) this.options.onPass?.(rebuilt);
      const report = this.workspace.sync({ thorough: true });
      if (report.added + report.changed + report.removed > 0) this.options.onPass?.(report);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** Runs an event's handling; what it throws goes to `onError` (itself guarded), never up. */
  private guard(handle: () => void): void {
    try {
      handle();
    } catch (error) {
      try {
        this.options.onError?.(error);
      } catch {
        // A failing error reporter must not end the watch either.
      }
    }
  }

  private onEvent(kind: string, absPath: string): void {
    if (this.closed) return;
    const rel = relative(this.workspace.root, absPath).split(sep).join('/');
    const parts = rel.split('/');
    const slug = parts[1];
    if (parts[0] !== IDEAS_DIR || !slug || slug.startsWith('_')) return;
    // A file inside `ideas/` itself (the generated _index.md) is not an idea.
    if (parts.length === 2 && kind !== 'unlinkDir' && kind !== 'addDir' && kind !== 'rename') return;
    // Debate logs grow with every move while a debate runs; they are the app's own and no input of the
    // idea, so their churn wakes no pass (a full reconcile still indexes them).
    if (parts[2] === 'debates') return;
    // The echo of the app's own write (and a new folder holding only what the app just wrote there).
    if (kind !== 'unlinkDir' && this.isEcho(kind, rel)) {
      this.echoesIgnored++;
      return;
    }
    // A rename event may be a file appearing or vanishing: the pass waits long enough to tell.
    if (
      kind === 'unlinkDir' ||
      (kind === 'rename' && !lstatSync(join(this.workspace.root, rel), { throwIfNoEntry: false }))
    )
      this.sawUnlink = true;
    if (this.dirty.size === 0) this.firstEventAt = Date.now();
    this.dirty.add(slug);
    this.schedule();
  }

  private isEcho(kind: string, rel: string): boolean {
    // lstat, and the sync's own walk below: a link is never followed here either, so a link to
    // itself cannot throw ELOOP out of an event handler.
    const isFolder =
      kind === 'addDir' || lstatSync(join(this.workspace.root, rel), { throwIfNoEntry: false })?.isDirectory();
    if (!isFolder) return this.workspace.isOwnWrite(rel);
    const files = walkFiles(this.workspace.root, rel);
    // Anything the walk refuses (a link, an unreadable folder) is news to be reported, not an echo.
    return (
      files.length > 0 && files.every((file) => file.problem === undefined && this.workspace.isOwnWrite(file.path))
    );
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const debounce = this.options.debounceMs ?? 40;
    const wait = this.sawUnlink ? Math.max(debounce, this.options.deleteConfirmMs ?? 300) : debounce;
    const maxWait = this.options.maxWaitMs ?? 1000;
    const remaining = Math.max(0, this.firstEventAt + maxWait - Date.now());
    this.timer = setTimeout(() => this.flush(), Math.min(wait, remaining));
  }

  /** Runs the pending pass now (also used on close so nothing seen is left unindexed). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dirty.size === 0 || !this.workspace.db.open) return;
    const slugs = [...this.dirty];
    this.dirty.clear();
    this.sawUnlink = false;
    try {
      const report = this.workspace.syncSlugs(slugs, { watched: true });
      this.passes++;
      this.options.onPass?.(report);
    } catch (error) {
      this.options.onError?.(error);
    }
    this.scheduleRecheck(slugs);
  }

  /**
   * The watcher drops a second `change` of the same file within 50 ms, so two quick saves could
   * leave the index one save behind. A cheap second look (a few stats; reads only if something
   * differs) a moment after each pass closes that gap.
   */
  private scheduleRecheck(slugs: string[]): void {
    for (const slug of slugs) this.recheckDue.add(slug);
    if (this.recheckTimer || this.closed) return;
    this.recheckTimer = setTimeout(() => {
      this.recheckTimer = null;
      const due = [...this.recheckDue];
      this.recheckDue.clear();
      if (due.length === 0 || this.closed || !this.workspace.db.open) return;
      try {
        const report = this.workspace.syncSlugs(due);
        this.rechecks++;
        if (report.added + report.changed + report.removed > 0) this.options.onPass?.(report);
      } catch (error) {
        this.options.onError?.(error);
      }
    }, this.options.recheckMs ?? 150);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // What was seen but not yet indexed is indexed now, so closing never drops a change.
    this.flush();
    this.closed = true;
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    this.recheckTimer = null;
    await this.watcher?.close();
    this.watcher = null;
  }
}
