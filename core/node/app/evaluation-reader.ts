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
  entries(): readonly EvaluationEntry[];
}

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

  constructor(
    private readonly ws: Workspace,
    service: EvaluationService,
    readonly live: LiveEvaluations,
    /** The time the reopen triggers are weighed at (time decay). */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = new EvaluationRecords(ws, service);
    this.cache = new EvaluationEntriesCache(ws.root);
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
  all(slug?: string): EvaluationSource[] {
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
    const listed = this.listed();
    for (const stored of listed.checkpoints) if (!this.touched.has(stored.slug)) add(stored);
    // The kept records are in order already: the few others are sorted and merged in (sorting
    // 10,000 on every look took tens of milliseconds).
    const locked = listed.locked.filter((s) => !this.touched.has(s.summary.slug) && !this.live.get(s.summary.id));
    return mergeNewestFirst(sortNewestFirst(out), locked);
  }

  private kept: {
    version: string;
    locked: readonly EvaluationSource[];
    checkpoints: readonly StoredEvaluation[];
  } | null = null;

  /**
   * The locked records the index lists, as sources with their summaries made (a summary names the
   * idea's staleness and current evaluation, which the index holds: kept while it stays as it
   * is), and the checkpoints it lists.
   */
  private listed(): { locked: readonly EvaluationSource[]; checkpoints: readonly StoredEvaluation[] } {
    const indexed = this.records.indexed();
    if (this.kept?.version === indexed.version) return this.kept;
    const states = ideaEvaluationStates(this.ws.db);
    const locked: EvaluationSource[] = [];
    const checkpoints: StoredEvaluation[] = [];
    for (const list of indexed.bySlug.values()) {
      for (const stored of list) {
        if (stored.kind === 'checkpoint') {
          checkpoints.push(stored);
          continue;
        }
        const source = this.source(stored, states.get(stored.slug) ?? null);
        if (source) locked.push(source);
      }
    }
    this.kept = { version: indexed.version, locked: sortNewestFirst(locked), checkpoints };
    return this.kept;
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
    const found = this.stored(stored, false, known);
    if (!found) return null;
    if (stored.kind === 'checkpoint') return { summary: found.view, entries: () => found.track?.entries ?? [] };
    return {
      summary: found.view,
      key: stored.key,
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
