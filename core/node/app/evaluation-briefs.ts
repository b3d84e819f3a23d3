import { join } from 'node:path';
import type { FinalSynthesisDocument } from '../../evaluation';
import { sha256 } from '../hasher';
import { safeWrite } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';

type Doc = FinalSynthesisDocument;

/**
 * What the lists of evaluations show of a locked record (`summaryFromDocument`): a few fields of its
 * ~30 kB document.
 */
export type RecordHead = Pick<
  Doc,
  | 'ideaTitle'
  | 'mode'
  | 'scope'
  | 'supersedes'
  | 'startedAt'
  | 'completedAt'
  | 'rounds'
  | 'lockReason'
  | 'contentHashAtEvaluation'
> & {
  composites: Pick<Doc['composites'], 'overallScore' | 'overallConfidence' | 'redTeamSurvivalRate'>;
  narrative: Pick<Doc['narrative'], 'recommendation'>;
  convergence: Pick<Doc['convergence'], 'roundLimit'>;
};

/**
 * What every listing needs of one locked record, kept so that none of them reads the record again:
 * its head (the summary), what its script's first line adds, its final scores (the matrix), and
 * how many entries its transcript has (null: not counted yet: counting replays its script).
 */
export interface RecordBrief {
  /** The sizes and times of its record and script when it was read (as the index keys them). */
  key: string;
  slug: string;
  head: RecordHead;
  provider: string | null;
  costUsd: number | null;
  budgetUsd: number | null;
  /** The criteria of its scores, in the record's order (one array shared by the records that agree). */
  criteria: readonly string[];
  /**
   * Their final scores, then their confidences, as text (`4 6 4|0.83 0.72 0.74`): only the matrix
   * reads them (`briefScores`), so 300,000 numbers are not made into objects at each start.
   */
  scores: string;
  entries: number | null;
}

/** A brief's final score and confidence by criterion. */
export function briefScores(brief: RecordBrief): Map<string, { finalScore: number; confidence: number }> {
  const [finals = '', confidences = ''] = brief.scores.split('|');
  const f = finals === '' ? [] : finals.split(' ');
  const c = confidences === '' ? [] : confidences.split(' ');
  return new Map(brief.criteria.map((id, i) => [id, { finalScore: Number(f[i]), confidence: Number(c[i]) }]));
}

/** Packs a record's scores for a brief (see RecordBrief.scores). */
export function packScores(scores: readonly { finalScore: number; confidence: number }[]): string {
  return `${scores.map((s) => String(s.finalScore)).join(' ')}|${scores.map((s) => String(s.confidence)).join(' ')}`;
}

/** The head of a record as the lists need it (only these fields, so a brief stays small). */
export function headOf(d: RecordHead): RecordHead {
  return {
    ideaTitle: d.ideaTitle,
    mode: d.mode,
    scope: d.scope,
    supersedes: d.supersedes,
    startedAt: d.startedAt,
    completedAt: d.completedAt,
    rounds: d.rounds,
    lockReason: d.lockReason,
    contentHashAtEvaluation: d.contentHashAtEvaluation,
    composites: {
      overallScore: d.composites.overallScore,
      overallConfidence: d.composites.overallConfidence,
      redTeamSurvivalRate: d.composites.redTeamSurvivalRate,
    },
    narrative: { recommendation: d.narrative.recommendation },
    convergence: { roundLimit: d.convergence.roundLimit },
  };
}

const VERSION = 2;
/** Workspace-relative: app-owned, like everything in `.crucible/`, and deleted at no cost but a rebuild. */
export const BRIEFS_FILE = join('.crucible', 'evaluation-briefs.json');

/** A brief as one row of the file: an array (10,000 objects' keys are not repeated, and parse faster). */
type Row = [
  id: string,
  key: string,
  slug: string,
  ideaTitle: string,
  mode: RecordHead['mode'],
  scope: RecordHead['scope'],
  supersedes: string | null,
  startedAt: string,
  completedAt: string,
  rounds: number,
  lockReason: RecordHead['lockReason'],
  contentHashAtEvaluation: string,
  overallScore: number,
  overallConfidence: number,
  redTeamSurvivalRate: number | null,
  recommendation: RecordHead['narrative']['recommendation'],
  roundLimit: number,
  provider: string | null,
  costUsd: number | null,
  budgetUsd: number | null,
  entries: number | null,
  criteria: number,
  scores: string,
];

function toRow(id: string, b: RecordBrief, criteria: number): Row {
  const h = b.head;
  return [
    id,
    b.key,
    b.slug,
    h.ideaTitle,
    h.mode,
    h.scope,
    h.supersedes,
    h.startedAt,
    h.completedAt,
    h.rounds,
    h.lockReason,
    h.contentHashAtEvaluation,
    h.composites.overallScore,
    h.composites.overallConfidence,
    h.composites.redTeamSurvivalRate,
    h.narrative.recommendation,
    h.convergence.roundLimit,
    b.provider,
    b.costUsd,
    b.budgetUsd,
    b.entries,
    criteria,
    b.scores,
  ];
}

