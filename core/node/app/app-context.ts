import type { Channel } from '../../contract';
import type { Log } from '../../ports/log';
import type { DebateService } from '../debates/debate-service';
import type { ProviderFactory } from '../debates/providers';
import type { Workspace } from '../workspace/workspace';
import type { AppOptions } from './create-app';
import type { Implementations } from './handler';
import type { IndexMemo } from './index-memo';
import type { KeyStore } from './key-store';
import type { LiveDebates } from './live-debates';
import type { LiveRuns } from './live-runs';
import type { PushEmitter } from './push-emitter';

/**
 * What the handlers of one area of the contract are built from: the open workspace and the
 * services createApp composed. `open()` throws once the app is closing.
 */
export interface AppContext {
  readonly ws: Workspace;
  readonly service: DebateService;
  readonly debates: LiveDebates;
  /** Every run this app drives, of any protocol: where each stands, pushed as `run:status`. */
  readonly runs: LiveRuns;
  readonly emitter: PushEmitter;
  readonly log: Log;
  readonly options: AppOptions;
  /** Answers computed from the index, kept until it next changes. */
  readonly memo: IndexMemo;
  /** Where API keys are kept (the desktop keychain, else the environment only). */
  readonly keyStore: KeyStore;
  /** The providers every debate, evaluation and agent of this app runs on, with the stored keys. */
  readonly providers: ProviderFactory;
  /** Reads the stored keys again (after one is set or cleared). */
  refreshKeys(): Promise<void>;
  open(): void;
}

/**
 * The handlers of one area (`evaluations:*`, `settings:*` …) and what closing them takes (running
 * evaluations checkpointed, …); createApp closes areas after the watcher and before the index.
 */
export interface AreaHandlers<K extends Channel> {
  impl: Pick<Implementations, K>;
  close?: () => Promise<void>;
}
