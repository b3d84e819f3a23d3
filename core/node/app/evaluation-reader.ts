import type { EvaluationDetail, EvaluationEntry, EvaluationSummary } from '../../contract';
import { MODE_SETTINGS } from '../../evaluation';
import { planRound } from '../../evaluation/plan';
import { addRoundRefusal } from '../../evaluation/step';
import type { ProviderName } from '../debates/providers';
import { runEstimate } from '../llm/cost-preview';
import type { EvaluationService } from '../evaluations/evaluation-service';
import type { EvaluationTrack } from '../evaluations/evaluation-track';
import { ideaEvaluationStates } from '../sqlite/evaluation-record-queries';
import type { Workspace } from '../workspace/workspace';
import { UserError } from '../workspace/workspace';
import { EvaluationEntriesCache } from './evaluation-entries-cache';
import type { RecordBrief } from './evaluation-briefs';
import { EvaluationRecords, type StoredEvaluation } from './evaluation-records';
import { stalenessChecks } from './evaluation-staleness';
import {
  detailFromDocument,
  detailFromTrack,
  type EvaluationMeta,
  stoppedReason,
  summaryFromDocument,
  summaryFromTrack,
} from './evaluation-views';
import type { LiveEvaluation, LiveEvaluations } from './live-evaluations';

/** An idea's content hash now and the id of its current evaluation. */
type IdeaState = { contentHash: string; evaluationId: string | null };

/** An evaluation's summary and its entries: what a transcript of it shows. */
export interface EvaluationEntries {
  summary: EvaluationSummary;
  entries: readonly EvaluationEntry[];
}

/** An evaluation's summary, with its entries read only when asked for. */
export interface EvaluationSource {
  summary: EvaluationSummary;
  /** For a locked record listed from the index, the sizes and times of its files (see StoredEvaluation). */
  key?: string | undefined;
  /**
   * A locked record's brief (what the lists need of it, its count of entries included): the
   * count, when it is null, is made by `count`.
   */
  brief?: RecordBrief;
  entries(): readonly EvaluationEntry[];
}

/** Where the reading and counting left to the background stand: pushed as it goes (`evaluation:listed`). */
export interface ListingProgress {
  /** Locked records listed by the index and not read yet: the lists lack them until then. */
  reading: number;
  /** Locked records read whose transcript's entries are not counted yet. */
  counting: number;
}

export interface ReaderOptions {
  /** The time the reopen triggers are weighed at (time decay). */
  now?: () => Date;
  /**
   * How long one look at a list may spend reading records and counting entries nobody has yet
   * (default 150 ms): what is left is done in the background, in slices.
   */
  budgetMs?: number;
  /** Told as the background work goes on (at most once a second or so) and when it is done. */
  onProgress?: (progress: ListingProgress) => void;
}

/** One slice of background work: short enough that a call waiting behind it is not noticed. */
const SLICE_MS = 15;
/** The background work says where it stands at most this often (each push makes a page ask again). */
const PROGRESS_MS = 1_500;
/** And writes what it learnt at most this often before it is done (a crash loses at most that). */
const SAVE_MS = 15_000;

/**
 * The read side of evaluations, shared by the evaluation channels and the transcripts: running ones
 * from their live track, stopped or failed ones from their checkpoint, locked ones from their record
 * (with the run rebuilt from its script). One place decides how each is read, so the live view, the
 * idea page and a transcript show the same entries.
 */
export class EvaluationReader {
  readonly records: EvaluationRecords;
  /** Ideas this app has evaluated, so their folders are looked in before the watcher indexes them. */
  readonly touched = new Set<string>();
  private readonly cache: EvaluationEntriesCache;

  private readonly now: () => Date;
  private readonly budgetMs: number;

  constructor(
    private readonly ws: Workspace,
    service: EvaluationService,
    readonly live: LiveEvaluations,
    private readonly options: ReaderOptions = {},
  ) {
    this.records = new EvaluationRecords(ws, service);
    this.cache = new EvaluationEntriesCache(ws.root);
    this.now = options.now ?? (() => new Date());
    this.budgetMs = options.budgetMs ?? 150;
  }

  /** When a look that starts now must stop reading and counting, and leave the rest to the background. */
  deadline(): number {
    return performance.now() + this.budgetMs;
  }

  idea(slug: string) {
    return this.records.idea(slug);
  }

