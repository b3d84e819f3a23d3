import { z } from 'zod';
import { issuePath } from '../text/zod-issues';
import { type CriticalChallenge, undefended } from './gate';
import { PIPELINE_STEPS, type PipelineStep, STEP_NAMES } from './steps';

/**
 * The pipeline log of one idea: `ideas/<slug>/pipeline.md`, a markdown file the researcher reads
 * like any note, and the pipeline's only memory of what it did. One list item per entry, oldest
 * first, only ever appended to: when, which step, what happened, what it cost, in words; the
 * entry's data follows in an HTML comment on the same line (hidden when the file is rendered, as
 * the development log's metadata is). Lines without such a comment are the researcher's and are
 * left alone.
 */

export const PIPELINE_EVENTS = [
  /** The idea entered the pipeline (or was sent through it again). */
  'enrolled',
  /** A step began (or began again after an interruption). */
  'started',
  'done',
  /** A step that had nothing to do (an idea already evaluated, nothing to red-team). */
  'skipped',
  /** An evaluation waits in the review gate with CRITICAL challenges. */
  'held',
  /** The researcher approved a held evaluation: it may lock. */
  'approved',
  /** Stopped on purpose (the researcher, the app closing); it continues at the next run. */
  'stopped',
  'failed',
  /** Not started: it would pass the daily budget, or the provider cannot run. */
  'refused',
] as const;
export type PipelineEvent = (typeof PIPELINE_EVENTS)[number];

const criticalSchema = z.strictObject({
  id: z.string(),
  round: z.number().int().min(0),
  criterion: z.string(),
  persona: z.string(),
  challenge: z.string(),
  winner: z.enum(['EVALUATOR', 'RED_TEAM', 'DRAW']).nullable(),
});

export const stepEstimateSchema = z.strictObject({
  calls: z.number().nonnegative(),
  usd: z.number().nonnegative(),
  worstCalls: z.number().nonnegative(),
  worstUsd: z.number().nonnegative(),
});

export const pipelineEntrySchema = z.strictObject({
  /** ISO time. */
  at: z.string().min(1),
  /** The local day it counts against (YYYY-MM-DD): the daily budget is a local day's. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day as YYYY-MM-DD'),
  step: z.enum(PIPELINE_STEPS),
  event: z.enum(PIPELINE_EVENTS),
  /** USD spent by what this entry records (a step's cost is in the entry that ends it). */
  costUsd: z.number().nonnegative(),
  note: z.string(),
  evaluationId: z.string().optional(),
  /** The cost preview the step started with. */
  estimate: stepEstimateSchema.optional(),
  /** The CRITICAL challenges a held evaluation or a red-team round raised. */
  critical: z.array(criticalSchema).optional(),
  /** An evaluation the red team's CRITICAL challenges sent the idea back to. */
  reevaluation: z.boolean().optional(),
  /**
   * A hold where a limit would have locked it (its budget or time ran out): once approved it locks
   * from its figures with no further call. Absent: held at its review (the narrative call is left).
   */
  limit: z.enum(['budget', 'time']).optional(),
  provider: z.string().optional(),
});
export type PipelineEntry = z.infer<typeof pipelineEntrySchema>;

export class PipelineLogError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'PipelineLogError';
  }
}

const MARK = /<!-- pipeline (\{.*\}) -->\s*$/;

/** The top of a new log. */
export function logHeader(title: string): string {
  return (
    `# Pipeline log: ${title}\n\n` +
    'What the pipeline did with this idea, one line per step, oldest first: when, which step, what\n' +
    'happened and what it cost (USD). The app only ever adds lines at the end; the data behind each\n' +
    'line is in its comment.\n\n'
  );
}

const usd = (n: number) => `$${n.toFixed(4)}`;

/** One entry as its line in the log (ending with a newline). */
export function formatEntry(entry: PipelineEntry): string {
  const when = `${entry.at.slice(0, 10)} ${entry.at.slice(11, 19)} UTC`;
  const words = entry.note.replace(/\s+/g, ' ').replace(/-->/g, '—>').trim();
  // `-->` inside the JSON would close the comment early: the one sequence JSON may not carry here.
  const data = JSON.stringify(entry).replace(/-->/g, '--\\u003e');
  return `- ${when} · **${STEP_NAMES[entry.step]}** · ${entry.event} · ${usd(entry.costUsd)}${words ? ` — ${words}` : ''} <!-- pipeline ${data} -->\n`;
}

