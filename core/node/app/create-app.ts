import {
  type ApiClient,
  type Channel,
  KEY_PROVIDERS,
  ContractError,
  type PROVIDERS,
  type PushEvent,
  type PushEventName,
  type PushPayload,
  isChannel,
} from '../../contract';
import type { Clock } from '../../ports/clock';
import type { Ids } from '../../ports/ids';
import { type Log, silentLog } from '../../ports/log';
import { DebateService } from '../debates/debate-service';
import { type ProviderFactory, type ProviderKeys, type ProviderName, providerFor } from '../debates/providers';
import { loadPersonas } from '../personas/load-personas';
import type { PdfPrinter } from '../export/pdf-printer';
import { type WatchOptions, WorkspaceWatcher } from '../workspace/watcher';
import { Workspace } from '../workspace/workspace';
import type { AppContext } from './app-context';
import { debateViewHandlers } from './debate-view-handlers';
import { evaluationHandlers } from './evaluation-handlers';
import { type Handlers, type Implementations, wrapHandler } from './handler';
import { IndexMemo } from './index-memo';
import { environmentKeyStore } from './env-key-store';
import type { KeyStore } from './key-store';
import { debateLimitsFromSettings } from './settings-file';
import { settingsHandlers } from './settings-handlers';
import { LiveDebates } from './live-debates';
import { PushEmitter } from './push-emitter';
import { withUploadedFile } from './uploads';
import { debateDetail, debateSummary, ideaSummary, personaSummary, syncReportView, taxonomyView } from './views';

// The contract's provider list and the one DebateService knows must be the same list.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const providersMatch: Same<(typeof PROVIDERS)[number], ProviderName> = true;
void providersMatch;

export interface AppOptions {
  /** The workspace folder (it must hold an `ideas/` folder). */
  workspaceRoot: string;
  clock?: Clock;
  ids?: Ids;
  log?: Log;
  /**
   * The folder watcher that keeps the index following edits made by other programs: on by default;
   * `false` for one-shot uses (the CLI) and tests that want no background passes.
   */
  watch?: false | Omit<WatchOptions, 'onPass' | 'onError'>;
  /** How long `close` waits for running debates to log their pause (default 5 s). */
  shutdownTimeoutMs?: number;
  /** How often a live debate's logged status is looked at (default 100 ms). */
  statusPollMs?: number;
  /** Where API keys are kept (the desktop shell passes the OS keychain; default: the environment only). */
  keyStore?: KeyStore;
  /** How `export:document` prints PDFs (the desktop shell passes Electron's; default: headless Chromium). */
  printPdf?: PdfPrinter;
  /** Called when a pushed event breaks the contract (a bug; by default only logged). Tests fail on it. */
  onContractBug?: (error: Error) => void;
}

export interface AppEvents {
  on<E extends PushEventName>(event: E, listener: (payload: PushPayload<E>) => void): () => void;
  /** Every pushed event with its name: what a host forwards to its pages. */
  onAny(listener: (event: PushEvent) => void): () => void;
}

