import type { CriticalChallenge } from './gate';
import type { IdeaPipeline } from './log';
import { isEvaluationStep, type PaidStep, type PipelineSettings, STEP_NAMES, type StepEstimate } from './steps';

/**
 * What the pipeline does next, decided from data alone: each enrolled idea's log (folded), a few
 * facts about the idea, the switches, the day's spend and budget, and each step's cost preview. No
 * clock, no files: the service (core/node/pipeline) gathers the facts, performs the first step that
 * may run and logs it, and asks again. A restart asks the same question of the same logs, so it
 * picks up where the pipeline was.
 */

/** A step that failed this many times in a row is not tried again until the idea is sent through again. */
export const MAX_FAILURES = 2;

export interface IdeaFacts {
  slug: string;
  title: string;
  pipeline: IdeaPipeline;
  /** The idea's current locked evaluation, and whether its inputs changed since it locked. */
  current: { id: string; stale: boolean } | null;
  /** Evaluations the log names that have locked since (their record exists): finished elsewhere. */
  locked: readonly string[];
}

export interface DecisionInput {
  settings: PipelineSettings;
  /** The pipeline is switched on (`pipeline run`) and not stopped. */
  running: boolean;
  /** The local day (YYYY-MM-DD) whose spend counts against the budget. */
  today: string;
  estimates: Readonly<Record<PaidStep, StepEstimate>>;
  ideas: readonly IdeaFacts[];
  /** The most one evaluation may spend by the workspace's settings (null: no cap of its own). */
  evaluationCapUsd: number | null;
  /** Ideas with an evaluation running outside the pipeline: their evaluation steps wait for it to end. */
  busy?: readonly string[];
  /**
   * The cost preview of what an evaluation approved in the review gate has left: its narrative call
   * (absent: priced as the whole step, the cautious side).
   */
  lockEstimate?: StepEstimate;
}

export type ActionKind =
  /** Begin the step (again, after an interruption of a step that keeps no checkpoint). */
  | 'start'
  /** Continue the step's evaluation from its checkpoint. */
  | 'resume'
  /** Log the step as having nothing to do. */
  | 'skip'
  /** Log the step's evaluation as done: it locked elsewhere (resumed by hand, or locked before a kill). */
  | 'settle';

export interface PlannedStep {
  slug: string;
  title: string;
  step: PaidStep;
  kind: ActionKind;
  /** The evaluation to resume or settle. */
  evaluationId: string | null;
  /** An evaluation the red team sent the idea back to. */
  reevaluation: boolean;
  /** The researcher let this evaluation through the review gate. */
  approved: boolean;
  /**
   * All an approved evaluation has left is its lock: the narrative call (held at its review), or
   * nothing (held where its budget or time ran out: it locks from its figures). Null otherwise.
   */
  lock: 'narrative' | 'figures' | null;
  /** Why this step now, in words (it goes into the log). */
  reason: string;
  /** Its cost preview (null for a step that makes no call). */
  estimate: StepEstimate | null;
  /** The most it may spend: what is left of today's budget (an evaluation's own cap, if lower). */
  capUsd: number;
}

export interface Refusal {
  slug: string;
  title: string;
  step: PaidStep;
  message: string;
  /** Not logged yet today for this idea and step (the service logs it once). */
  unlogged: boolean;
}

export interface Waiting {
  slug: string;
  title: string;
  step: 'evaluate' | 'redteam';
  evaluationId: string;
  critical: CriticalChallenge[];
  /** Held at its review (the narrative call left), or where its budget or time ran out (it locks from its figures). */
  heldAt: 'review' | 'budget' | 'time';
}

export interface Halted {
  slug: string;
  title: string;
  step: PaidStep;
  message: string;
}

export interface Decision {
  /** The step to perform now, or null (stopped, nothing to do, or nothing that fits the budget). */
  next: PlannedStep | null;
  /** Every step due, in the order they would run. */
  queue: PlannedStep[];
  refused: Refusal[];
  /** Evaluations held in the review gate. */
  waiting: Waiting[];
  /** Ideas stopped at a step that failed too often. */
  halted: Halted[];
  spentTodayUsd: number;
  remainingUsd: number;
  /** Enrolled ideas with nothing left to do. */
  finished: string[];
}

const usd = (n: number) => `$${n.toFixed(4)}`;

