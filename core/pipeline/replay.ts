import { decide, type IdeaFacts, type PlannedStep } from './decide';
import { foldLog, type PipelineEntry } from './log';
import { PAID_STEPS, type PaidStep, type PipelineSettings, type StepEstimate } from './steps';

/**
 * One idea's pipeline log replayed through `decide`: the log is the pipeline's only memory, so at
 * every entry where the pipeline chose what to do (a step `started` or `skipped`), the log before it
 * must lead `decide` to that same step for the same reason (the entry's note begins with the
 * reason). A log written by an earlier version resumes the way it was meant to, or this says where
 * not.
 *
 * What the log does not hold is given or taken as the log implies it: the switches (`settings`), the
 * idea's current evaluation (the last one the log saw lock, never stale: nothing edits the idea
 * while it is replayed), and money (every step free: the budget's refusals are `decide`'s tests').
 */

export interface ReplayedDecision {
  /** The entry's place in the log (0: the first entry). */
  index: number;
  entry: PipelineEntry;
  /** What `decide` chose from the entries before it; null when it chose nothing. */
  decided: PlannedStep | null;
  /** The same step, for the reason the entry gives, starting or skipping as the entry says. */
  agrees: boolean;
}

export interface LogReplay {
  decisions: ReplayedDecision[];
  /** After the last entry, nothing is left for the idea (it went through every step that is on). */
  finished: boolean;
}

const FREE: StepEstimate = { calls: 0, usd: 0, worstCalls: 0, worstUsd: 0, basis: 'replayed', cannotRun: null };
const FREE_ESTIMATES = Object.fromEntries(PAID_STEPS.map((s) => [s, FREE])) as Record<PaidStep, StepEstimate>;

function factsAt(slug: string, entries: readonly PipelineEntry[]): IdeaFacts {
  let current: IdeaFacts['current'] = null;
  for (const e of entries)
    if ((e.step === 'evaluate' || e.step === 'redteam') && (e.event === 'done' || e.event === 'skipped'))
      if (e.evaluationId) current = { id: e.evaluationId, stale: false };
  return { slug, title: slug, pipeline: foldLog(entries), current, locked: [] };
}

function decisionAt(slug: string, entries: readonly PipelineEntry[], settings: PipelineSettings, today: string) {
  return decide({
    settings,
    running: true,
    today,
    estimates: FREE_ESTIMATES,
    ideas: [factsAt(slug, entries)],
    evaluationCapUsd: null,
  });
}

export function replayLog(slug: string, entries: readonly PipelineEntry[], settings: PipelineSettings): LogReplay {
  const decisions: ReplayedDecision[] = [];
  entries.forEach((entry, index) => {
    if (entry.event !== 'started' && entry.event !== 'skipped') return;
    const decided = decisionAt(slug, entries.slice(0, index), settings, entry.day).next;
    const agrees =
      decided !== null &&
      decided.step === entry.step &&
      (decided.kind === 'skip') === (entry.event === 'skipped') &&
      entry.note.startsWith(decided.reason);
    decisions.push({ index, entry, decided, agrees });
  });
  const last = entries.at(-1)?.day ?? '';
  return { decisions, finished: decisionAt(slug, entries, settings, last).finished.includes(slug) };
}
