import type { z } from 'zod';
import type { EpisodeDraft } from '../memory/episode';
import type { Persona } from '../personas/persona';
import type { ProtocolSimulator } from '../sim/registry';
import type { Taxonomy } from '../taxonomy/taxonomy';
import type { Protocol } from './protocol';

/**
 * What a protocol may read of the workspace to build its state and its requests, the same for every
 * protocol (a port: the Node side reads the folder, a test hands in a fake). Reads only: a run
 * writes through the runner's log alone.
 */
export interface RunResources {
  /** A persona by id, as loaded from the built-in personas and the workspace's `personas/`. */
  persona(id: string): Persona | undefined;
  /** A workspace file's text by its workspace-relative path, read inside the workspace; null when absent. */
  read(rel: string): string | null;
  /** The idea's inputs as markdown (its README, development and research files), for a brief. */
  ideaText(slug: string): string;
  readonly taxonomy: Taxonomy;
}

/**
 * For what runs or folds a protocol that reads nothing of the workspace (an arena, a test): any read
 * is a programming error, said as such.
 */
export const NO_RESOURCES: RunResources = {
  persona: () => {
    throw new Error('this reader gives the protocol no personas');
  },
  read: () => {
    throw new Error('this reader gives the protocol no files');
  },
  ideaText: () => {
    throw new Error('this reader gives the protocol no idea');
  },
  get taxonomy(): never {
    throw new Error('this reader gives the protocol no taxonomy');
  },
};

/**
 * What the one engine needs to run a protocol it has never heard of: its name and version (written
 * into every log's header), the schema of its setup (what starts a run, read back from the header on
 * resume), where its logs live, its starting state, the protocol itself, and what a finished run
 * shows. A protocol is a folder under `core/` plus one `register` line (see docs/architecture.md,
 * "Adding a protocol"); nothing here names one.
 */
export interface ProtocolEntry<Setup = unknown, State = unknown, Input = unknown, Ask = unknown> {
  readonly name: string;
  readonly version: number;
  readonly setup: z.ZodType<Setup>;
  /** The folder its logs live in: `ideas/<slug>/<folder>/<id>.jsonl`, or `<folder>/<id>.jsonl` for a topic. */
  readonly folder: string;
  /** A log's file name in that folder (default `<id>.jsonl`). */
  logName?(id: string): string;
  /**
   * Set for a protocol whose runs a service of its own starts and resumes, because it keeps more than
   * the log (a crux debate its index rows, an evaluation its locked record and documents): the
   * command that starts one. The general run service then only reads its runs.
   */
  readonly startedBy?: string;
  init(setup: Setup, resources: RunResources): State;
  protocol(setup: Setup, deps: { now: () => number; resources: RunResources }): Protocol<State, Input, Ask>;
  /** What a run shows of itself (its result so far), as plain JSON. */
  summary(state: State): Record<string, unknown>;
  /** Its readable transcript: who said what, in order. */
  transcript(state: State): { author: string; text: string }[];
  /** Its offline answers, for the simulated provider. */
  readonly simulator?: ProtocolSimulator;
  /**
   * What a completed run leaves in the workspace's shared memory (`council/memory/episodes.jsonl`),
   * which later runs of every protocol read in their briefs; null when the run left nothing to learn.
   */
  episode?(setup: Setup, state: State, run: { ideaSlug: string | null }): EpisodeDraft | null;
}

/** Any entry, as the registry holds it (each entry is typed where it is written). */
// biome-ignore lint/suspicious/noExplicitAny: entries of every protocol live side by side here.
export type AnyProtocolEntry = ProtocolEntry<any, any, any, any>;

export class ProtocolRegistry {
  private readonly entries = new Map<string, AnyProtocolEntry>();

  register(entry: AnyProtocolEntry): void {
    // Two entries for one name would make which one runs depend on load order.
    if (this.entries.has(entry.name)) throw new Error(`protocol "${entry.name}" is already registered`);
    if (!/^[a-z][a-z0-9-]*$/.test(entry.folder))
      throw new Error(`protocol "${entry.name}": bad folder "${entry.folder}"`);
    this.entries.set(entry.name, entry);
  }

  get(name: string): AnyProtocolEntry | undefined {
    return this.entries.get(name);
  }

  get names(): string[] {
    return [...this.entries.keys()];
  }

  /** The protocols the general run service starts and resumes (those without a service of their own). */
  get hosted(): string[] {
    return [...this.entries.values()].filter((e) => e.startedBy === undefined).map((e) => e.name);
  }

  get simulators(): ProtocolSimulator[] {
    return [...this.entries.values()].flatMap((e) => (e.simulator ? [e.simulator] : []));
  }
}