type Next =
  | { kind: 'action'; action: Omit<PlannedStep, 'estimate' | 'capUsd'> }
  | { kind: 'waiting'; waiting: Waiting }
  | { kind: 'halted'; halted: Halted }
  | { kind: 'finished' };

const ORDER: readonly PaidStep[] = ['develop', 'evaluate', 'redteam', 'classify'];

/** The one next step of one idea: steps in order, each switched on, not done, and its situation. */
export function nextStepOf(idea: IdeaFacts, settings: PipelineSettings): Next {
  const p = idea.pipeline;
  const base = {
    slug: idea.slug,
    title: idea.title,
    evaluationId: null,
    reevaluation: false,
    approved: false,
    lock: null,
  };
  const lockOf = (s: IdeaPipeline['steps'][PaidStep]): PlannedStep['lock'] =>
    s.heldAt === 'budget' || s.heldAt === 'time' ? 'figures' : 'narrative';
  for (const step of ORDER) {
    const s = p.steps[step];
    const on = settings.steps[step];
    const begun = s.status === 'running' || s.status === 'stopped' || s.status === 'held' || s.status === 'approved';
    if (isEvaluationStep(step) && begun && s.evaluationId && idea.locked.includes(s.evaluationId)) {
      return {
        kind: 'action',
        action: {
          ...base,
          step,
          kind: 'settle',
          evaluationId: s.evaluationId,
          reason: `evaluation ${s.evaluationId} has locked (continued outside the pipeline, or locked just before an interruption)`,
        },
      };
    }
    if (s.status === 'done') {
      if (step === 'evaluate' && p.reevaluationDue && on && p.reevaluations < settings.maxReevaluations) {
        return {
          kind: 'action',
          action: {
            ...base,
            step,
            kind: 'start',
            reevaluation: true,
            reason: "the red team's CRITICAL challenges stood undefended: the idea is evaluated again",
          },
        };
      }
      continue;
    }
    // A step switched off is passed over, begun or not; switched on again, it goes on where it was.
    if (!on) continue;
    switch (s.status) {
      case 'held':
        return {
          kind: 'waiting',
          waiting: {
            slug: idea.slug,
            title: idea.title,
            step: step as 'evaluate' | 'redteam',
            evaluationId: s.evaluationId ?? '',
            critical: s.critical,
            heldAt: s.heldAt ?? 'review',
          },
        };
      case 'approved':
        return {
          kind: 'action',
          action: {
            ...base,
            step,
            kind: 'resume',
            evaluationId: s.evaluationId,
            approved: true,
            lock: lockOf(s),
            reason: 'approved in the review gate: it may lock',
          },
        };
      case 'running':
      case 'stopped': {
        const why = s.status === 'running' ? 'it was interrupted' : 'it was stopped';
        if (isEvaluationStep(step) && s.evaluationId) {
          const approved = p.approved.includes(s.evaluationId);
          return {
            kind: 'action',
            action: {
              ...base,
              step,
              kind: 'resume',
              evaluationId: s.evaluationId,
              approved,
              lock: approved ? lockOf(s) : null,
              reason: `${why}: it continues from its checkpoint`,
            },
          };
        }
        return { kind: 'action', action: { ...base, step, kind: 'start', reason: `${why}: it starts again` } };
      }
      case 'failed':
        if (s.failures >= MAX_FAILURES)
          return {
            kind: 'halted',
            halted: {
              slug: idea.slug,
              title: idea.title,
              step,
              message: `${STEP_NAMES[step]} failed ${s.failures} times (last: ${s.note}); send the idea through again to retry`,
            },
          };
        return {
          kind: 'action',
          action: { ...base, step, kind: 'start', reason: `it failed once (${s.note}): one more try` },
        };
      case 'pending':
        if (step === 'evaluate' && idea.current && !idea.current.stale)
          return {
            kind: 'action',
            action: {
              ...base,
              step,
              kind: 'skip',
              evaluationId: idea.current.id,
              reason: `its evaluation ${idea.current.id} is current (nothing changed since it locked)`,
            },
          };
        if (step === 'redteam' && !idea.current)
          return {
            kind: 'action',
            action: {
              ...base,
              step,
              kind: 'skip',
              reason: 'it has no locked evaluation for the red team to challenge',
            },
          };
        return { kind: 'action', action: { ...base, step, kind: 'start', reason: 'next in the pipeline' } };
    }
  }
  return { kind: 'finished' };
}

