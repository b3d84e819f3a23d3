import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EvaluationEntry } from '../../contract';
import type { EvaluationInput, FinalSynthesisDocument } from '../../evaluation';
import { finalSynthesisDocumentSchema, replayEvaluation } from '../../evaluation';
import { ideaFile } from '../../idea/layout';
import {
  type EvaluationRunSetup,
  evaluationLogPath,
  readEvaluationLog,
  type StopReason,
} from '../evaluations/evaluation-log';
import type { EvaluationService } from '../evaluations/evaluation-service';
import { EvaluationTrack } from '../evaluations/evaluation-track';
import { LinkRefusedError, readTextInside } from '../fs/read-inside';
import { EvaluationBriefs, headOf, packScores, type RecordBrief } from './evaluation-briefs';
import {
  type IndexedEvaluationFile,
  ideaEvaluationState,
  indexedEvaluationFiles,
  slugsHoldingEvaluation,
} from '../sqlite/evaluation-record-queries';
import type { Workspace } from '../workspace/workspace';

/** An evaluation kept in an idea's `evaluations/` folder: a locked record or a checkpoint. */
export interface StoredEvaluation {
  id: string;
  slug: string;
  kind: 'record' | 'checkpoint';
  /**
   * The sizes and times of its files as the index last saw them (listed from the index): a record
   * kept in memory is read again when they change. Absent when listed from the folder.
   */
  key?: string;
}

/** The evaluations of every idea as the index lists them, for one state of the index. */
export interface IndexedEvaluations {
  version: string;
  bySlug: ReadonlyMap<string, readonly StoredEvaluation[]>;
  /** A record's key (see StoredEvaluation) by its id. */
  keys: ReadonlyMap<string, string>;
}

/** A locked record with what its script's first line adds (provider, cost, budget). */
export interface LockedEvaluation {
  /** What the index said of its files when it was read (see StoredEvaluation), if anything. */
  key?: string | undefined;
  doc: FinalSynthesisDocument;
  provider: string | null;
  costUsd: number | null;
  budgetUsd: number | null;
  /** The run rebuilt from its script (null: the script is missing or no longer replays). */
  track: EvaluationTrack | null;
}

/** A checkpoint folded into a track: an evaluation that stopped, was interrupted or failed. */
export interface CheckpointEvaluation {
  header: EvaluationRunSetup;
  track: EvaluationTrack;
  spentUsd: number;
  stopped: { reason: StopReason; at: string } | null;
  /** Answers a simulated continuation would still take. */
  remaining: number;
}

const RECORD = /^([a-z0-9][a-z0-9-]*)\.json$/;
const CHECKPOINT = /^([a-z0-9][a-z0-9-]*)\.run\.jsonl$/;

/**
 * Reads evaluations back from the workspace folder, which stays the authority (the index may be
 * rebuilt at any time). Locked records never change, so each is read and replayed once; a
 * checkpoint is read again when its file grows.
 */
export class EvaluationRecords {
  private readonly locked = new Map<string, LockedEvaluation>();
  private readonly checkpoints = new Map<string, { key: string; value: CheckpointEvaluation }>();
  private fromIndex: IndexedEvaluations | null = null;

  constructor(
    private readonly ws: Workspace,
    private readonly service: EvaluationService,
    /** What the listings need of each record, kept on disk between starts. */
    readonly briefs: EvaluationBriefs = new EvaluationBriefs(ws.root),
  ) {}

  private folder(slug: string): string {
    return join(this.ws.root, ideaFile(slug, 'evaluations'));
  }

