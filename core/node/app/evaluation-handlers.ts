import type { EvaluationDetail, EvaluationSummary, evaluationChannels } from '../../contract';
import { EvaluationService } from '../evaluations/evaluation-service';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { readSettings } from './settings-file';
import { EvaluationRecords, type StoredEvaluation } from './evaluation-records';
import {
  detailFromDocument,
  detailFromTrack,
  type EvaluationMeta,
  stoppedReason,
  summaryFromDocument,
  summaryFromTrack,
} from './evaluation-views';
import { type LiveEvaluation, LiveEvaluations } from './live-evaluations';

type Channels = keyof typeof evaluationChannels;

/** The budget of an evaluation when settings.md sets none (0): large enough never to stop one. */
const NO_CAP_USD = 1_000_000;

/**
 * The handlers of the channels in core/contract/evaluation-channels.ts: evaluations run in the
 * background (LiveEvaluations), read back from the workspace folder (EvaluationRecords), and the
 * leaderboards and matrix over each idea's current evaluation. Closing stops running evaluations
 * at their checkpoint, so the next start can resume them.
 */
export function evaluationHandlers(ctx: AppContext): AreaHandlers<Channels> {
  const { ws } = ctx;
  const service = new EvaluationService(ws, ctx.providers);
  const records = new EvaluationRecords(ws, service);
  const live = new LiveEvaluations({
    emitter: ctx.emitter,
    log: ctx.log,
    remaining: (track) => service.remainingAsks(track.state),
  });
  /** Ideas this app has evaluated, so their folders are looked in before the watcher indexes them. */
  const touched = new Set<string>();

  const idea = (slug: string) => records.idea(slug);

  const liveMeta = (run: LiveEvaluation): EvaluationMeta => {
    const known = idea(run.slug);
    return {
      id: run.id,
      slug: run.slug,
      status: live.status(run),
      provider: run.prepared.header.provider,
      costUsd: run.costUsd,
      budgetUsd: run.budgetUsd,
      stopReason: run.stop,
      expectedAnswers: run.expected,
      ideaHash: known?.contentHash ?? null,
      currentId: known?.evaluationId ?? null,
    };
  };

  /** A stored evaluation as the contract shows it (with the whole record when `detail`). */
  function storedView(stored: StoredEvaluation, detail: true): EvaluationDetail | null;
  function storedView(stored: StoredEvaluation, detail: false): EvaluationSummary | null;
  function storedView(stored: StoredEvaluation, detail: boolean): EvaluationDetail | EvaluationSummary | null {
    const known = idea(stored.slug);
    const base = {
      id: stored.id,
      slug: stored.slug,
      ideaHash: known?.contentHash ?? null,
      currentId: known?.evaluationId ?? null,
    };
    if (stored.kind === 'record') {
      const record = records.record(stored.slug, stored.id, detail);
      if (!record) return null;
      const answers = record.track?.answers ?? 0;
      const meta: EvaluationMeta = {
        ...base,
        status: 'locked',
        provider: record.provider,
        costUsd: record.costUsd,
        budgetUsd: record.budgetUsd,
        stopReason: null,
        expectedAnswers: answers,
      };
      if (!detail) return summaryFromDocument(record.doc, meta);
      return record.track ? detailFromTrack(record.track, meta, record.doc) : detailFromDocument(record.doc, meta);
    }
    const checkpoint = records.checkpoint(stored.slug, stored.id);
    if (!checkpoint) return null;
    const failed = checkpoint.track.state.phase === 'FAILED';
    const meta: EvaluationMeta = {
      ...base,
      status: failed ? 'failed' : 'stopped',
      provider: checkpoint.header.provider,
      costUsd: checkpoint.spentUsd,
      budgetUsd: checkpoint.header.budgetUsd,
      // No stop line after the last input: the process ended without a word (killed, crashed).
      stopReason: stoppedReason(checkpoint.track.state, checkpoint.stopped?.reason ?? 'interrupted'),
      expectedAnswers: checkpoint.track.answers + checkpoint.remaining,
    };
    return detail ? detailFromTrack(checkpoint.track, meta) : summaryFromTrack(checkpoint.track, meta);
  }

  const locate = (id: string): StoredEvaluation => {
    const found = records.locate(id, touched);
    if (!found) throw new UserError(`no evaluation "${id}" (see the list of evaluations)`);
    return found;
  };

  const storedSlugs = (slug: string | undefined): string[] =>
    slug !== undefined ? [slug] : [...new Set([...records.slugs(), ...touched])];

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
    const e = service.estimate(slug, { mode, provider });
    return { ...e, budgetUsd: limits(budgetUsd).budgetUsd };
  };

  const impl: AreaHandlers<Channels>['impl'] = {
    'evaluations:list': ({ slug, status }) => {
      ctx.open();
      if (slug !== undefined && !idea(slug)) throw new UserError(`no idea "${slug}"`);
      const out: EvaluationSummary[] = live
        .all()
        .filter((r) => slug === undefined || r.slug === slug)
        .map((r) => summaryFromTrack(r.track, liveMeta(r)));
      for (const s of storedSlugs(slug)) {
        for (const stored of records.stored(s)) {
          if (live.get(stored.id)) continue;
          const view = storedView(stored, false);
          if (view) out.push(view);
        }
      }
      return {
        evaluations: out
          .filter((e) => status === undefined || e.status === status)
          .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1)),
      };
    },
    'evaluations:get': ({ id }) => {
      ctx.open();
      const run = live.get(id);
      if (run) return detailFromTrack(run.track, liveMeta(run));
      const view = storedView(locate(id), true);
      if (!view) throw new UserError(`evaluation "${id}" could not be read (its file is damaged)`);
      return view;
    },
    'evaluations:estimate': ({ slug, mode, provider, budgetUsd }) => {
      ctx.open();
      return estimate(slug, mode, provider, budgetUsd);
    },
    'evaluations:start': ({ slug, mode, provider, seed, budgetUsd, timeLimitMinutes }) => {
      ctx.open();
      live.checkIdle(slug);
      const e = estimate(slug, mode, provider, budgetUsd);
      const prepared = service.prepareEvaluation(slug, {
        mode,
        provider,
        ...(seed !== undefined ? { seed } : {}),
        ...limits(budgetUsd),
        ...(timeLimitMinutes !== undefined ? { timeLimitMs: timeLimitMinutes * 60_000 } : {}),
      });
      touched.add(prepared.slug);
      live.launch(prepared);
      return { id: prepared.id, estimate: { ...e, budgetUsd: prepared.header.budgetUsd } };
    },
    'evaluations:cancel': ({ id }) => {
      ctx.open();
      const run = live.get(id);
      if (run) {
        live.cancel(run, 'cancelled');
        return { id, status: 'stopping' };
      }
      const stored = locate(id);
      if (stored.kind === 'record')
        throw new UserError(`evaluation "${id}" has already locked; there is nothing to cancel`);
      const view = storedView(stored, false);
      return { id, status: view?.status ?? 'stopped' };
    },
    'evaluations:resume': ({ id }) => {
      ctx.open();
      if (live.get(id)) throw new UserError(`evaluation "${id}" is already running`);
      const stored = locate(id);
      if (stored.kind === 'record')
        throw new UserError(`evaluation "${id}" has already locked; dispute a criterion to reopen it`);
      live.checkIdle(stored.slug);
      const prepared = service.prepareResume(id);
      touched.add(prepared.slug);
      live.launch(prepared);
      return { id };
    },
    'evaluations:approve': ({ id }) => {
      ctx.open();
      const run = live.get(id);
      if (!run) throw new UserError(`evaluation "${id}" is not running`);
      live.approve(run);
      return { id };
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
      return {
        categories: ws.taxonomy.categories.map((c) => ({ id: c.id, name: c.name, weight: c.weight })),
        ideas: ctx.memo.get('evaluations:leaderboard', () => service.leaderboard()),
      };
    },
    'evaluations:personaRatings': () => {
      ctx.open();
      return { personas: service.personaRatings() };
    },
    'evaluations:matrix': () => {
      ctx.open();
      const criteria = ws.taxonomy.criteria.map((c) => ({
        id: c.id,
        name: c.name,
        category: c.category,
        critical: c.critical,
      }));
      const ideas = service.leaderboard().map((row) => {
        const doc = row.evaluationId ? records.record(row.slug, row.evaluationId, false)?.doc : undefined;
        const byCriterion = new Map((doc?.scores ?? []).map((s) => [s.criterion, s]));
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
    },
  };

  return { impl, close: () => live.close(ctx.options.shutdownTimeoutMs ?? 5000) };
}
