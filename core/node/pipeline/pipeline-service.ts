import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { advance, type EvaluationState, resumeEvaluation } from '../../evaluation';
import { ideaFile } from '../../idea/layout';
import { type Decision, decide, type IdeaFacts, type PlannedStep } from '../../pipeline/decide';
import {
  type CriticalChallenge,
  criticalChallenges,
  gateHolds,
  gateHoldsAtLimit,
  redTeamReason,
  redTeamTarget,
  undefended,
} from '../../pipeline/gate';
import type { IdeaPipeline, PipelineEntry } from '../../pipeline/log';
import {
  type PaidStep,
  type PipelineSettingsPatch,
  type PipelineStep,
  STEP_NAMES,
  type StepEstimate,
} from '../../pipeline/steps';
import { type LlmCallRecord, LlmError } from '../../ports/llm';
import { type Log, silentLog } from '../../ports/log';
import { readSettings } from '../app/settings-file';
import type { Provider, ProviderFactory, ProviderName } from '../debates/providers';
import { ClassificationService } from '../evaluations/classification-service';
import { DevelopmentService } from '../evaluations/development-service';
import { evaluationLogPath, readEvaluationLog, type StopReason } from '../evaluations/evaluation-log';
import { EvaluationService, type PreparedRun, type RunHooks, type RunOutcome } from '../evaluations/evaluation-service';
import { claimRun, type HeldRun, requestRun, runOwner } from '../runs/run-control';
import { ideaEvaluationState } from '../sqlite/evaluation-record-queries';
import { getIdea } from '../sqlite/index-sql';
import type { SyncReport } from '../workspace/sync-pass';
import { UserError, type Workspace } from '../workspace/workspace';
import { lockEstimate, stepEstimates } from './pipeline-estimates';
import { appendEntry, localDay, PipelineLogs, readEntries } from './pipeline-log-file';
import { readRunState, writeRunState } from './pipeline-run-state';
import { PIPELINE_FILE, readPipelineSettings, writePipelineSettings } from './pipeline-settings-file';

/** The lease (run-control.ts) that makes one process per workspace the one performing its pipeline. */
export const PIPELINE_LEASE = 'pipeline';

/** How the pipeline runs a prepared evaluation: the app passes one its evaluation views follow live. */
export interface EvaluationLauncher {
  /** Why an evaluation of `slug` cannot start now (one already runs), or null. */
  busy(slug: string): string | null;
  run(prepared: PreparedRun, hooks: RunHooks): Promise<RunOutcome>;
}

const directLauncher: EvaluationLauncher = { busy: () => null, run: (prepared, hooks) => prepared.run(hooks) };

export interface PipelineServiceOptions {
  providers: ProviderFactory;
  launcher?: EvaluationLauncher;
  /** Told after every entry and every switch (the app pushes `pipelinerun:changed`). */
  onChange?: (slug: string | null) => void;
  log?: Log;
  now?: () => Date;
  /** Throws once the host is closing: no new step starts then. */
  open?: () => void;
  /**
   * This process performs the pipeline whenever it is on (a host that stays open: the desktop app,
   * browser mode). Otherwise (a one-shot CLI command) it performs only after `run` is called in it,
   * so a `capture` on the command line enrols its idea but leaves the work to the pipeline's host.
   */
  perform?: boolean;
}

/** Why a running step was asked to stop. */
type StopWhy = 'researcher' | 'app closed';

interface Current {
  slug: string;
  title: string;
  step: PaidStep;
  evaluationId: string | null;
  startedAt: string;
  stop(why: StopWhy): void;
}

export interface PipelineIdeaStatus {
  slug: string;
  title: string;
  steps: Record<PipelineStep, IdeaPipeline['steps'][PipelineStep]['status']>;
  costUsd: number;
  todayUsd: number;
  last: { at: string; step: PipelineStep; event: string; note: string; costUsd: number } | null;
}

