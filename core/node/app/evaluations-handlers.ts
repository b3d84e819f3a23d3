import type { EvaluationSummary, evaluationsChannels } from '../../contract';
import { EvaluationService } from '../evaluations/evaluation-service';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { briefScores } from './evaluation-briefs';
import { EvaluationReader } from './evaluation-reader';
import { SameRows } from './index-memo';
import { LiveEvaluations } from './live-evaluations';
import { readSettings } from './settings-file';

type Channels = keyof typeof evaluationsChannels;

/** The budget of an evaluation when settings.md sets none (0): large enough never to stop one. */
const NO_CAP_USD = 1_000_000;

/**
 * The handlers of the channels in core/contract/evaluations-channels.ts: evaluations run in the
 * background (LiveEvaluations), read back through EvaluationReader (shared with the transcripts), and the
 * leaderboards and matrix over each idea's current evaluation. Closing stops running evaluations
 * at their checkpoint, so the next start can resume them.
 */
export function evaluationsHandlers(
  ctx: AppContext,
): AreaHandlers<Channels> & { reader: EvaluationReader; live: LiveEvaluations } {
  const { ws } = ctx;
  const service = new EvaluationService(ws, ctx.providers);
  const live = new LiveEvaluations({
    emitter: ctx.emitter,
    log: ctx.log,
    runs: ctx.runs,
    remaining: (track) => service.remainingAsks(track.state),
    onLocked: (run) => reader.locked(run.slug, run.id, run.track.entries),
  });
  const reader = new EvaluationReader(ws, service, live, {
    now: () => ctx.options.clock?.now() ?? new Date(),
    ...(ctx.options.listingBudgetMs !== undefined ? { budgetMs: ctx.options.listingBudgetMs } : {}),
    onProgress: (progress) => ctx.emitter.emit('evaluation:listed', progress),
  });
  const { records, touched } = reader;

  const idea = (slug: string) => reader.idea(slug);
  let sameList = new SameRows<EvaluationSummary, { evaluations: EvaluationSummary[]; reading: number }>();
  let reading = 0;

  /**
   * What settings.md says a run gets when the request does not: its budget (0 there means no cap)
   * and how many calls it makes at once.
   */
  const limits = (budgetUsd: number | undefined) => {
    const { limits: l } = readSettings(ws.root);
    const fromSettings = l.evaluationBudgetUsd === 0 ? NO_CAP_USD : l.evaluationBudgetUsd;
    return { budgetUsd: budgetUsd ?? fromSettings, concurrency: l.evaluationConcurrency };
  };

  const estimate = (
    slug: string,
    mode: Parameters<EvaluationService['estimate']>[1]['mode'],
    provider: Parameters<EvaluationService['estimate']>[1]['provider'],
    budgetUsd: number | undefined,
  ) => {
    const budget = limits(budgetUsd).budgetUsd;
    return { ...service.estimate(slug, { mode, provider, budgetUsd: budget }), budgetUsd: budget };
  };

  /** Stops a running evaluation at its checkpoint; answers where it stands (a stopped one, as it is). */
  const cancel = (id: string) => {
    const run = live.get(id);
    if (run) {
      live.cancel(run, 'cancelled');
      const { status, stopRequested } = live.status(run);
      return { status, stopRequested };
    }
    const stored = reader.locate(id);
    if (stored.kind === 'record')
      throw new UserError(`evaluation "${id}" has already locked; there is nothing to cancel`);
    const view = reader.stored(stored, false)?.view;
    return view
      ? { status: view.status, stopRequested: view.stopRequested }
      : { status: 'paused' as const, stopRequested: false };
  };

  /** Continues a stopped, interrupted or failed evaluation from its log, in the background. */
  const resume = async (id: string) => {
    const running = live.get(id);
    if (running && !running.stop) throw new UserError(`evaluation "${id}" is already running`);
    // Asked to stop (its stop may be pushed already): its drive returns once the calls in flight do.
    if (running) await running.done;
    const stored = reader.locate(id);
    if (stored.kind === 'record')
      throw new UserError(`evaluation "${id}" has already locked; dispute a criterion to reopen it`);
    live.checkIdle(stored.slug);
    const prepared = service.prepareResume(id);
    touched.add(prepared.slug);
    live.launch(prepared);
  };

  // `runs:pause|resume|cancel` reach an evaluation here. It pauses only at its checkpoint, which is
  // what a cancel does too: a paused evaluation is a stopped one, and resumes the same way.
  ctx.runs.serve('evaluation', {
    pause: (id) => {
      if (!live.get(id)) throw new UserError(`cannot pause evaluation ${id}: it is not running`);
      cancel(id);
    },
    resume,
    cancel: (id) => {
      cancel(id);
    },
  });

  const impl: AreaHandlers<Channels>['impl'] = {
    'evaluations:list': ({ slug, status }) => {
      ctx.open();
      if (slug !== undefined && !idea(slug)) throw new UserError(`no idea "${slug}"`);
      const rows = reader.summaries(slug).filter((e) => status === undefined || e.status === status);
      // Every evaluation: the same answer, checked once, while its rows are the reader's kept ones
      // (checking 10,000 summaries on every look took a second).
      // One idea's evaluations are read from its folder, whole.
      if (slug !== undefined) return { evaluations: rows, reading: 0 };
      const now = reader.progress().reading;
      if (now !== reading) {
        reading = now;
        sameList = new SameRows();
      }
      if (status === undefined) return sameList.of(rows, (r) => ({ evaluations: [...r], reading }));
      return { evaluations: rows, reading };
    },
    'evaluations:get': ({ id }) => {
      ctx.open();
      return reader.detail(id);
    },
    'evaluations:estimate': ({ slug, mode, provider, budgetUsd }) => {
      ctx.open();
      return estimate(slug, mode, provider, budgetUsd);
    },
    'evaluations:start': ({ slug, mode, provider, seed, budgetUsd, timeLimitMinutes, options }) => {
      ctx.open();
      live.checkIdle(slug);
      const e = estimate(slug, mode, provider, budgetUsd);
      const prepared = service.prepareEvaluation(slug, {
        mode,
        provider,
        ...(seed !== undefined ? { seed } : {}),
        ...limits(budgetUsd),
        ...(timeLimitMinutes !== undefined ? { timeLimitMs: timeLimitMinutes * 60_000 } : {}),
        ...(options ? { options } : {}),
      });
      touched.add(prepared.slug);
      live.launch(prepared);
      return { id: prepared.id, estimate: { ...e, budgetUsd: prepared.header.budgetUsd } };
    },
    'evaluations:cancel': ({ id }) => {
      ctx.open();
      return { id, ...cancel(id) };
    },
    'evaluations:resume': async ({ id }) => {
      ctx.open();
      await resume(id);
      return { id };
    },
    'evaluations:approve': ({ id }) => {
      ctx.open();
      const run = live.get(id);
      if (!run) throw new UserError(`evaluation "${id}" is not running`);
      live.approve(run);
      return { id };
    },
    'evaluations:addRound': ({ id }) => {
      ctx.open();
      const run = live.get(id);
      if (!run)
        throw new UserError(`evaluation "${id}" is not running: only a running evaluation can be given another round`);
      return { id, roundLimit: live.addRound(run) };
    },
    'evaluations:dispute': ({ slug, criterion, reason, provider, seed, budgetUsd }) => {
      ctx.open();
      live.checkIdle(slug);
      const prepared = service.prepareDispute(slug, criterion, reason, {
        provider,
        ...(seed !== undefined ? { seed } : {}),
        ...limits(budgetUsd),
      });
      touched.add(prepared.slug);
      live.launch(prepared);
      return { id: prepared.id };
    },
    'evaluations:leaderboard': () => {
      ctx.open();
      return ctx.memo.get('evaluations:leaderboard', () => ({
        categories: ws.taxonomy.categories.map((c) => ({ id: c.id, name: c.name, weight: c.weight })),
        ideas: service.leaderboard(),
      }));
    },
    'evaluations:personaRatings': () => {
      ctx.open();
      return { personas: service.personaRatings() };
    },
    // Kept until the index changes (an evaluation that locks writes its synthesis, a sync pass):
    // reading 2,000 records again on every visit took a second.
    'evaluations:matrix': () => {
      ctx.open();
      return ctx.memo.get('evaluations:matrix', () => matrix());
    },
  };

  function matrix() {
    const criteria = ws.taxonomy.criteria.map((c) => ({
      id: c.id,
      name: c.name,
      category: c.category,
      critical: c.critical,
    }));
    const ideas = service.leaderboard().map((row) => {
      // From the record's brief (kept on disk between starts): its final scores without reading it.
      const brief = row.evaluationId
        ? records.brief(row.slug, row.evaluationId, records.indexed().keys.get(row.evaluationId))
        : null;
      const byCriterion = brief ? briefScores(brief) : new Map<string, { finalScore: number; confidence: number }>();
      return {
        slug: row.slug,
        title: row.title,
        stage: row.stage,
        evaluationId: row.evaluationId,
        overallScore: row.overallScore,
        stale: row.stale,
        scores: criteria.map((c) => byCriterion.get(c.id)?.finalScore ?? null),
        confidence: criteria.map((c) => byCriterion.get(c.id)?.confidence ?? null),
      };
    });
    return {
      categories: ws.taxonomy.categories.map((c) => ({ id: c.id, name: c.name, weight: c.weight })),
      criteria,
      ideas,
    };
  }

  return {
    impl,
    reader,
    live,
    close: async () => {
      await live.close(ctx.options.shutdownTimeoutMs ?? 5000);
      reader.close();
    },
  };
}