  liveMeta(run: LiveEvaluation): EvaluationMeta {
    const known = this.idea(run.slug);
    return {
      id: run.id,
      slug: run.slug,
      run: this.live.status(run),
      provider: run.prepared.header.provider,
      costUsd: run.costUsd,
      budgetUsd: run.budgetUsd,
      stopReason: run.stop,
      expectedAnswers: run.expected,
      ideaHash: known?.contentHash ?? null,
      currentId: known?.evaluationId ?? null,
    };
  }

  /** Where an evaluation is kept; an unknown id is the researcher's mistake, said in words. */
  locate(id: string): StoredEvaluation {
    const found = this.records.locate(id, this.touched);
    if (!found) throw new UserError(`no evaluation "${id}" (see the list of evaluations)`);
    return found;
  }

  /** Every stored and running evaluation (of one idea when `slug`), newest first. */
  summaries(slug?: string): EvaluationSummary[] {
    return this.all(slug).map((s) => s.summary);
  }

  /**
   * Every stored and running evaluation (of one idea when `slug`), newest first, each with its
   * entries on demand; one whose files cannot be read is left out.
   *
   * One idea's are listed from its folder. All of them: running ones from their track; the folders
   * of ideas this app evaluated from the folder (the index may not have them yet); every other one
   * as the index lists it, a locked record's summary kept until the index changes (10,000 records
   * summed up again on every look took seconds), a checkpoint's read again when its file grows.
   */
  all(slug?: string, deadline = this.deadline()): EvaluationSource[] {
    const out: EvaluationSource[] = this.live
      .all()
      .filter((r) => slug === undefined || r.slug === slug)
      .map((r) => ({ summary: summaryFromTrack(r.track, this.liveMeta(r)), entries: () => r.track.entries }));
    const add = (stored: StoredEvaluation) => {
      if (this.live.get(stored.id)) return;
      const source = this.source(stored);
      if (source) out.push(source);
    };
    if (slug !== undefined) {
      for (const stored of this.records.stored(slug)) add(stored);
      return sortNewestFirst(out);
    }
    for (const s of this.touched) for (const stored of this.records.stored(s)) add(stored);
    const listed = this.listed(deadline);
    for (const stored of listed.checkpoints) if (!this.touched.has(stored.slug)) add(stored);
    // The kept records are in order already: the few others are sorted and merged in (sorting
    // 10,000 on every look took tens of milliseconds).
    const locked = listed.locked.filter((s) => !this.touched.has(s.summary.slug) && !this.live.get(s.summary.id));
    return mergeNewestFirst(sortNewestFirst(out), locked);
  }

  private kept: {
    version: string;
    learnt: number;
    locked: readonly EvaluationSource[];
    checkpoints: readonly StoredEvaluation[];
  } | null = null;
  /** Bumped when the background has read or counted records: the kept listing is made again. */
  private learnt = 0;

  /**
   * The locked records the index lists, as sources with their summaries made from their briefs (a
   * summary names the idea's staleness and current evaluation, which the index holds: kept while it
   * stays as it is), and the checkpoints it lists. A record without a brief is read now while
   * `deadline` allows, else left to the background and left out until it is read (`progress`).
   */
  private listed(deadline: number): { locked: readonly EvaluationSource[]; checkpoints: readonly StoredEvaluation[] } {
    const indexed = this.records.indexed();
    if (this.kept?.version === indexed.version && this.kept.learnt === this.learnt) return this.kept;
    const states = ideaEvaluationStates(this.ws.db);
    const locked: EvaluationSource[] = [];
    const checkpoints: StoredEvaluation[] = [];
    const unread: StoredEvaluation[] = [];
    for (const list of indexed.bySlug.values()) {
      for (const stored of list) {
        if (stored.kind === 'checkpoint') {
          checkpoints.push(stored);
          continue;
        }
        if (stored.key !== undefined && !this.records.known(stored.id, stored.key) && performance.now() >= deadline) {
          unread.push(stored);
          continue;
        }
        const source = this.source(stored, states.get(stored.slug) ?? null);
        if (source) locked.push(source);
      }
    }
    this.toRead.clear();
    for (const stored of unread) this.toRead.set(stored.id, stored);
    if (unread.length > 0) this.background();
    else if (this.records.briefs.unsaved) this.background();
    this.kept = { version: indexed.version, learnt: this.learnt, locked: sortNewestFirst(locked), checkpoints };
    return this.kept;
  }

  /** Set while the app warms the lists up after its start: nothing uncounted is counted then. */
  holdCounts = false;