/** The entries of a log, in order; a damaged entry line is an error naming the file and line. */
export function parseLog(text: string, file: string): PipelineEntry[] {
  const entries: PipelineEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = MARK.exec(lines[i] as string);
    if (!match) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(match[1] as string);
    } catch (error) {
      throw new PipelineLogError(file, i + 1, `the entry's data is not JSON (${(error as Error).message})`);
    }
    const parsed = pipelineEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? issuePath(issue.path) : '';
      throw new PipelineLogError(file, i + 1, `${where ? `${where}: ` : ''}${issue?.message ?? 'not an entry'}`);
    }
    entries.push(parsed.data);
  }
  return entries;
}

export type StepStatus = 'pending' | 'running' | 'held' | 'approved' | 'stopped' | 'failed' | 'done';

export interface StepState {
  status: StepStatus;
  /** The evaluation a step of an evaluation runs (the latest), once it has one. */
  evaluationId: string | null;
  /** Failures since it last succeeded (or since the idea was last sent through again). */
  failures: number;
  /** The last day a refusal was logged (one line a day, not one a minute). */
  refusedOn: string | null;
  /** The CRITICAL challenges of its latest hold or red-team round. */
  critical: CriticalChallenge[];
  /** Where its latest hold was: at the review (the narrative call left), or where a limit ran out (nothing left). */
  heldAt: 'review' | 'budget' | 'time' | null;
  /** Its last entry's words. */
  note: string;
  at: string | null;
}

/** One idea's pipeline, folded from its log. */
export interface IdeaPipeline {
  enrolled: boolean;
  enrolledAt: string | null;
  steps: Record<PipelineStep, StepState>;
  /** The red team's CRITICAL challenges stand undefended and no evaluation has answered them yet. */
  reevaluationDue: boolean;
  /** Evaluations the red team sent the idea back to. */
  reevaluations: number;
  /** Evaluations the researcher let through the review gate. */
  approved: string[];
  costUsd: number;
  costByDay: Record<string, number>;
  /** USD logged against each evaluation (a resumed one logs only what it had not yet). */
  costByEvaluation: Record<string, number>;
  entries: number;
  last: PipelineEntry | null;
}

function freshStep(): StepState {
  return {
    status: 'pending',
    evaluationId: null,
    failures: 0,
    refusedOn: null,
    critical: [],
    heldAt: null,
    note: '',
    at: null,
  };
}

export function emptyPipeline(): IdeaPipeline {
  return {
    enrolled: false,
    enrolledAt: null,
    steps: Object.fromEntries(PIPELINE_STEPS.map((s) => [s, freshStep()])) as Record<PipelineStep, StepState>,
    reevaluationDue: false,
    reevaluations: 0,
    approved: [],
    costUsd: 0,
    costByDay: {},
    costByEvaluation: {},
    entries: 0,
    last: null,
  };
}

/** Where an idea stands, from its log's entries (a pure fold: the same entries, the same state). */
export function foldLog(entries: readonly PipelineEntry[]): IdeaPipeline {
  const p = emptyPipeline();
  for (const e of entries) {
    const s = p.steps[e.step];
    p.entries++;
    p.last = e;
    p.costUsd += e.costUsd;
    p.costByDay[e.day] = (p.costByDay[e.day] ?? 0) + e.costUsd;
    if (e.evaluationId) p.costByEvaluation[e.evaluationId] = (p.costByEvaluation[e.evaluationId] ?? 0) + e.costUsd;
    if (e.event !== 'refused') {
      s.note = e.note;
      s.at = e.at;
    }
    if (e.evaluationId) s.evaluationId = e.evaluationId;
    switch (e.event) {
      case 'enrolled':
        p.enrolled = true;
        p.enrolledAt ??= e.at;
        s.status = 'done';
        // Sent through again: the steps that gave up get their tries back.
        for (const step of PIPELINE_STEPS) p.steps[step].failures = 0;
        break;
      case 'started':
        s.status = 'running';
        if (e.reevaluation) {
          p.reevaluations++;
          p.reevaluationDue = false;
        }
        break;
      case 'done':
      case 'skipped':
        s.status = 'done';
        s.failures = 0;
        s.critical = e.critical ?? [];
        s.heldAt = null;
        if (e.step === 'redteam') p.reevaluationDue = undefended(s.critical).length > 0;
        break;
      case 'held':
        s.status = 'held';
        s.critical = e.critical ?? [];
        s.heldAt = e.limit ?? 'review';
        break;
      case 'approved':
        s.status = 'approved';
        if (e.evaluationId && !p.approved.includes(e.evaluationId)) p.approved.push(e.evaluationId);
        break;
      case 'stopped':
        s.status = 'stopped';
        break;
      case 'failed':
        s.status = 'failed';
        s.failures++;
        break;
      case 'refused':
        s.refusedOn = e.day;
        break;
    }
  }
  return p;
}