/** Begun work first (finish what was started), then ideas in the order they entered the pipeline. */
function rank(a: { action: Omit<PlannedStep, 'estimate' | 'capUsd'>; at: string }, b: typeof a): number {
  const begun = (x: typeof a) => (x.action.kind === 'start' && !x.action.reevaluation ? 1 : 0);
  return begun(a) - begun(b) || a.at.localeCompare(b.at) || a.action.slug.localeCompare(b.action.slug);
}

/**
 * Whether a step fits what is left of today's budget. A single call (develop, classify) must fit
 * at its worst, since nothing can stop it halfway; an evaluation must fit as likely priced, and runs
 * with the rest of the budget as its own, which its runner never crosses (it locks with BUDGET).
 */
function budgetProblem(
  step: PaidStep,
  estimate: StepEstimate,
  spent: number,
  budget: number,
  title: string,
  lock: PlannedStep['lock'],
): string | null {
  const remaining = Math.max(0, budget - spent);
  // The narrative call that locks an approved evaluation is one call too.
  const single = !isEvaluationStep(step) || lock === 'narrative';
  const needed = single ? estimate.worstUsd : estimate.usd;
  if (needed <= remaining + 1e-12) return null;
  const what = lock === 'narrative' ? `the lock of ${STEP_NAMES[step]}` : STEP_NAMES[step];
  return (
    `refused: today's pipeline spend is ${usd(spent)} of its daily budget of ${usd(budget)}; ` +
    `${what} of "${title}" would ${single ? 'cost up to' : 'likely cost'} ${usd(needed)}. ` +
    'It waits for tomorrow (local time) or a larger dailyBudgetUsd in pipeline.md.'
  );
}

export function decide(input: DecisionInput): Decision {
  const { settings, today } = input;
  const spent = input.ideas.reduce((sum, i) => sum + (i.pipeline.costByDay[today] ?? 0), 0);
  const budget = settings.dailyBudgetUsd;
  const remaining = Math.max(0, budget - spent);
  const due: { action: Omit<PlannedStep, 'estimate' | 'capUsd'>; at: string; refusedOn: string | null }[] = [];
  const waiting: Waiting[] = [];
  const halted: Halted[] = [];
  const finished: string[] = [];
  for (const idea of input.ideas) {
    if (!idea.pipeline.enrolled) continue;
    const next = nextStepOf(idea, settings);
    if (next.kind === 'action')
      due.push({
        action: next.action,
        at: idea.pipeline.enrolledAt ?? '',
        refusedOn: idea.pipeline.steps[next.action.step].refusedOn,
      });
    else if (next.kind === 'waiting') waiting.push(next.waiting);
    else if (next.kind === 'halted') halted.push(next.halted);
    else finished.push(idea.slug);
  }
  due.sort(rank);
  const queue: PlannedStep[] = [];
  const refused: Refusal[] = [];
  let next: PlannedStep | null = null;
  for (const { action, refusedOn } of due) {
    // An evaluation held where its limit ran out locks from its figures: no call is left to price.
    const free = action.kind === 'skip' || action.kind === 'settle' || action.lock === 'figures';
    const estimate = free
      ? null
      : action.lock === 'narrative'
        ? (input.lockEstimate ?? input.estimates[action.step])
        : input.estimates[action.step];
    const ownCap = isEvaluationStep(action.step) ? input.evaluationCapUsd : null;
    const planned: PlannedStep = {
      ...action,
      estimate,
      capUsd: ownCap === null ? remaining : Math.min(remaining, ownCap),
    };
    queue.push(planned);
    if (estimate) {
      const problem = estimate.cannotRun
        ? `refused: ${STEP_NAMES[action.step]} of "${action.title}" cannot run: ${estimate.cannotRun}`
        : budgetProblem(action.step, estimate, spent, budget, action.title, action.lock);
      if (problem) {
        refused.push({
          slug: action.slug,
          title: action.title,
          step: action.step,
          message: problem,
          unlogged: refusedOn !== today,
        });
        continue;
      }
    }
    const waitsForOther = isEvaluationStep(action.step) && (input.busy ?? []).includes(action.slug);
    if (input.running && next === null && !waitsForOther) next = planned;
  }
  return { next, queue, refused, waiting, halted, spentTodayUsd: spent, remainingUsd: remaining, finished };
}