  /** What the background has still to read and count. */
  progress(): ListingProgress {
    return { reading: this.toRead.size, counting: this.toCount.size };
  }

  /**
   * The count of a locked record's entries: kept in its brief, else counted now while `deadline`
   * allows (replaying its script), else null and counted in the background.
   */
  count(source: EvaluationSource, deadline: number): number | null {
    if (!source.brief) return source.entries().length;
    // Counted since this source was listed (the listing is made again only on the next look).
    const brief = this.records.briefs.get(source.summary.id, source.brief.key) ?? source.brief;
    if (brief.entries !== null) return brief.entries;
    // A warm-up after the start makes the list without counting: a first look at it may never come.
    if (this.holdCounts) return null;
    const id = source.summary.id;
    if (performance.now() >= deadline) {
      // The records still to read are counted as they are read: this list will want them.
      this.wantCounts = true;
      if (!this.toCount.has(id)) {
        this.toCount.set(id, { slug: brief.slug, id, key: brief.key });
        this.background();
      }
      return null;
    }
    return this.countNow(brief.slug, id, brief.key)?.entries ?? 0;
  }

  /**
   * Counts a record's entries (from the entries kept on disk, else by replaying its script, then
   * keeping them there too, for the transcript and the search) and notes the count in its brief.
   */
  private countNow(slug: string, id: string, key: string): RecordBrief | null {
    const brief = this.records.briefs.get(id, key);
    if (!brief) return null;
    if (brief.entries !== null) return brief;
    let entries = this.cache.get(slug, id)?.length;
    if (entries === undefined) {
      const replayed = this.records.replayEntries(slug, id);
      if (replayed) this.cache.put(slug, id, replayed);
      entries = replayed?.length ?? 0;
    }
    return this.records.briefs.counted(id, brief, entries);
  }

  private readonly toRead = new Map<string, StoredEvaluation>();
  private readonly toCount = new Map<string, { slug: string; id: string; key: string }>();
  private working: NodeJS.Immediate | null = null;
  private closed = false;
  private lastProgress = 0;
  private lastSave = 0;
  /** Set once a list of transcripts has left counts to the background: what is read next is counted too. */
  private wantCounts = false;

  /**
   * Reads and counts what the lists left, a slice at a time, each slice handing the event loop back
   * (calls, pushes and a running evaluation go on meanwhile); says where it stands as it goes and
   * when it is done, and writes the briefs learnt.
   */
  private background(): void {
    if (this.working || this.closed) return;
    const slice = () => {
      this.working = null;
      if (this.closed) return;
      const until = performance.now() + SLICE_MS;
      let did = false;
      while (performance.now() < until) {
        const read = this.toRead.values().next();
        if (!read.done) {
          const stored = read.value;
          this.toRead.delete(stored.id);
          const key = stored.key ?? this.records.fileKey(stored.slug, stored.id);
          if (!this.records.known(stored.id, key)) {
            const brief = this.records.brief(stored.slug, stored.id, key);
            if (brief && brief.entries === null && this.wantCounts)
              this.toCount.set(stored.id, { slug: stored.slug, id: stored.id, key });
            did = true;
          }
          continue;
        }
        const next = this.toCount.values().next();
        if (next.done) break;
        this.toCount.delete(next.value.id);
        try {
          this.countNow(next.value.slug, next.value.id, next.value.key);
        } catch {
          // A script that cannot be read now: its row stays "counting" until a list asks again.
        }
        did = true;
      }
      if (did) this.learnt++;
      const now = performance.now();
      const done = this.toRead.size === 0 && this.toCount.size === 0;
      if (done || now - this.lastSave > SAVE_MS) {
        this.lastSave = now;
        this.save();
      }
      if (did && (done || now - this.lastProgress > PROGRESS_MS)) {
        this.lastProgress = now;
        this.options.onProgress?.(this.progress());
      }
      if (!done) this.working = setImmediate(slice);
    };
    this.working = setImmediate(slice);
  }

  /** Writes the briefs learnt, without those of records the index no longer lists. */
  private save(): void {
    const listed = this.records.indexed().keys;
    this.records.briefs.save((id) => listed.has(id) || this.live.get(id) !== undefined || this.ownIds.has(id));
  }

  /** Locked evaluations of this app (their ideas are `touched`), which the index may not list yet. */
  private readonly ownIds = new Set<string>();