export interface PipelineStatusData {
  settings: ReturnType<typeof readPipelineSettings>['settings'];
  file: string;
  problems: string[];
  running: boolean;
  /** This process has a step running or about to start (the CLI's `pipeline run` waits for it to end). */
  working: boolean;
  performer: { pid: number; here: boolean; since: string } | null;
  provider: ProviderName;
  today: string;
  spentTodayUsd: number;
  remainingUsd: number;
  estimates: Record<PaidStep, StepEstimate>;
  current: { slug: string; title: string; step: PaidStep; evaluationId: string | null; startedAt: string } | null;
  queue: PlannedStep[];
  refused: Decision['refused'];
  waiting: Decision['waiting'];
  halted: Decision['halted'];
  ideas: PipelineIdeaStatus[];
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sum = (calls: readonly LlmCallRecord[]) => calls.reduce((s, c) => s + c.costUsd, 0);
const message = (error: unknown) =>
  (error instanceof Error ? error.message.split('\n')[0] : String(error)) ?? 'unknown error';

/**
 * The pipeline of one workspace (seed §11.1): ideas enter it as they appear, then go through
 * develop → evaluate → red team → classify, each step switched on in pipeline.md, priced before it
 * runs and refused past the day's budget, one step at a time, through the services the views use.
 * What to do next is `decide` (core/pipeline), asked afresh before every step from the ideas' logs,
 * so a restart goes on where the pipeline was; every step is logged in the idea's `pipeline.md` with
 * its cost. One process per workspace performs it (a lease); any process may switch it on or off.
 */
export class PipelineService {
  private readonly logs: PipelineLogs;
  private readonly launcher: EvaluationLauncher;
  private readonly log: Log;
  private readonly now: () => Date;
  private current: Current | null = null;
  private loop: Promise<void> | null = null;
  private kicked = false;
  private held: HeldRun | null = null;
  private claimedAt = '';
  private closed = false;
  /** Stopped in this process: no step starts until `run` (the run state says the same for every process). */
  private stopped = false;
  private performs: boolean;
  /** Why the pipeline stopped performing in this process, shown in the status until it performs again. */
  private failure: string | null = null;

  constructor(
    private readonly ws: Workspace,
    private readonly options: PipelineServiceOptions,
  ) {
    this.logs = new PipelineLogs(ws.root);
    this.launcher = options.launcher ?? directLauncher;
    this.log = options.log ?? silentLog;
    this.now = options.now ?? (() => new Date());
    this.performs = options.perform ?? false;
  }

  // ---- what the researcher does -----------------------------------------------------------------

  configure(patch: PipelineSettingsPatch): void {
    writePipelineSettings(this.ws.root, patch);
    this.changed(null);
    this.kick();
  }

  /** Switches the pipeline on (for every process) and sends `slugs` through it; performs here unless another process does. */
  run(slugs: readonly string[] = []): void {
    for (const slug of slugs) {
      const idea = getIdea(this.ws.db, slug);
      if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    }
    writeRunState(this.ws.root, true, this.now());
    this.stopped = false;
    this.failure = null;
    this.performs = true;
    for (const slug of slugs) this.enrol(slug, 'sent through the pipeline by the researcher', true);
    this.changed(null);
    const owner = this.performerElsewhere();
    // The process that performs it hears of it at once (it would otherwise find out at its next look).
    if (owner) requestRun(this.ws.root, PIPELINE_LEASE, 'resume');
    else this.kick();
  }

  /** Switches the pipeline off everywhere; the step running now stops at its checkpoint. */
  stop(): void {
    writeRunState(this.ws.root, false, this.now());
    this.stopped = true;
    this.current?.stop('researcher');
    if (this.performerElsewhere()) requestRun(this.ws.root, PIPELINE_LEASE, 'stop');
    this.changed(null);
  }