function fromRow(r: Row, criteria: readonly (readonly string[])[]): RecordBrief {
  return {
    key: r[1],
    slug: r[2],
    head: {
      ideaTitle: r[3],
      mode: r[4],
      scope: r[5],
      supersedes: r[6],
      startedAt: r[7],
      completedAt: r[8],
      rounds: r[9],
      lockReason: r[10],
      contentHashAtEvaluation: r[11],
      composites: { overallScore: r[12], overallConfidence: r[13], redTeamSurvivalRate: r[14] },
      narrative: { recommendation: r[15] },
      convergence: { roundLimit: r[16] },
    },
    provider: r[17],
    costUsd: r[18],
    budgetUsd: r[19],
    entries: r[20],
    criteria: criteria[r[21]] ?? [],
    scores: r[22],
  };
}

/**
 * The briefs of every locked record read so far (by evaluation id), in memory and in one file
 * under `.crucible/`, so the first listing after a start reads that file instead of every record
 * (10,000 records parsed and checked took 8–16 s). A brief is used only while its key is the one
 * the index gives the record's files now: a record changed on disk is read again.
 *
 * The file is read once, on the first ask. Its first line carries the SHA-256 of the rest: a file
 * that was cut short, edited or damaged in any way is ignored as a whole (every record is read
 * again, and the next save rewrites it). Its briefs were checked when their records were read, so
 * they are not checked again one by one (checking 10,000 took a third of a second).
 */
export class EvaluationBriefs {
  private readonly briefs = new Map<string, RecordBrief>();
  private readonly criteria = new Map<string, readonly string[]>();
  private loaded = false;
  private dirty = false;

  constructor(private readonly root: string) {}

  /** One array for every record that scores the same criteria in the same order. */
  criteriaOf(ids: readonly string[]): readonly string[] {
    const key = ids.join(' ');
    const known = this.criteria.get(key);
    if (known) return known;
    this.criteria.set(key, ids);
    return ids;
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    let text: string;
    try {
      text = readTextInside(this.root, BRIEFS_FILE);
    } catch {
      return;
    }
    const cut = text.indexOf('\n');
    if (cut < 0) return;
    try {
      const head = JSON.parse(text.slice(0, cut)) as { version?: unknown; sha256?: unknown };
      const body = text.slice(cut + 1);
      if (head.version !== VERSION || head.sha256 !== sha256(body)) return;
      const file = JSON.parse(body) as { criteria: string[][]; rows: Row[] };
      const criteria = file.criteria.map((ids) => this.criteriaOf(ids));
      for (const row of file.rows) if (!this.briefs.has(row[0])) this.briefs.set(row[0], fromRow(row, criteria));
    } catch {
      // Not what this app writes (the hash matched a file of another shape): read every record again.
      this.briefs.clear();
    }
  }
  /** The brief of record `id` as its files are now (`key`), if one was kept. */
  get(id: string, key: string): RecordBrief | undefined {
    this.load();
    const brief = this.briefs.get(id);
    return brief?.key === key ? brief : undefined;
  }

  set(id: string, brief: RecordBrief): void {
    this.load();
    this.briefs.set(id, brief);
    this.dirty = true;
  }

  /** Notes the count of a brief's entries (a new object: rows made from the old one are told apart). */
  counted(id: string, brief: RecordBrief, entries: number): RecordBrief {
    const next = { ...brief, entries };
    if (this.briefs.get(id) === brief) this.set(id, next);
    return next;
  }

  /** Whether something was learnt since the last save. */
  get unsaved(): boolean {
    return this.dirty;
  }

  /**
   * Writes the briefs of the records still listed (`keep`) to the file (the project's safe write: a
   * temporary file renamed over it). A failure to write costs only a slower first listing after
   * the next start.
   */
  save(keep: (id: string) => boolean = () => true): void {
    if (!this.dirty) return;
    this.dirty = false;
    for (const id of this.briefs.keys()) if (!keep(id)) this.briefs.delete(id);
    const tables = new Map<readonly string[], number>();
    const rows: Row[] = [];
    for (const [id, brief] of this.briefs) {
      let table = tables.get(brief.criteria);
      if (table === undefined) {
        table = tables.size;
        tables.set(brief.criteria, table);
      }
      rows.push(toRow(id, brief, table));
    }
    const body = JSON.stringify({ criteria: [...tables.keys()], rows });
    try {
      safeWrite(
        this.root,
        BRIEFS_FILE,
        `${JSON.stringify({ version: VERSION, sha256: sha256(body) })}\n${body}`,
        'any',
      );
    } catch {}
  }
}
