import type { debatesChannels } from '../../contract';
import type { DebateStatus } from '../../engine/debate-record';
import { debateEventCount } from '../sqlite/debate-view-queries';
import type { AppContext, AreaHandlers } from './app-context';
import { buildCruxMap } from './debate-view/crux-map';
import type { DebateReads } from './debate-view/debate-reads';
import { readLayout, writeLayout } from './debate-view/layout-file';
import { progressOf } from './debate-view/progress';
import { debateLimitsFromSettings } from './settings-file';
import { debateDetail, debateSummary } from './views';

/**
 * The handlers of the channels in core/contract/debates-channels.ts: debates run in the background
 * (LiveDebates: start, pause, resume, cancel, their events), and what the debate views read of one
 * (its progress, crux map and course), folded from its log through the shared DebateReads. A crux
 * map's node positions are the only thing written here, beside the debate's log.
 */
export function debatesHandlers(ctx: AppContext, reads: DebateReads): AreaHandlers<keyof typeof debatesChannels> {
  const { ws, service, debates, open } = ctx;
  const { digests, courses, transcripts } = reads;
  const now = () => ctx.options.clock?.now() ?? new Date();

  // The budget and concurrency of the settings page (settings.md) unless the request names its own.
  const withSettingsLimits = <R extends { limits?: object | undefined }>(request: R): R => ({
    ...request,
    limits: { ...debateLimitsFromSettings(ws.root), ...request.limits },
  });

  const statusOf = (id: string, fallback: DebateStatus): DebateStatus => debates.recordedStatus(id) ?? fallback;

  // `runs:pause|resume|cancel` reach a crux debate here.
  ctx.runs.serve('crux', {
    pause: (id) => debates.pause(id),
    resume: (id) => debates.resume(id),
    cancel: (id) => debates.cancel(id),
  });

  return {
    impl: {
      'debates:list': ({ ideaSlug }) => {
        open();
        const rows = service.list().filter((row) => ideaSlug === undefined || row.idea === ideaSlug);
        return { debates: rows.map((row) => debateSummary(row, debates.isLive(row.id))) };
      },
      'debates:get': ({ id }) => {
        open();
        return debateDetail(service.show(id), debates.recordedStatus(id), debates.isLive(id));
      },
      'debates:events': ({ id, from }) => {
        open();
        const { events, total } = debates.events(id, from);
        return { debateId: id, from, total, events };
      },
      'debates:estimate': async (request) => {
        open();
        return await debates.estimate(withSettingsLimits(request));
      },
      'debates:start': async (request) => {
        open();
        const started = await debates.start(withSettingsLimits(request));
        return {
          id: started.id,
          estimate: started.estimate,
        };
      },
      'debates:pause': ({ id }) => {
        open();
        debates.pause(id);
        return { id };
      },
      'debates:resume': async ({ id }) => {
        open();
        await debates.resume(id);
        return { id };
      },
      'debates:cancel': async ({ id }) => {
        open();
        await debates.cancel(id);
        return { id };
      },

      'debates:progress': ({ id }) => {
        open();
        const digest = digests.get(id);
        const events = debateEventCount(ws.db, id);
        return progressOf(id, digest, statusOf(id, digest.outcome.status), debates.isLive(id), events);
      },

      'debates:cruxMap': ({ id }) => {
        open();
        const digest = digests.get(id);
        const layout = readLayout(ws.root, service.logPathOf(id), ctx.log);
        return buildCruxMap(digest, transcripts.messages(id), statusOf(id, digest.outcome.status), layout);
      },

      'debates:course': ({ id }) => {
        open();
        const digest = digests.get(id);
        const course = courses.get(id);
        const row = service.list().find((r) => r.id === id);
        return { ...course, ideaSlug: row?.idea ?? null, status: statusOf(id, digest.outcome.status) };
      },

      // The same single pass as `debate --baseline`, on the provider (and stored keys) of this app.
      'debates:baseline': async ({ id }) => {
        open();
        return (await service.baseline(id)).comparison;
      },
      'debates:baselineEstimate': ({ id }) => {
        open();
        return service.baselineEstimate(id);
      },

      'debates:saveCruxLayout': ({ id, positions }) => {
        open();
        const path = writeLayout(ws.root, service.logPathOf(id), positions, now());
        return { path, saved: Object.keys(positions).length };
      },
    },
  };
}