  /** Lets an evaluation held in the review gate lock: it continues at the pipeline's next step. */
  approve(slug: string, evaluationId: string): void {
    const idea = getIdea(this.ws.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    const pipeline = this.logs.all().pipelines.get(slug);
    const step = (['evaluate', 'redteam'] as const).find(
      (s) => pipeline?.steps[s].status === 'held' && pipeline.steps[s].evaluationId === evaluationId,
    );
    if (!step) {
      const waiting = this.decision().waiting.filter((w) => w.slug === slug);
      throw new UserError(
        `no evaluation "${evaluationId}" of "${slug}" waits in the review gate` +
          (waiting.length > 0 ? ` (waiting: ${waiting.map((w) => w.evaluationId).join(', ')})` : ''),
      );
    }
    this.append(slug, idea.title, {
      step,
      event: 'approved',
      costUsd: 0,
      evaluationId,
      note: `the researcher saw its CRITICAL challenges and let it lock`,
    });
    if (this.performerElsewhere()) requestRun(this.ws.root, PIPELINE_LEASE, 'resume');
    else this.kick();
  }

  /** The ideas a sync pass added enter the pipeline when capture is on; any pass may bring work. */
  onSync(report: SyncReport): void {
    if (this.closed) return;
    const { settings } = readPipelineSettings(this.ws.root);
    if (settings.steps.capture && report.slugs.added.length > 0) {
      const known = this.logs.all().pipelines;
      for (const slug of report.slugs.added) {
        if (known.get(slug)?.enrolled) continue;
        try {
          this.enrol(slug, 'a new idea appeared in the folder (capture is on)', false);
        } catch (error) {
          this.log.warn('a new idea could not enter the pipeline', { slug, error: message(error) });
        }
      }
    }
    this.kick();
  }

  entries(slug: string): PipelineEntry[] {
    if (!getIdea(this.ws.db, slug)) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    return readEntries(this.ws.root, slug);
  }

  isRunning(): boolean {
    return readRunState(this.ws.root).running && !this.stopped;
  }

  status(): PipelineStatusData {
    const read = readPipelineSettings(this.ws.root);
    const { decision, problems, facts, estimates, provider } = this.gather();
    const today = localDay(this.now());
    const owner = this.owner();
    const current = this.current;
    return {
      settings: read.settings,
      file: PIPELINE_FILE,
      problems: [...read.problems, ...problems, ...(this.failure ? [this.failure] : [])],
      running: readRunState(this.ws.root).running,
      working: this.loop !== null,
      performer: owner,
      provider,
      today,
      spentTodayUsd: decision.spentTodayUsd,
      remainingUsd: decision.remainingUsd,
      estimates,
      current: current
        ? {
            slug: current.slug,
            title: current.title,
            step: current.step,
            evaluationId: current.evaluationId,
            startedAt: current.startedAt,
          }
        : null,
      queue: decision.queue,
      refused: decision.refused,
      waiting: decision.waiting,
      halted: decision.halted,
      ideas: facts
        .map((f) => ({
          slug: f.slug,
          title: f.title,
          steps: Object.fromEntries(
            Object.entries(f.pipeline.steps).map(([k, v]) => [k, v.status]),
          ) as PipelineIdeaStatus['steps'],
          costUsd: f.pipeline.costUsd,
          todayUsd: f.pipeline.costByDay[today] ?? 0,
          last: f.pipeline.last
            ? {
                at: f.pipeline.last.at,
                step: f.pipeline.last.step,
                event: f.pipeline.last.event,
                note: f.pipeline.last.note,
                costUsd: f.pipeline.last.costUsd,
              }
            : null,
        }))
        .sort((a, b) => (b.last?.at ?? '').localeCompare(a.last?.at ?? '') || a.slug.localeCompare(b.slug)),
    };
  }

  /** Resolves once the pipeline has nothing more to do in this process (stopped, idle, or performed elsewhere). */
  async idle(): Promise<void> {
    while (this.loop) await this.loop;
  }

  /** Performs now if the pipeline is on, this process performs it, and no other process does (a host calls this at start). */
  resume(): void {
    this.kick();
  }

  /**
   * Stops the running step at its checkpoint (it continues at the next start) and gives the lease
   * up, waiting at most `timeoutMs` for the calls in flight (an evaluation stops between rounds).
   */
  async close(timeoutMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.current?.stop('app closed');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    this.held?.release();
    this.held = null;
  }

  // ---- performing --------------------------------------------------------------------------------

  private kick(): void {
    if (this.closed || !this.performs) return;
    if (this.loop) {
      this.kicked = true;
      return;
    }
    // `work` catches what it can; anything else still ends in the status, never as an unhandled rejection.
    this.loop = this.work()
      .catch((error) => this.fail(`the pipeline stopped unexpectedly (${message(error)})`))
      .finally(() => {
        this.loop = null;
        if (this.kicked) {
          this.kicked = false;
          this.kick();
        }
      });
  }

  private async work(): Promise<void> {
    for (;;) {
      this.kicked = false;
      await turn();
      if (this.closed || !this.isRunning()) return;
      try {
        this.options.open?.();
      } catch {
        return;
      }
      let claimed: boolean;
      try {
        claimed = this.claim();
      } catch (error) {
        // The index itself failed (not another process holding the lease): said in the status, and
        // the loop ends here rather than rejecting, which nothing would catch.
        this.fail(`the pipeline could not take its lease in the index (${message(error)})`);
        return;
      }
      if (!claimed) return;
      let decision: Decision;
      try {
        decision = this.gather().decision;
        this.logRefusals(decision);
      } catch (error) {
        this.fail(`the pipeline could not decide its next step (${message(error)})`);
        return;
      }
      if (!decision.next) return;
      try {
        await this.perform(decision.next);
      } catch (error) {
        // Every step logs its own end; one that cannot even do that would be chosen again forever.
        this.fail(`the pipeline stopped: a step could not be logged (${message(error)})`);
        this.stopped = true;
        return;
      }
    }
  }

  /** Holds the pipeline's lease for this process, or finds another process holding it. */
  private claim(): boolean {
    if (this.held) return true;
    try {
      this.held = claimRun(this.ws.root, this.ws.db, PIPELINE_LEASE, 'run');
      this.claimedAt = this.now().toISOString();
    } catch (error) {
      if (error instanceof UserError) return false;
      throw error;
    }
    // Another process asks through the run-control file: `pipeline stop` there, new work there.
    this.held.follow((action) => {
      if (action === 'stop') {
        this.stopped = true;
        this.current?.stop('researcher');
        this.changed(null);
      } else if (action === 'resume') {
        this.stopped = false;
        this.kick();
      }
    });
    return true;
  }

  private owner(): PipelineStatusData['performer'] {
    if (this.held) return { pid: process.pid, here: true, since: this.claimedAt };
    const owner = runOwner(this.ws.root, PIPELINE_LEASE);
    return owner ? { pid: owner.pid, here: owner.pid === process.pid, since: owner.startedAt } : null;
  }

  private performerElsewhere(): boolean {
    if (this.held) return false;
    const owner = runOwner(this.ws.root, PIPELINE_LEASE);
    return owner !== null && owner.pid !== process.pid;
  }

  private provider(): ProviderName {
    const own = readPipelineSettings(this.ws.root).settings.provider;
    return (own ?? readSettings(this.ws.root).provider) as ProviderName;
  }

  /** The facts `decide` needs, gathered from the folder and the index, and its answer. */
  private gather() {
    const { settings } = readPipelineSettings(this.ws.root);
    const provider = this.provider();
    const estimates = stepEstimates(this.ws, provider, settings.evaluationMode, this.options.providers);
    const { pipelines, problems } = this.logs.all();
    const facts: IdeaFacts[] = [];
    for (const [slug, pipeline] of pipelines) {
      const idea = getIdea(this.ws.db, slug);
      if (!idea) continue;
      const evaluation = ideaEvaluationState(this.ws.db, slug)?.evaluationId ?? null;
      const named = new Set(Object.values(pipeline.steps).flatMap((s) => (s.evaluationId ? [s.evaluationId] : [])));
      facts.push({
        slug,
        title: idea.title,
        pipeline,
        current: evaluation ? { id: evaluation, stale: idea.stale } : null,
        locked: [...named].filter((id) => existsSync(join(this.ws.root, ideaFile(slug, `evaluations/${id}.json`)))),
      });
    }
    const cap = readSettings(this.ws.root).limits.evaluationBudgetUsd;
    const decision = decide({
      settings,
      running: this.isRunning(),
      today: localDay(this.now()),
      estimates,
      ideas: facts,
      evaluationCapUsd: cap === 0 ? null : cap,
      busy: facts.filter((f) => this.launcher.busy(f.slug) !== null).map((f) => f.slug),
      lockEstimate: lockEstimate(this.ws, provider, settings.evaluationMode, this.options.providers),
    });
    return { decision, problems, facts, estimates, provider };
  }

  private decision(): Decision {
    return this.gather().decision;
  }

  /** A refusal is logged in the idea's log once a day (the status shows it all the time). */
  private logRefusals(decision: Decision): void {
    for (const r of decision.refused) {
      if (!r.unlogged) continue;
      this.append(r.slug, r.title, { step: r.step, event: 'refused', costUsd: 0, note: r.message });
    }
  }

  private enrol(slug: string, note: string, again: boolean): void {
    const idea = getIdea(this.ws.db, slug);
    if (!idea) return;
    const known = this.logs.all().pipelines.get(slug);
    if (known?.enrolled && !again) return;
    this.append(slug, idea.title, {
      step: 'capture',
      event: 'enrolled',
      costUsd: 0,
      note: known?.enrolled ? `${note} again` : note,
    });
  }

  private append(slug: string, title: string, entry: Omit<PipelineEntry, 'at' | 'day'>): void {
    const now = this.now();
    const written = appendEntry(this.ws.root, slug, title, { at: now.toISOString(), day: localDay(now), ...entry });
    this.ws.recordOwnWrite(written.path, written);
    this.changed(slug);
  }

  /** Records why the pipeline stopped performing: in the status (its problems) and the process's log. */
  private fail(why: string): void {
    this.failure = why;
    this.log.error(why);
    this.changed(null);
  }

  private changed(slug: string | null): void {
    try {
      this.options.onChange?.(slug);
    } catch (error) {
      this.log.warn('a pipeline listener failed', { error: message(error) });
    }
  }

  private async perform(p: PlannedStep): Promise<void> {
    const estimate = p.estimate
      ? {
          calls: p.estimate.calls,
          usd: p.estimate.usd,
          worstCalls: p.estimate.worstCalls,
          worstUsd: p.estimate.worstUsd,
        }
      : undefined;
    if (p.kind === 'skip') {
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'skipped',
        costUsd: 0,
        note: p.reason,
        ...(p.evaluationId ? { evaluationId: p.evaluationId } : {}),
      });
      return;
    }
    if (p.kind === 'settle') {
      const id = p.evaluationId as string;
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'done',
        costUsd: this.unlogged(p.slug, id, 0),
        evaluationId: id,
        note: p.reason,
      });
      return;
    }
    if (p.step === 'develop' || p.step === 'classify') return this.performCall(p, estimate);
    return this.performEvaluation(p, estimate);
  }

  /** What an evaluation spent that the log has not counted yet (a run killed before it logged its end). */
  private unlogged(slug: string, id: string, spentBefore: number): number {
    const logged = this.logs.all().pipelines.get(slug)?.costByEvaluation[id] ?? 0;
    let spent = spentBefore;
    if (spent === 0) {
      try {
        spent = readEvaluationLog(this.ws.root, evaluationLogPath(slug, id)).spentUsd;
      } catch {
        spent = 0;
      }
    }
    return Math.max(0, spent - logged);
  }

  /** Develop or classify: one call through its service, metered, the development call cancellable. */
  private async performCall(p: PlannedStep, estimate: PipelineEntry['estimate']): Promise<void> {
    const provider = this.provider();
    let cost = 0;
    const metered = (name: ProviderName, root: string, seed: number | null): Provider => {
      const inner = this.options.providers(name, root, seed);
      return {
        ...inner,
        llm: {
          provider: inner.llm.provider,
          call: async (request) => {
            try {
              const result = await inner.llm.call(request);
              cost += sum(result.calls);
              return result;
            } catch (error) {
              if (error instanceof LlmError) cost += sum(error.calls);
              throw error;
            }
          },
        },
      };
    };
    const controller = new AbortController();
    let why: StopWhy | null = null;
    this.current = {
      slug: p.slug,
      title: p.title,
      step: p.step,
      evaluationId: null,
      startedAt: this.now().toISOString(),
      stop: (w) => {
        why = w;
        // A classification is one short call with no way to cancel it: it finishes, then the pipeline stops.
        if (p.step === 'develop') controller.abort();
      },
    };
    try {
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'started',
        costUsd: 0,
        provider,
        note: `${p.reason}; likely $${(estimate?.usd ?? 0).toFixed(4)}, at most $${(estimate?.worstUsd ?? 0).toFixed(4)}`,
        ...(estimate ? { estimate } : {}),
      });
    } catch (error) {
      // Not started after all: no step may be left showing as running (and stopped at close).
      this.current = null;
      throw error;
    }
    try {
      let note: string;
      if (p.step === 'develop') {
        const result = await new DevelopmentService(this.ws, metered).develop(p.slug, {
          provider,
          signal: controller.signal,
        });
        note =
          result.added.length === 0
            ? 'no gap left to ask about: no question added'
            : `${result.added.length} question${result.added.length === 1 ? '' : 's'} asked in ${result.path}`;
        if (result.conflict) note += ' (development.md changed meanwhile: the questions went beside it)';
      } else {
        const result = await new ClassificationService(this.ws, metered).classify(p.slug, { provider });
        const c = result.classification;
        note = `type ${c.type}; tags ${c.tags.join(', ') || 'none'}; ${c.relationships.length} relationship${c.relationships.length === 1 ? '' : 's'}`;
        if (result.conflict) note += ` (the README changed meanwhile: the classified version is ${result.path})`;
      }
      this.append(p.slug, p.title, { step: p.step, event: 'done', costUsd: cost, note });
    } catch (error) {
      const stoppedBy = why as StopWhy | null;
      if (stoppedBy !== null && controller.signal.aborted)
        this.append(p.slug, p.title, { step: p.step, event: 'stopped', costUsd: cost, note: stopNote(stoppedBy) });
      else this.append(p.slug, p.title, { step: p.step, event: 'failed', costUsd: cost, note: message(error) });
    } finally {
      this.current = null;
    }
  }

  /** Evaluate or red team: an evaluation (fresh, resumed, or a one-round dispute), held in the gate when asked. */
  private async performEvaluation(p: PlannedStep, estimate: PipelineEntry['estimate']): Promise<void> {
    const { settings } = readPipelineSettings(this.ws.root);
    const provider = this.provider();
    const service = new EvaluationService(this.ws, this.options.providers);
    const concurrency = readSettings(this.ws.root).limits.evaluationConcurrency;
    let prepared: PreparedRun;
    let target: string | null = null;
    try {
      if (p.kind === 'resume') prepared = service.prepareResume(p.evaluationId as string);
      else if (p.step === 'evaluate')
        prepared = service.prepareEvaluation(p.slug, {
          mode: settings.evaluationMode,
          provider,
          budgetUsd: p.capUsd,
          concurrency,
        });
      else {
        const locked = service.current(p.slug);
        const criteria = new Map(this.ws.taxonomy.criteria.map((c) => [c.id, c]));
        const aim = redTeamTarget(
          (locked?.scores ?? []).map((s) => ({
            criterion: s.criterion,
            name: criteria.get(s.criterion)?.name ?? s.criterion,
            finalScore: s.finalScore,
            confidence: s.confidence,
            critical: criteria.get(s.criterion)?.critical ?? false,
          })),
        );
        if (!aim) throw new UserError(`"${p.slug}" has no scored evaluation for the red team to challenge`);
        target = aim.name;
        prepared = service.prepareDispute(p.slug, aim.criterion, redTeamReason(aim), {
          provider,
          budgetUsd: p.capUsd,
          concurrency,
        });
      }
    } catch (error) {
      this.append(p.slug, p.title, { step: p.step, event: 'failed', costUsd: 0, note: message(error) });
      return;
    }
    const id = prepared.id;
    const approved = p.approved || (this.logs.all().pipelines.get(p.slug)?.approved.includes(id) ?? false);
    // The rounds before this run were reviewed when their evaluation locked: the gate looks at the new ones.
    const fromRound = prepared.initial.round;
    const state: EvaluationState = resumeEvaluation(prepared.initial, prepared.inputs).state;
    let why: StopWhy | null = null;
    let held: CriticalChallenge[] | null = null;
    /** Where it was held: at its review, or where its budget or time ran out (it would have locked there). */
    let heldAt: 'budget' | 'time' | null = null;
    this.current = {
      slug: p.slug,
      title: p.title,
      step: p.step,
      evaluationId: id,
      startedAt: this.now().toISOString(),
      stop: (w) => {
        why = w;
      },
    };
    const begun = p.kind === 'resume' ? 'continues' : 'starts';
    try {
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'started',
        costUsd: 0,
        evaluationId: id,
        provider,
        ...(p.reevaluation && p.kind === 'start' ? { reevaluation: true } : {}),
        note:
          `${p.reason}; evaluation ${id} ${begun}` +
          (target ? `, challenging "${target}"` : '') +
          (p.kind === 'start'
            ? ` (${settings.evaluationMode}); likely $${(estimate?.usd ?? 0).toFixed(4)}, its budget $${p.capUsd.toFixed(4)}`
            : ''),
        ...(estimate ? { estimate } : {}),
      });
    } catch (error) {
      // Not started after all: no evaluation may be left showing as running (and stopped at close).
      this.current = null;
      throw error;
    }
    const hooks: RunHooks = {
      onInput: (input) => {
        try {
          advance(state, input);
        } catch {
          // The driver applied the same input to its own state; the gate's copy only watches.
        }
      },
      control: () => {
        if (why !== null) return 'stop';
        if (settings.reviewGate) {
          const critical = criticalChallenges(state.challenges, fromRound);
          if (gateHolds(state.phase, critical, approved)) {
            held = critical;
            return 'stop';
          }
        }
        return null;
      },
      // A limit locks at once, with no round between for `control` to hold it at REVIEWING: the
      // gate is asked there too, so CRITICAL challenges are seen whatever ends the evaluation.
      holdAtLimit: (s, limit) => {
        if (!settings.reviewGate || why !== null) return false;
        const critical = gateHoldsAtLimit(s, limit, fromRound, approved);
        if (!critical) return false;
        held = critical;
        heldAt = limit;
        return true;
      },
      stopReason: (): StopReason => (held ? 'review gate' : why === 'app closed' ? 'app closed' : 'cancelled'),
    };
    let outcome: RunOutcome;
    try {
      outcome = await this.launcher.run(prepared, hooks);
    } catch (error) {
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'failed',
        costUsd: this.unlogged(p.slug, id, 0),
        evaluationId: id,
        note: message(error),
      });
      this.current = null;
      return;
    }
    this.current = null;
    // An outcome's cost is the evaluation's whole spend, its earlier runs' included (the runner counts
    // from what a resumed run had spent): the log is owed what it has not counted of that yet.
    const logged = this.logs.all().pipelines.get(p.slug)?.costByEvaluation[id] ?? 0;
    const owed = (total: number) => Math.max(0, total - logged);
    if (outcome.kind === 'locked') {
      const doc = outcome.run.document;
      const critical = criticalChallenges(doc.auditTrail.conflicts, fromRound);
      const stood = undefended(critical);
      let note = `evaluation ${id} locked (${doc.lockReason}), overall ${doc.composites.overallScore.toFixed(1)}/10`;
      if (critical.length > 0)
        note += `; ${critical.length} CRITICAL challenge${critical.length === 1 ? '' : 's'}, ${stood.length} not defended`;
      if (p.step === 'redteam' && stood.length > 0) note += ': the idea goes back to evaluation if its limit allows';
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'done',
        costUsd: owed(outcome.run.costUsd),
        evaluationId: id,
        note,
        ...(critical.length > 0 ? { critical } : {}),
      });
    } else if (outcome.kind === 'stopped') {
      const gate = held as CriticalChallenge[] | null;
      const limit = heldAt as 'budget' | 'time' | null;
      if (gate)
        this.append(p.slug, p.title, {
          step: p.step,
          event: 'held',
          costUsd: owed(outcome.costUsd),
          evaluationId: id,
          critical: gate,
          ...(limit ? { limit } : {}),
          note:
            (limit
              ? `its ${limit === 'budget' ? 'budget' : 'time'} ran out, so it would lock now from its figures; `
              : '') +
            `waits in the review gate: ${gate.length} CRITICAL challenge${gate.length === 1 ? '' : 's'} to see before it locks ` +
            `(${gate.map((c) => `${c.criterion} by ${c.persona}`).join('; ')}); approve it in the pipeline panel or with ` +
            `\`pipeline approve ${p.slug} --evaluation ${id}\``,
        });
      else
        this.append(p.slug, p.title, {
          step: p.step,
          event: 'stopped',
          costUsd: owed(outcome.costUsd),
          evaluationId: id,
          note: why ? stopNote(why) : 'stopped from its evaluation view; the pipeline continues it at its next step',
        });
    } else {
      this.append(p.slug, p.title, {
        step: p.step,
        event: 'failed',
        costUsd: owed(outcome.costUsd),
        evaluationId: id,
        note: outcome.reason,
      });
    }
  }
}

function stopNote(why: StopWhy): string {
  return why === 'app closed'
    ? 'the app closed; it continues when the pipeline next runs'
    : 'stopped by the researcher; it continues when the pipeline runs again';
}

/** For the status line of a step in words. */
export function stepName(step: PipelineStep): string {
  return STEP_NAMES[step];
}