  /** The evaluations stored for one idea (a record wins over a checkpoint left beside it). */
  stored(slug: string): StoredEvaluation[] {
    // Under the sync's link rule: a linked idea or evaluations folder, or a linked record, is not
    // listed (the sync reports it by path), so nothing outside the workspace is ever read as one.
    const idea = lstatSync(join(this.ws.root, 'ideas', slug), { throwIfNoEntry: false });
    const own = lstatSync(this.folder(slug), { throwIfNoEntry: false });
    if (!idea?.isDirectory() || !own?.isDirectory()) return [];
    let names: string[];
    try {
      names = readdirSync(this.folder(slug), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    } catch {
      return [];
    }
    const records = new Set(names.flatMap((n) => RECORD.exec(n)?.[1] ?? []));
    const out: StoredEvaluation[] = [...records].map((id) => ({ id, slug, kind: 'record' }));
    for (const name of names) {
      const id = CHECKPOINT.exec(name)?.[1];
      if (id && !records.has(id)) out.push({ id, slug, kind: 'checkpoint' });
    }
    return out;
  }

  /**
   * Every idea's stored evaluations as the index lists them (by the rules `stored` applies to a
   * folder), kept while the index stays as it is (`Workspace.indexVersion`): listing 10,000 idea
   * folders took a directory listing and two lstats each, seconds in all; the index has the same
   * files in one query. The index follows the folder through the sync (the watcher), so an
   * evaluation written by another process shows once its folder is synced; this app's own are
   * looked for in their folders (EvaluationReader's `touched`).
   */
  indexed(): IndexedEvaluations {
    const version = this.ws.indexVersion();
    if (this.fromIndex?.version === version) return this.fromIndex;
    const files = new Map<string, Map<string, IndexedEvaluationFile>>();
    for (const file of indexedEvaluationFiles(this.ws.db)) {
      const names = files.get(file.slug) ?? new Map<string, IndexedEvaluationFile>();
      if (names.size === 0) files.set(file.slug, names);
      names.set(file.name, file);
    }
    const stamp = (file: IndexedEvaluationFile | undefined) => (file ? `${file.size}:${file.mtimeMs}` : '-');
    const bySlug = new Map<string, StoredEvaluation[]>();
    const keys = new Map<string, string>();
    for (const [slug, names] of files) {
      const out: StoredEvaluation[] = [];
      const records = new Set<string>();
      for (const name of names.keys()) {
        const id = RECORD.exec(name)?.[1];
        if (!id) continue;
        records.add(id);
        // The record and its script: the script's first line gives the provider and cost.
        const key = `${stamp(names.get(name))}/${stamp(names.get(`${id}.jsonl`))}`;
        keys.set(id, key);
        out.push({ id, slug, kind: 'record', key });
      }
      for (const name of names.keys()) {
        const id = CHECKPOINT.exec(name)?.[1];
        if (id && !records.has(id)) out.push({ id, slug, kind: 'checkpoint' });
      }
      if (out.length > 0) bySlug.set(slug, out);
    }
    this.fromIndex = { version, bySlug, keys };
    return this.fromIndex;
  }

  /** Where an evaluation is kept: found through the index, else by looking in every idea folder. */
  locate(id: string, hint: Iterable<string> = []): StoredEvaluation | null {
    const look = (slug: string) => this.stored(slug).find((s) => s.id === id) ?? null;
    for (const slug of [...hint, ...slugsHoldingEvaluation(this.ws.db, id)]) {
      const found = look(slug);
      if (found) return found;
    }
    let slugs: string[] = [];
    try {
      slugs = readdirSync(join(this.ws.root, 'ideas'));
    } catch {
      return null;
    }
    for (const slug of slugs) {
      if (!existsSync(join(this.folder(slug), `${id}.json`)) && !existsSync(join(this.folder(slug), `${id}.run.jsonl`)))
        continue;
      const found = look(slug);
      if (found) return found;
    }
    return null;
  }

  /**
   * A locked record, with the run rebuilt from its script when `withTrack`. Read once and kept, and
   * read again when the index says its files changed (`key`, by default the index's).
   */
  record(
    slug: string,
    id: string,
    withTrack: boolean,
    key: string | undefined = this.indexed().keys.get(id),
  ): LockedEvaluation | null {
    let entry = this.locked.get(id);
    if (entry && key !== undefined && entry.key !== key) {
      this.locked.delete(id);
      entry = undefined;
    }
    if (!entry) {
      const read = this.read(slug, id, key);
      if (!read) return null;
      entry = read;
      this.locked.set(id, entry);
    }
    if (withTrack && entry.track === null) {
      const doc = entry.doc;
      entry.track = this.rebuild(slug, id, () => doc);
    }
    return entry;
  }

  /**
   * The sizes and times of a record's files as the index would key them (see `indexed`), for a
   * record listed from its folder: its brief is then found by the next start's index.
   */
  fileKey(slug: string, id: string): string {
    const stamp = (name: string) => {
      const stat = lstatSync(join(this.folder(slug), name), { throwIfNoEntry: false });
      return stat ? `${stat.size}:${stat.mtimeMs}` : '-';
    };
    return `${stamp(`${id}.json`)}/${stamp(`${id}.jsonl`)}`;
  }

  /** Records found unreadable (by id, with their key then): not read again until their files change. */
  private readonly unreadable = new Map<string, string>();

  /**
   * What the lists need of a locked record (EvaluationBriefs): kept, or read from the record now
   * (null: it cannot be read: gone, damaged, or a link). `key` is the index's for its files, or
   * undefined for one listed from its folder (then taken from the files themselves).
   */
  brief(slug: string, id: string, key: string | undefined): RecordBrief | null {
    const k = key ?? this.fileKey(slug, id);
    const known = this.briefs.get(id, k);
    if (known) return known;
    if (this.unreadable.get(id) === k) return null;
    // A record this app holds whole (an evaluation's page was opened) is not read again.
    const held = this.locked.get(id);
    let entry: LockedEvaluation | null;
    try {
      entry = held && (key === undefined || held.key === key) ? held : this.read(slug, id, k);
    } catch {
      // Not readable now (permissions, a folder in its place…): left out of the lists, as a damaged one.
      entry = null;
    }
    if (!entry) {
      this.unreadable.set(id, k);
      return null;
    }
    return this.keep(slug, id, k, entry);
  }

  /** Whether the brief of a record is kept for its files as they are (`brief` would not read it). */
  known(id: string, key: string): boolean {
    return this.briefs.get(id, key) !== undefined || this.unreadable.get(id) === key;
  }

  private keep(slug: string, id: string, key: string, entry: LockedEvaluation): RecordBrief {
    const brief: RecordBrief = {
      key,
      slug,
      head: headOf(entry.doc),
      provider: entry.provider,
      costUsd: entry.costUsd,
      budgetUsd: entry.budgetUsd,
      criteria: this.briefs.criteriaOf(entry.doc.scores.map((s) => s.criterion)),
      scores: packScores(entry.doc.scores),
      entries: entry.track ? entry.track.entries.length : null,
    };
    this.briefs.set(id, brief);
    return brief;
  }

  /** Reads a locked record from its folder (null: none, damaged, or replaced by a link). */
  private read(slug: string, id: string, key: string | undefined): LockedEvaluation | null {
    const path = join(this.folder(slug), `${id}.json`);
    if (!existsSync(path)) return null;
    let text: string;
    try {
      text = readTextInside(this.ws.root, path);
    } catch (error) {
      // A record replaced by a link is not one (the sync reports it by path).
      if (error instanceof LinkRefusedError) return null;
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return null;
    }
    const parsed = finalSynthesisDocumentSchema.safeParse(json);
    if (!parsed.success) return null;
    const head = this.scriptHead(slug, id);
    // A process killed between writing the record and its script leaves the run's log, which
    // says the same: the record reads whole from it.
    const log = head === null ? this.runLog(slug, id) : null;
    return {
      key,
      doc: parsed.data,
      provider: typeof head?.provider === 'string' ? head.provider : (log?.run.provider ?? null),
      costUsd: typeof head?.costUsd === 'number' ? head.costUsd : (log?.spentUsd ?? null),
      budgetUsd: typeof head?.budgetUsd === 'number' ? head.budgetUsd : (log?.run.budgetUsd ?? null),
      track: null,
    };
  }

  /**
   * The entries of a locked record's run, rebuilt from its script without keeping the run (the
   * count of 10,000 transcripts must not hold 10,000 runs in memory). Null when it does not replay.
   */
  replayEntries(slug: string, id: string): readonly EvaluationEntry[] | null {
    const held = this.locked.get(id)?.track;
    if (held) return held.entries;
    // The record itself is read only for a dispute's script (its reopening names the idea).
    return this.rebuild(slug, id, () => this.read(slug, id, undefined)?.doc ?? null)?.entries ?? null;
  }

  private scriptText(slug: string, id: string): string | null {
    try {
      return readTextInside(this.ws.root, join(this.folder(slug), `${id}.jsonl`));
    } catch {
      return null;
    }
  }

  private scriptHead(slug: string, id: string): Record<string, unknown> | null {
    const first = this.scriptText(slug, id)?.split('\n', 1)[0];
    if (!first) return null;
    try {
      return JSON.parse(first) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  /**
   * The run behind a record, from its script: a full evaluation's script replays; a dispute's log
   * is the reopening of the record it disputes plus its inputs. Null when that no longer works.
   */
  private rebuild(slug: string, id: string, docOf: () => FinalSynthesisDocument | null): EvaluationTrack | null {
    const text = this.scriptText(slug, id) ?? this.scriptFromRunLog(slug, id);
    if (text === null) return null;
    try {
      let initial: ReturnType<typeof replayEvaluation>['initial'];
      let inputs: EvaluationInput[];
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      const head = JSON.parse(lines[0] ?? '{}') as {
        type?: string;
        from?: string;
        trigger?: { criterion: string; reason: string };
      };
      if (head.type === 'reopen' && head.from && head.trigger) {
        const doc = docOf();
        if (!doc) return null;
        initial = this.service.initialState({
          slug,
          setup: {
            evaluationId: doc.evaluationId,
            idea: { id: doc.ideaId, title: doc.ideaTitle },
            mode: doc.mode,
            contentHash: doc.contentHashAtEvaluation,
            startedAt: doc.startedAt,
          },
          provider: 'replay',
          seed: 1,
          budgetUsd: 0,
          reopen: { from: head.from, criterion: head.trigger.criterion, reason: head.trigger.reason },
        });
        inputs = lines.slice(1).map((l) => JSON.parse(l) as EvaluationInput);
      } else {
        ({ initial, inputs } = replayEvaluation(text, this.ws.taxonomy));
      }
      const track = new EvaluationTrack(initial);
      for (const input of inputs) track.apply(input);
      return track.state.phase === 'LOCKED' ? track : null;
    } catch {
      return null;
    }
  }

  /** The run log of evaluation `id`, read (null: none, or one that cannot be read). */
  private runLog(slug: string, id: string): ReturnType<typeof readEvaluationLog> | null {
    try {
      return readEvaluationLog(this.ws.root, evaluationLogPath(slug, id));
    } catch {
      return null;
    }
  }

  /**
   * The script a full evaluation's run log stands for, when a process was killed between writing its
   * record and its script: made as the service makes it, so it reads exactly the same.
   */
  private scriptFromRunLog(slug: string, id: string): string | null {
    const log = this.runLog(slug, id);
    if (!log || log.run.reopen) return null;
    return this.service.script(log.run.setup, log.run.provider, log.inputs, {
      costUsd: log.spentUsd,
      budgetUsd: log.run.budgetUsd,
      seed: log.run.seed,
    });
  }

  /** A checkpoint folded into a track (null: no checkpoint, or one that cannot be read). */
  checkpoint(slug: string, id: string): CheckpointEvaluation | null {
    // A kept evaluation is its record: its log is a checkpoint only until then.
    if (existsSync(join(this.folder(slug), `${id}.json`))) return null;
    const rel = evaluationLogPath(slug, id);
    const path = join(this.ws.root, rel);
    let key: string;
    try {
      // The link's own size and time: a linked checkpoint is refused below, never stat'ed through.
      const stat = lstatSync(path);
      key = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return null;
    }
    const cached = this.checkpoints.get(id);
    if (cached?.key === key) return cached.value;
    try {
      const { run: header, inputs, spentUsd, stopped } = readEvaluationLog(this.ws.root, rel);
      const track = new EvaluationTrack(this.service.initialState(header));
      for (const input of inputs) track.apply(input);
      const value = { header, track, spentUsd, stopped, remaining: this.service.remainingAsks(track.state) };
      this.checkpoints.set(id, { key, value });
      return value;
    } catch {
      return null;
    }
  }

  /** The idea's content hash now and the id of its current evaluation. */
  idea(slug: string): { contentHash: string; evaluationId: string | null } | null {
    return ideaEvaluationState(this.ws.db, slug);
  }
}
