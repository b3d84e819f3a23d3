import { z } from 'zod';
import { cruxEventSchema } from './contract/crux';
import { debateIdSchema, slugSchema } from './contract/ids';
import {
  captureResultSchema,
  debateDetailSchema,
  debateEstimateSchema,
  debateRequestSchema,
  debateStatusSchema,
  debateSummarySchema,
  ideaDetailSchema,
  ideaSummarySchema,
  personaSummarySchema,
  fileProblemSchema,
  searchHitSchema,
  syncReportSchema,
  taxonomyViewSchema,
  workspaceProblemSchema,
} from './contract/entities';
import { PERSONA_ROLES } from './personas/persona';
import { debateViewChannels, debateViewPushEvents } from './contract/debate-view-channels';
import { evaluationChannels, evaluationPushEvents } from './contract/evaluation-channels';
import { settingsChannels, settingsPushEvents } from './contract/settings-channels';

/**
 * The one contract between the UI and the main side, whatever carries it (Electron IPC, the HTTP
 * host of browser mode, or a direct call). Every channel is listed here once, named
 * `<area>:<verb>`, with the zod schema of its input and of its output; every event the main side
 * pushes is listed once too, named `<subject>:<what happened>`. Types come from the schemas.
 *
 * Naming: areas are plural nouns (`ideas`, `debates`, later `evaluations`), verbs are what the
 * researcher does (`list`, `get`, `start`, `pause` …); pushed events are singular (`debate:event`,
 * `debate:status`, later `evaluation:event`, `evaluation:status`) so a channel and an event never
 * share a name.
 *
 * Pure: zod and core only, so the renderer can import it.
 */

export * from './contract/crux';
export * from './contract/entities';
export * from './contract/errors';
export * from './contract/ids';
export * from './contract/debate-view-channels';
export * from './contract/evaluation-channels';
export * from './contract/settings-channels';

/** The largest file browser mode accepts as an upload, before base64 (24 MiB). */
export const MAX_UPLOAD_BYTES = 24 * 1024 * 1024;

const none = z.strictObject({});
const slug = slugSchema;
const optionalWord = z.string().trim().min(1).max(200).optional();
const debateId = z.strictObject({ id: debateIdSchema });
const debateIdOut = z.strictObject({ id: z.string() });

/** A path on the computer the main side runs on, absolute (POSIX, `C:\…` or `\\server\…`). */
const localPath = z
  .string()
  .min(1, 'needs a file path')
  .max(4096)
  .refine((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\'), {
    message: 'must be an absolute path',
  });

/** A bare file name as a browser reports it for an uploaded file: no folders, nothing hidden. */
const fileName = z
  .string()
  .min(1, 'needs a file name')
  .max(255)
  .refine(
    (name) => !/[/\\]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 32) && name !== '.' && name !== '..',
    {
      message: 'must be a plain file name (no folders or control characters)',
    },
  );

const upload = {
  name: fileName,
  /** The file's bytes, base64-encoded. */
  contentBase64: z.base64('must be base64').max(Math.ceil(MAX_UPLOAD_BYTES / 3) * 4, 'the file is larger than 24 MiB'),
};

const captureOptions = { type: optionalWord, stage: optionalWord };

