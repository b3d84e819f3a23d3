import type { pipelineChannels } from '../../contract';
import type { PreparedRun, RunHooks, RunOutcome } from '../evaluations/evaluation-service';
import { pipelineLogPath } from '../pipeline/pipeline-log-file';
import { type EvaluationLauncher, PipelineService } from '../pipeline/pipeline-service';
import type { AppContext, AreaHandlers } from './app-context';
import type { EvaluationReader } from './evaluation-reader';
import type { LiveEvaluations } from './live-evaluations';

type Channels = keyof typeof pipelineChannels;

/** The app's own hooks on a run and the pipeline's, both heard: the app's stop and approve first. */
function bothHooks(app: RunHooks, pipeline: RunHooks): RunHooks {
  return {
    ...app,
    onInput: (input) => {
      app.onInput?.(input);
      pipeline.onInput?.(input);
    },
    control: async () =>
      (app.control ? await app.control() : null) ?? (pipeline.control ? await pipeline.control() : null),
    stopReason: () => pipeline.stopReason?.() ?? app.stopReason?.() ?? 'cancelled',
    // The review gate at a limit is the pipeline's alone (a run resumed from its view locks).
    ...(pipeline.holdAtLimit ? { holdAtLimit: pipeline.holdAtLimit } : {}),
  };
}

/**
 * The handlers of core/contract/pipeline-channels.ts over one PipelineService. Its evaluations run
 * through the app's LiveEvaluations, so the evaluation view follows them live like any other, and
 * its sync passes bring it new ideas. A host that stays open (one with a watcher: the desktop app,
 * browser mode) goes on with a pipeline left running; a one-shot CLI app performs only when told.
 */
export function pipelineHandlers(
  ctx: AppContext,
  evaluations: { live: LiveEvaluations; reader: EvaluationReader },
): AreaHandlers<Channels> {
  const launcher: EvaluationLauncher = {
    busy: (slug) => {
      try {
        evaluations.live.checkIdle(slug);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    },
    run: (prepared, hooks) =>
      new Promise<RunOutcome>((resolve, reject) => {
        let outcome: RunOutcome | null = null;
        let failure: unknown = null;
        const followed: PreparedRun = {
          ...prepared,
          run: async (app = {}) => {
            try {
              outcome = await prepared.run(bothHooks(app, hooks));
              return outcome;
            } catch (error) {
              failure = error;
              throw error;
            }
          },
        };
        evaluations.reader.touched.add(prepared.slug);
        evaluations.live.launch(followed).done.then(() => {
          if (outcome) resolve(outcome);
          else reject(failure ?? new Error('the evaluation ended without an outcome'));
        }, reject);
      }),
  };
  const service = new PipelineService(ctx.ws, {
    providers: ctx.providers,
    launcher,
    onChange: (slug) => ctx.emitter.emit('pipelinerun:changed', { slug }),
    log: ctx.log,
    open: () => ctx.open(),
    perform: ctx.options.watch !== false,
  });
  const unsubscribe = ctx.ws.onChange((report) => service.onSync(report));
  service.resume();

  const status = () => service.status() as ReturnType<AreaHandlers<Channels>['impl']['pipeline:status']>;
  const impl: AreaHandlers<Channels>['impl'] = {
    'pipeline:status': () => {
      ctx.open();
      return status();
    },
    'pipeline:configure': (patch) => {
      ctx.open();
      service.configure(patch);
      return status();
    },
    'pipeline:run': ({ slugs }) => {
      ctx.open();
      service.run(slugs);
      return status();
    },
    'pipeline:stop': () => {
      ctx.open();
      service.stop();
      return status();
    },
    'pipeline:approve': ({ slug, evaluationId }) => {
      ctx.open();
      service.approve(slug, evaluationId);
      return status();
    },
    'pipeline:log': ({ slug }) => {
      ctx.open();
      return { slug, path: pipelineLogPath(slug), entries: service.entries(slug) };
    },
  };
  return {
    impl,
    close: async () => {
      unsubscribe();
      await service.close(ctx.options.shutdownTimeoutMs ?? 5000);
    },
  };
}