  /**
   * An evaluation this app ran has locked: its brief and entries are kept now, from its run, so no
   * list ever reads or replays it (the record and its script were written before it ended).
   */
  locked(slug: string, id: string, entries: readonly EvaluationEntry[]): void {
    this.ownIds.add(id);
    const brief = this.records.brief(slug, id, undefined);
    if (!brief) return;
    this.cache.put(slug, id, entries);
    this.records.briefs.counted(id, brief, entries.length);
    this.background();
  }

  /** Stops the background work, keeping what it learnt. */
  close(): void {
    this.closed = true;
    if (this.working) clearImmediate(this.working);
    this.working = null;
    this.save();
  }

  /** Everything about one evaluation (`evaluations:get`). */
  detail(id: string): EvaluationDetail {
    const run = this.live.get(id);
    if (run) {
      const meta = this.liveMeta(run);
      return { ...detailFromTrack(run.track, meta), addRoundPreview: this.addRoundPreview(run, meta) };
    }
    const stored = this.locate(id);
    const view = this.stored(stored, true)?.view;
    if (!view) throw new UserError(`evaluation "${id}" could not be read (its file is damaged)`);
    return this.withStaleness(view, stored);
  }

  /**
   * What one more round of a running evaluation would cost ("Add round"), priced like every start
   * form's estimate for the provider it runs on; null when no round may be added now.
   */
  private addRoundPreview(run: LiveEvaluation, meta: EvaluationMeta): EvaluationDetail['addRoundPreview'] {
    const state = run.track.state;
    if (meta.run.status !== 'running' || meta.run.stopRequested || addRoundRefusal(state) !== null) return null;
    if (meta.provider === null) return null;
    const plan = planRound({
      mode: state.mode,
      config: state.config,
      redTeam: MODE_SETTINGS[state.mode].personas.length,
    });
    const { calls, usd, worstCalls, worstUsd, basis } = runEstimate(
      this.ws.root,
      plan,
      meta.provider as ProviderName,
      undefined,
    );
    return { calls, usd, worstCalls, worstUsd, basis };
  }

  /** An idea's current locked evaluation weighed against every reopen trigger. */
  private withStaleness(view: EvaluationDetail, stored: StoredEvaluation): EvaluationDetail {
    if (stored.kind !== 'record' || !view.current) return view;
    const doc = this.records.record(stored.slug, stored.id, false)?.doc;
    if (!doc) return view;
    const checks = stalenessChecks(this.ws, this.records, stored.slug, doc, view.stale, this.now());
    return { ...view, staleChecks: checks, staleReasons: checks.filter((c) => c.material).map((c) => c.reason) };
  }

  /** One evaluation's summary and entries, without building the whole detail. */
  entries(id: string): EvaluationEntries {
    const run = this.live.get(id);
    if (run) return { summary: summaryFromTrack(run.track, this.liveMeta(run)), entries: run.track.entries };
    const source = this.source(this.locate(id));
    if (!source) throw new UserError(`evaluation "${id}" could not be read (its file is damaged)`);
    return { summary: source.summary, entries: source.entries() };
  }

  /**
   * A stored evaluation's summary and its entries: a checkpoint's from its track (folded for the
   * summary anyway); a locked record's from its rebuilt run when this app has it, else from the
   * entries cache, else by replaying its script (then cached). A record whose script no longer
   * replays has none.
   */
  private source(stored: StoredEvaluation, known?: IdeaState | null): EvaluationSource | null {
    if (stored.kind === 'checkpoint') {
      const found = this.stored(stored, false, known);
      if (!found) return null;
      return { summary: found.view, entries: () => found.track?.entries ?? [] };
    }
    const brief = this.records.brief(stored.slug, stored.id, stored.key);
    if (!brief) return null;
    return {
      summary: this.briefSummary(stored, brief, known === undefined ? this.idea(stored.slug) : known),
      key: stored.key,
      brief,
      entries: () => {
        const held = this.records.record(stored.slug, stored.id, false, stored.key)?.track;
        if (held) return held.entries;
        const cached = this.cache.get(stored.slug, stored.id);
        if (cached) return cached;
        const track = this.records.record(stored.slug, stored.id, true, stored.key)?.track;
        if (!track) return [];
        this.cache.put(stored.slug, stored.id, track.entries);
        return track.entries;
      },
    };
  }

  /** Summaries made from briefs, kept while the brief and the idea's state are the same (the same row). */
  private readonly briefRows = new WeakMap<
    RecordBrief,
    { hash: string | null; current: string | null; summary: EvaluationSummary }
  >();