export const channels = {
  // ---- ideas
  /** Ideas in the library, optionally filtered by stage, type or tag. */
  'ideas:list': {
    input: z.strictObject({ stage: optionalWord, type: optionalWord, tag: optionalWord }),
    output: z.strictObject({ ideas: z.array(ideaSummarySchema) }),
  },
  /** One idea: its row, README body, files, relationships and the problems in its folder. */
  'ideas:get': { input: z.strictObject({ slug }), output: ideaDetailSchema },
  /** Full-text search over titles, summaries, tags and bodies (words, not query syntax). */
  'ideas:search': {
    input: z.strictObject({
      query: z.string().trim().min(1, 'needs some words to look for').max(500),
      /** The most hits to answer (50 when absent); `total` says how many there are. */
      limit: z.number().int().positive().max(100_000).optional(),
    }),
    output: z.strictObject({
      hits: z.array(searchHitSchema),
      /** Every idea the query matches, however many `hits` holds: the list can say "50 of 80". */
      total: z.number().int().nonnegative(),
    }),
  },
  /** A new idea from a title and text (the capture box). */
  'ideas:capture': {
    input: z.strictObject({
      title: z.string().trim().min(1, 'an idea needs a title').max(300),
      text: z.string().max(1_000_000).optional(),
      summary: z.string().max(1000).optional(),
      tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
      ...captureOptions,
    }),
    output: captureResultSchema,
  },
  /** A new idea from a file on this computer (a drop in the desktop app). Not served in browser mode. */
  'ideas:captureFile': {
    input: z.strictObject({ path: localPath, ...captureOptions }),
    output: captureResultSchema,
  },
  /** A new idea from a file's bytes (a drop in browser mode). */
  'ideas:captureUpload': {
    input: z.strictObject({ ...upload, ...captureOptions }),
    output: captureResultSchema,
  },
  /** Copies a file on this computer into an idea's `assets/`. Not served in browser mode. */
  'ideas:attach': {
    input: z.strictObject({ slug, path: localPath }),
    output: z.strictObject({ path: z.string() }),
  },
  /** Stores a file's bytes in an idea's `assets/` (browser mode). */
  'ideas:attachUpload': {
    input: z.strictObject({ slug, ...upload }),
    output: z.strictObject({ path: z.string() }),
  },
  /** Moves an idea to another lifecycle stage (edits only the README's `stage:` and `updated:` lines). */
  'ideas:setStage': {
    input: z.strictObject({ slug, stage: z.string().trim().min(1, 'needs a stage').max(100) }),
    output: z.strictObject({ idea: ideaSummarySchema.nullable(), path: z.string(), conflict: z.boolean() }),
  },

  // ---- workspace
  /** A full reconcile of the folder against the index, with what changed. */
  'workspace:sync': { input: none, output: syncReportSchema },
  /** Every file the app could not take in: idea files, debate logs, persona files. */
  'workspace:errors': { input: none, output: z.strictObject({ errors: z.array(workspaceProblemSchema) }) },

  // ---- taxonomy
  /** Lifecycle stages, idea types, evaluation categories with their criteria, tag vocabulary. */
  'taxonomy:get': { input: none, output: taxonomyViewSchema },

  // ---- personas
  /** The built-in and workspace personas (a workspace file replaces the built-in one with its id). */
  'personas:list': {
    input: z.strictObject({ role: z.enum(PERSONA_ROLES).optional() }),
    output: z.strictObject({ personas: z.array(personaSummarySchema), errors: z.array(fileProblemSchema) }),
  },

  // ---- debates
  /** Debates, newest first, optionally only those about one idea. */
  'debates:list': {
    input: z.strictObject({ ideaSlug: slug.optional() }),
    output: z.strictObject({ debates: z.array(debateSummarySchema) }),
  },
  /** One debate: header, status, result so far, transcript once it has stopped. */
  'debates:get': { input: debateId, output: debateDetailSchema },
  /**
   * The debate's events from index `from` on, read from its log. With `debate:event` (whose `from`
   * numbers the same sequence) a view opened mid-debate catches up without gaps or repeats.
   */
  'debates:events': {
    input: debateId.extend({ from: z.number().int().nonnegative().default(0) }),
    output: z.strictObject({
      debateId: z.string(),
      from: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      events: z.array(cruxEventSchema),
    }),
  },
  /** What a debate would likely cost; starts nothing. */
  'debates:estimate': { input: debateRequestSchema, output: debateEstimateSchema },
  /** Starts a debate and answers at once with its id; it runs on, pushing `debate:event` and `debate:status`. */
  'debates:start': {
    input: debateRequestSchema,
    output: z.strictObject({ id: z.string(), estimate: debateEstimateSchema }),
  },
  /** Pauses a running debate after the calls already in flight (`debate:status` says when). */
  'debates:pause': { input: debateId, output: debateIdOut },
  /** Continues a paused debate, or one interrupted by a crash or a quit, from its log. */
  'debates:resume': { input: debateId, output: debateIdOut },
  /** Stops a debate for good; its result is what it reached. */
  'debates:cancel': { input: debateId, output: debateIdOut },

  // ---- the rest, one file per area (core/contract/*-channels.ts)
  ...debateViewChannels,
  ...evaluationChannels,
  ...settingsChannels,
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
export const LOCAL_PATH_CHANNELS: readonly Channel[] = ['ideas:captureFile', 'ideas:attach'];

export const pushEvents = {
  /** The index changed: a pass of the watcher, a capture, a stage change or a reconcile. */
  'sync:changed': syncReportSchema,
  /** Events of a running debate; `from` is the index of the first one in the debate's sequence. */
  'debate:event': z.strictObject({
    debateId: z.string(),
    from: z.number().int().nonnegative(),
    events: z.array(cruxEventSchema),
  }),
  /**
   * What an agent has written so far of a turn still being answered (only providers that stream
   * send drafts; never logged). `content` null: the draft is gone, its message applied or its turn
   * failed. Drafts of one turn come at most every ~100 ms, the latest text whole each time.
   */
  'debate:draft': z.strictObject({
    debateId: z.string(),
    thread: z.string(),
    agent: z.string(),
    move: z.string().nullable(),
    content: z.string().nullable(),
  }),
  /** A debate started, paused, resumed or stopped (`reason` says why it stopped, when it did). */
  'debate:status': z.strictObject({ debateId: z.string(), status: debateStatusSchema, reason: z.string().nullable() }),
  ...debateViewPushEvents,
  ...evaluationPushEvents,
  ...settingsPushEvents,
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
