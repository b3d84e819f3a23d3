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
import type { PdfPrinter } from '../export/pdf-printer';
import { type WatchOptions, WorkspaceWatcher } from '../workspace/watcher';
import { Workspace } from '../workspace/workspace';
import type { AppContext } from './app-context';
import { arenasHandlers } from './arenas-handlers';
import { capturesHandlers } from './captures-handlers';
import { councilHandlers } from './council-handlers';
import { memoryHandlers } from './memory-handlers';
import { debatesHandlers } from './debates-handlers';
import { debateReads } from './debate-view/debate-reads';
import { environmentKeyStore } from './env-key-store';
import { evaluationsHandlers } from './evaluations-handlers';
import { exportHandlers } from './export-handlers';
import { type Handlers, type Implementations, wrapHandler } from './handler';
import { ideasHandlers } from './ideas-handlers';
import { IndexMemo } from './index-memo';
import type { KeyStore } from './key-store';
import { ledgerHandlers } from './ledger-handlers';
import { cruxesHandlers } from './cruxes-handlers';
import { LiveDebates } from './live-debates';
import { LiveRuns } from './live-runs';
import { personasHandlers } from './personas-handlers';
import { pipelineHandlers } from './pipeline-handlers';
import { PushEmitter } from './push-emitter';
import { runsHandlers } from './runs-handlers';
import { settingsHandlers } from './settings-handlers';
import { simulatedCallMs } from './simulated-pace';
import { taxonomyHandlers } from './taxonomy-handlers';
import { transcriptsHandlers } from './transcripts-handlers';
import { syncReportView } from './views';
import { workspaceHandlers } from './workspace-handlers';

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
  /** Where API keys are kept (the desktop shell passes the OS keychain; default: the environment only). */
  keyStore?: KeyStore;
  /** How `export:document` prints PDFs (the desktop shell passes Electron's; default: headless Chromium). */
  printPdf?: PdfPrinter;
  /**
   * Whether simulated runs pace themselves (settings.md `simulatedPace`, paced by default) so a
   * researcher sees one unfold: the desktop app and browser mode say yes; by default (the CLI,
   * tests) the simulator answers at once.
   */
  paceSimulated?: boolean;
  /**
   * How long one look at a list of evaluations or transcripts may spend reading records and
   * counting entries that no look has before (default 150 ms): the rest is done in the background
   * and pushed (`evaluation:listed`). The CLI, which answers once, passes Infinity.
   */
  listingBudgetMs?: number;
  /**
   * Whether the lists of evaluations and transcripts are made (and checked) in the background right
   * after the start, so the first look at them answers at once: the hosts a researcher opens say
   * yes (10,000 evaluations took ~0.35 s to list the first time); the CLI and tests do not.
   */
  warmLists?: boolean;
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
 * service into the handler table of the contract (each area's handlers in their own file,
 * `<area>-handlers.ts`, spread in here), and the emitter of its pushed events. Every host
 * (Electron IPC, browser mode, the CLI) serves this same table.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const log = options.log ?? silentLog;
  const emitter = new PushEmitter(log, options.onContractBug ?? (() => {}));
  const runs = new LiveRuns(emitter, () => options.clock?.now() ?? new Date());

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
  const providers: ProviderFactory = (name, root, seed) =>
    providerFor(
      name,
      root,
      seed,
      keys,
      name === 'simulated' ? simulatedCallMs(root, options.paceSimulated ?? false) : 0,
    );
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
    debates = new LiveDebates({ ws, service, emitter, log, runs });
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
  const ctx: AppContext = {
    ws,
    service,
    debates,
    runs,
    emitter,
    log,
    options,
    open,
    keyStore,
    providers,
    refreshKeys,
    memo,
  };
  const evaluations = evaluationsHandlers(ctx);
  // Debates, the ledger and transcripts read debates through the same folds and caches; transcripts
  // read evaluations the way the evaluation channels do.
  const reads = debateReads(ctx);
  const areas = {
    pipeline: pipelineHandlers(ctx, evaluations), // first to close: its running step stops before the evaluations do
    ideas: ideasHandlers(ctx, { evaluations: evaluations.reader, reads }),
    workspace: workspaceHandlers(ctx),
    taxonomy: taxonomyHandlers(ctx),
    personas: personasHandlers(ctx),
    debates: debatesHandlers(ctx, reads),
    ledger: ledgerHandlers(ctx, reads),
    cruxes: cruxesHandlers(ctx, reads),
    transcripts: transcriptsHandlers(ctx, reads, evaluations.reader),
    evaluations,
    runs: runsHandlers(ctx),
    settings: settingsHandlers(ctx),
    export: exportHandlers(ctx),
    council: councilHandlers(ctx),
  };
  // One handler per channel, one file per area; the type makes the compiler insist on every channel.
  const impl: Implementations = {
    ...areas.ideas.impl,
    ...areas.workspace.impl,
    ...areas.taxonomy.impl,
    ...areas.personas.impl,
    ...areas.debates.impl,
    ...areas.ledger.impl,
    ...areas.cruxes.impl,
    ...areas.transcripts.impl,
    ...areas.evaluations.impl,
    ...areas.runs.impl,
    ...areas.settings.impl,
    ...areas.export.impl,
    ...arenasHandlers(ctx, { startRun: areas.runs.start, ledger: () => areas.ledger.impl['ledger:list']({}) }).impl,
    ...areas.council.impl,
    ...memoryHandlers(ctx).impl,
    ...areas.pipeline.impl,
    ...capturesHandlers(ctx).impl,
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

  if (options.warmLists) {
    // After the start, before a page asks: what it would wait for on its first look. A failure
    // here is the first look's to report, in words, when it comes.
    setImmediate(() => {
      if (closed) return;
      (async () => {
        await handlers['evaluations:list']({});
        if (closed || evaluations.reader.progress().reading > 0) return;
        // Counting transcripts nobody has counted replays their scripts: left to the first look at
        // them, which may never come (the list is made at once, before the call awaits anything).
        const { reader } = evaluations;
        reader.holdCounts = true;
        const made = handlers['transcripts:list']({});
        reader.holdCounts = false;
        await made;
      })().catch(() => {});
    }).unref();
  }

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
      for (const area of Object.values(areas)) await area.close?.();
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
