import type { z } from 'zod';
import { arenasChannels } from './contract/arenas-channels';
import { capturesChannels } from './contract/captures-channels';
import { councilChannels, councilPushEvents } from './contract/council-channels';
import { debatesChannels, debatesPushEvents } from './contract/debates-channels';
import { evaluationsChannels, evaluationsPushEvents } from './contract/evaluations-channels';
import { exportChannels } from './contract/export-channels';
import { ideasChannels } from './contract/ideas-channels';
import { ledgerChannels } from './contract/ledger-channels';
import { memoryChannels } from './contract/memory-channels';
import { cruxesChannels } from './contract/cruxes-channels';
import { personasChannels } from './contract/personas-channels';
import { pipelineChannels, pipelinePushEvents } from './contract/pipeline-channels';
import { runsChannels, runsPushEvents } from './contract/runs-channels';
import { settingsChannels } from './contract/settings-channels';
import { taxonomyChannels } from './contract/taxonomy-channels';
import { transcriptsChannels } from './contract/transcripts-channels';
import { workspaceChannels, workspacePushEvents } from './contract/workspace-channels';

/**
 * The one contract between the UI and the main side, whatever carries it (Electron IPC, the HTTP
 * host of browser mode, or a direct call). Every channel is listed once, in the file of its area
 * (`core/contract/<area>-channels.ts`, assembled here), named `<area>:<verb>`, with the zod schema
 * of its input and of its output; every event the main side pushes is listed once too, beside the
 * channels of its area, named `<subject>:<what happened>`. Types come from the schemas.
 *
 * Naming: areas are plural nouns (`ideas`, `debates`, later `evaluations`), verbs are what the
 * researcher does (`list`, `get`, `start`, `pause` …); pushed events are singular (`debate:event`,
 * `evaluation:event`, `run:status`) so a channel and an event never share a name.
 *
 * Pure: zod and core only, so the renderer can import it.
 */

export * from './contract/arenas-channels';
export * from './contract/captures-channels';
export * from './contract/council-channels';
export * from './contract/crux';
export * from './contract/debates-channels';
export * from './contract/entities';
export * from './contract/errors';
export * from './contract/evaluations-channels';
export * from './contract/export-channels';
export * from './contract/ideas-channels';
export * from './contract/ids';
export * from './contract/ledger-channels';
export * from './contract/memory-channels';
export * from './contract/cruxes-channels';
export * from './contract/personas-channels';
export * from './contract/pipeline-channels';
export * from './contract/runs-channels';
export * from './contract/settings-channels';
export * from './contract/taxonomy-channels';
export * from './contract/transcripts-channels';
export * from './contract/workspace-channels';

export const channels = {
  ...ideasChannels,
  ...capturesChannels,
  ...workspaceChannels,
  ...taxonomyChannels,
  ...personasChannels,
  ...debatesChannels,
  ...ledgerChannels,
  ...cruxesChannels,
  ...transcriptsChannels,
  ...evaluationsChannels,
  ...runsChannels,
  ...settingsChannels,
  ...exportChannels,
  ...arenasChannels,
  ...councilChannels,
  ...memoryChannels,
  ...pipelineChannels,
} as const;

export type Channels = typeof channels;
export type Channel = keyof Channels;
/** What a caller sends (before defaults). */
export type ChannelInput<C extends Channel> = z.input<Channels[C]['input']>;
/** What a handler receives (after parsing: trimmed, defaults filled in). */
export type ChannelParsedInput<C extends Channel> = z.output<Channels[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<Channels[C]['output']>;

export const CHANNEL_NAMES = Object.keys(channels) as Channel[];

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(channels, name);
}

/**
 * Channels that take a path on the main side's computer. The desktop app serves them (a drop gives
 * the renderer a real path); browser mode does not, since a page has no business naming files on
 * disk: it uploads bytes with the `…Upload` variants instead.
 */
export const LOCAL_PATH_CHANNELS: readonly Channel[] = ['ideas:captureFile', 'ideas:attach', 'ideas:import'];

export const pushEvents = {
  ...workspacePushEvents,
  ...debatesPushEvents,
  ...evaluationsPushEvents,
  ...runsPushEvents,
  ...councilPushEvents,
  ...pipelinePushEvents,
} as const;

export type PushEvents = typeof pushEvents;
export type PushEventName = keyof PushEvents;
export type PushPayload<E extends PushEventName> = z.output<PushEvents[E]>;
/** One pushed event with its name, as a host forwards it. */
export type PushEvent = { [E in PushEventName]: { event: E; payload: PushPayload<E> } }[PushEventName];

export const PUSH_EVENT_NAMES = Object.keys(pushEvents) as PushEventName[];

export function isPushEvent(name: string): name is PushEventName {
  return Object.hasOwn(pushEvents, name);
}

/**
 * What the renderer talks to. Each host provides one (the Electron preload, an HTTP client in
 * browser mode, the app itself in tests); the renderer never knows which. `invoke` rejects with a
 * `ContractError`; `on` returns the function that unsubscribes.
 */
export interface ApiClient {
  invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  on<E extends PushEventName>(event: E, listener: (payload: PushPayload<E>) => void): () => void;
}