  private briefSummary(stored: StoredEvaluation, brief: RecordBrief, known: IdeaState | null): EvaluationSummary {
    const hash = known?.contentHash ?? null;
    const current = known?.evaluationId ?? null;
    const kept = this.briefRows.get(brief);
    if (kept && kept.hash === hash && kept.current === current) return kept.summary;
    const summary = summaryFromDocument(brief.head, {
      id: stored.id,
      slug: stored.slug,
      ideaHash: hash,
      currentId: current,
      run: { status: 'completed', live: false, stopRequested: false },
      provider: brief.provider,
      costUsd: brief.costUsd,
      budgetUsd: brief.budgetUsd,
      stopReason: null,
      expectedAnswers: 0,
    });
    this.briefRows.set(brief, { hash, current, summary });
    return summary;
  }

  /** A stored evaluation as the contract shows it (with the whole record when `detail`). */
  stored(stored: StoredEvaluation, detail: true): { view: EvaluationDetail; track: EvaluationTrack | null } | null;
  stored(
    stored: StoredEvaluation,
    detail: false,
    known?: IdeaState | null,
  ): { view: EvaluationSummary; track: EvaluationTrack | null } | null;
  stored(
    stored: StoredEvaluation,
    detail: boolean,
    /** The idea's state when the caller has it (undefined: asked of the index). */
    known: IdeaState | null = this.idea(stored.slug),
  ): { view: EvaluationDetail | EvaluationSummary; track: EvaluationTrack | null } | null {
    const base = {
      id: stored.id,
      slug: stored.slug,
      ideaHash: known?.contentHash ?? null,
      currentId: known?.evaluationId ?? null,
    };
    if (stored.kind === 'record') {
      const record = this.records.record(stored.slug, stored.id, detail, stored.key);
      if (!record) return null;
      const answers = record.track?.answers ?? 0;
      const meta: EvaluationMeta = {
        ...base,
        run: { status: 'completed', live: false, stopRequested: false },
        provider: record.provider,
        costUsd: record.costUsd,
        budgetUsd: record.budgetUsd,
        stopReason: null,
        expectedAnswers: answers,
      };
      if (!detail) return { view: summaryFromDocument(record.doc, meta), track: record.track };
      return {
        view: record.track ? detailFromTrack(record.track, meta, record.doc) : detailFromDocument(record.doc, meta),
        track: record.track,
      };
    }
    const checkpoint = this.records.checkpoint(stored.slug, stored.id);
    if (!checkpoint) return null;
    const failed = checkpoint.track.state.phase === 'FAILED';
    const meta: EvaluationMeta = {
      ...base,
      // Not driven here: failed, paused on purpose, or running when its process ended (interrupted).
      run: { status: failed ? 'failed' : checkpoint.stopped ? 'paused' : 'running', live: false, stopRequested: false },
      provider: checkpoint.header.provider,
      costUsd: checkpoint.spentUsd,
      budgetUsd: checkpoint.header.budgetUsd,
      // No stop line after the last input: the process ended without a word (killed, crashed).
      stopReason: stoppedReason(checkpoint.track.state, checkpoint.stopped?.reason ?? 'interrupted'),
      expectedAnswers: checkpoint.track.answers + checkpoint.remaining,
    };
    const track = checkpoint.track;
    return { view: detail ? detailFromTrack(track, meta) : summaryFromTrack(track, meta), track };
  }
}

/** Newest first (by start, then by id, so the order is the same every time). */
function newerFirst(a: EvaluationSource, b: EvaluationSource): number {
  return a.summary.startedAt < b.summary.startedAt
    ? 1
    : a.summary.startedAt > b.summary.startedAt
      ? -1
      : a.summary.id < b.summary.id
        ? 1
        : -1;
}

function sortNewestFirst(list: EvaluationSource[]): EvaluationSource[] {
  return list.sort(newerFirst);
}

/** Two lists each newest first, as one. */
function mergeNewestFirst(a: readonly EvaluationSource[], b: readonly EvaluationSource[]): EvaluationSource[] {
  if (a.length === 0) return [...b];
  const out: EvaluationSource[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length)
    out.push(
      newerFirst(a[i] as EvaluationSource, b[j] as EvaluationSource) <= 0
        ? (a[i++] as EvaluationSource)
        : (b[j++] as EvaluationSource),
    );
  while (i < a.length) out.push(a[i++] as EvaluationSource);
  while (j < b.length) out.push(b[j++] as EvaluationSource);
  return out;
}