export interface App {
  readonly root: string;
  /** One handler per channel; each parses its input and checks its output against the contract. */
  readonly handlers: Handlers;
  /** Calls a channel by name, as hosts receive it (an unknown name is a ContractError `unknown_channel`). */
  invoke(channel: string, input: unknown): Promise<unknown>;
  readonly events: AppEvents;
  /** The app as the renderer sees it, in process (tests, the CLI). */
  readonly client: ApiClient;
  /** Stops the watcher, pauses running debates at a checkpoint and closes the index. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the app for one workspace: the composition of the workspace, its watcher and the debate
 * service into the handler table of the contract, and the emitter of its pushed events. Every host
 * (Electron IPC, browser mode, the CLI) serves this same table.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const log = options.log ?? silentLog;
  const emitter = new PushEmitter(log, options.onContractBug ?? (() => {}));

  // ---- boot, in order ----------------------------------------------------------------------------
  // 1. Open the workspace: taxonomy, templates and the index (rebuilt if missing or damaged). A
  //    folder that is not a workspace, or a broken taxonomy, fails here and nothing is left open.
  const ws = Workspace.open(options.workspaceRoot, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
  });
  const keyStore = options.keyStore ?? environmentKeyStore();
  const keys: ProviderKeys = {};
  const refreshKeys = async () => {
    for (const provider of KEY_PROVIDERS) {
      keys[provider] = await keyStore.get(provider).catch((error: unknown) => {
        log.warn('an API key could not be read from the key store', {
          provider,
          error: error instanceof Error ? error.message : String(error),
        });
        return null;
      });
    }
  };
  const providers: ProviderFactory = (name, root, seed) => providerFor(name, root, seed, keys);
  let watcher: WorkspaceWatcher | null = null;
  let debates: LiveDebates;
  let service: DebateService;
  try {
    // 2. Reconcile: the whole folder against the whole index, so the first answers are current.
    ws.sync();
    // 3. Keys: read once from the key store into memory here, on the main side (again after one
    //    is set or cleared), so providers can be built synchronously; a page never sees them.
    await refreshKeys();
    // 4. Debates: logs in the folder that the index lacks (a rebuilt index) come back.
    service = new DebateService(ws, providers);
    debates = new LiveDebates({ ws, service, emitter, log, pollMs: options.statusPollMs ?? 100 });
    // 5. From here on every pass that changes the index is pushed (watcher, captures, stage moves).
    ws.onChange((report) => emitter.emit('sync:changed', syncReportView(report)));
    // 6. Watch the folder for edits made by other programs.
    if (options.watch !== false) {
      watcher = new WorkspaceWatcher(ws, {
        ...(options.watch ?? {}),
        onError: (error) =>
          log.error('the folder watcher failed', { error: error instanceof Error ? error.message : String(error) }),
      });
      await watcher.start();
    }
  } catch (error) {
    await watcher?.close();
    ws.close();
    throw error;
  }

  let closed = false;
  const open = () => {
    if (closed) throw new ContractError('user_error', 'the workspace is closed');
  };

  const memo = new IndexMemo(ws);
  const ctx: AppContext = { ws, service, debates, emitter, log, options, open, keyStore, providers, refreshKeys, memo };
  const evaluation = evaluationHandlers(ctx);
  // Transcripts list and search evaluations too, read the way the evaluation channels read them.
  const debateView = debateViewHandlers(ctx, evaluation.reader);
  const settings = settingsHandlers(ctx);
  const areas = [debateView, evaluation, settings];

  // The budget and concurrency of the settings page (settings.md) unless the request names its own.
  const withSettingsLimits = <R extends { limits?: object | undefined }>(request: R): R => ({
    ...request,
    limits: { ...debateLimitsFromSettings(ws.root), ...request.limits },
  });

  const impl: Implementations = {
    ...debateView.impl,
    ...evaluation.impl,
    ...settings.impl,
    'ideas:list': (filter) => {
      open();
      const unfiltered = filter.stage === undefined && filter.type === undefined && filter.tag === undefined;
      if (unfiltered) return memo.get('ideas:list', () => ({ ideas: ws.list().map(ideaSummary) }));
      return { ideas: ws.list(filter).map(ideaSummary) };
    },
    'ideas:get': ({ slug }) => {
      open();
      const shown = ws.show(slug);
      return {
        ...ideaSummary(shown),
        readme: shown.readme,
        files: shown.files.map((f) => ({ path: f.path, kind: f.kind, size: f.size })),
        relationships: shown.relationships.map((r) => ({
          source: r.source,
          target: r.target,
          type: r.type,
          strength: r.strength,
          reason: r.reason,
        })),
        errors: shown.errors,
      };
    },
    'ideas:search': ({ query, limit }) => {
      open();
      return {
        hits: ws.search(query, limit).map((h) => ({ slug: h.slug, title: h.title, snippet: h.snippet, rank: h.rank })),
        total: ws.countMatches(query),
      };
    },
    'ideas:capture': (input) => {
      open();
      const result = ws.capture(input);
      return {
        slug: result.slug,
        path: result.path,
        conflict: result.conflict,
        idea: result.idea && ideaSummary(result.idea),
      };
    },
    'ideas:captureFile': ({ path, ...rest }) => {
      open();
      const result = ws.captureFile(path, rest);
      return {
        slug: result.slug,
        path: result.path,
        conflict: result.conflict,
        idea: result.idea && ideaSummary(result.idea),
      };
    },
    'ideas:captureUpload': ({ name, contentBase64, ...rest }) => {
      open();
      const result = withUploadedFile(name, contentBase64, (path) => ws.captureFile(path, rest));
      return {
        slug: result.slug,
        path: result.path,
        conflict: result.conflict,
        idea: result.idea && ideaSummary(result.idea),
      };
    },
    'ideas:attach': ({ slug, path }) => {
      open();
      return { path: ws.attach(slug, path).path };
    },
    'ideas:attachUpload': ({ slug, name, contentBase64 }) => {
      open();
      return { path: withUploadedFile(name, contentBase64, (path) => ws.attach(slug, path)).path };
    },
    'ideas:setStage': ({ slug, stage }) => {
      open();
      const result = ws.setStage(slug, stage);
      return { idea: result.idea && ideaSummary(result.idea), path: result.path, conflict: result.conflict };
    },
    'workspace:sync': () => {
      open();
      const report = syncReportView(ws.sync());
      // A full sync reads every debate log too: one damaged since it was indexed is listed by file and line.
      return { ...report, errors: [...report.errors, ...service.checkLogs()] };
    },
    'workspace:errors': () => {
      open();
      return {
        errors: [
          ...ws.errors().map((e) => ({ ...e, source: 'idea' as const })),
          ...service.checkLogs().map((e) => ({ file: e.file, reason: e.reason, source: 'debate' as const })),
          ...loadPersonas(ws.root).errors.map((e) => ({ file: e.file, reason: e.reason, source: 'persona' as const })),
        ],
      };
    },
    'taxonomy:get': () => {
      open();
      return taxonomyView(ws.taxonomy);
    },
    'personas:list': ({ role }) => {
      open();
      const loaded = loadPersonas(ws.root);
      return {
        personas: loaded.personas
          .filter((p) => role === undefined || p.role === role)
          .map((p) => personaSummary(p, ws.root)),
        errors: loaded.errors.map((e) => ({ file: e.file, reason: e.reason })),
      };
    },
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
  };

  const handlers = Object.fromEntries(
    (Object.keys(impl) as Channel[]).map((channel) => [channel, wrapHandler(channel, impl[channel] as never)]),
  ) as unknown as Handlers;

  const invoke = (channel: string, input: unknown): Promise<unknown> => {
    if (!isChannel(channel)) {
      return Promise.reject(new ContractError('unknown_channel', `there is no channel "${channel}"`));
    }
    return (handlers[channel] as (input: unknown) => Promise<unknown>)(input);
  };

  const events: AppEvents = {
    on: (event, listener) => emitter.on(event, listener),
    onAny: (listener) => emitter.onAny(listener),
  };

  const client: ApiClient = {
    invoke: (channel, input) => handlers[channel](input),
    on: (event, listener) => emitter.on(event, listener),
  };

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // ---- shutdown, in order ----------------------------------------------------------------------
      // 1. Refuse new calls.
      closed = true;
      // 2. Stop the watcher; what it saw but had not indexed yet is indexed now (and pushed).
      await watcher?.close();
      // 3. Pause running debates and let them log the pause (every record is already on disk; this
      //    makes the next start resume them cleanly rather than mid-round).
      await debates.close(options.shutdownTimeoutMs ?? 5000);
      //    The other areas (running evaluations …) checkpoint the same way.
      for (const area of areas) await area.close?.();
      memo.close();
      // 4. Close the index (a pending _index.md is written first). Listeners go last, so the
      //    final pushes above still reach the hosts.
      ws.close();
      emitter.clear();
    })();
    return closing;
  };

  return { root: ws.root, handlers, invoke, events, client, close };
}
