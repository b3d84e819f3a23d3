import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  type Channel,
  type ChannelInput,
  type ChannelOutput,
  ContractError,
  type PushEvent,
} from '../../core/contract';
import { type App, type AppOptions, createApp } from '../../core/node/app/create-app';
import { appRoot } from '../../core/node/app-root';
import { tempWorkspace } from './temp-workspace';

// The handler tests of core/node/app (one file per channel area) run a real app on a temp
// workspace (real SQLite, real files) with the offline simulator. What they share is here: the
// workspace, booting and closing apps, the contract bugs an app reports (a test fails on any), and
// which channels answered, for each file's check that it reached every channel of its area.

/** The sample ideas the handler tests start from (copied from the app's own `ideas/`). */
export const IDEA = 'community-solar-coop';
export const OTHER = 'ebike-repair-workshop';

function copyIdeas(root: string, slugs: readonly string[]): void {
  for (const slug of slugs) cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
}

export interface AppPerTest {
  /** The current test's workspace folder. */
  readonly root: string;
  /** Boots an app on it (no watcher unless asked); it is closed after the test. */
  boot(options?: Partial<AppOptions>): Promise<App>;
  /** Calls a channel's handler and notes that it answered. */
  call<C extends Channel>(app: App, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
}

/**
 * A fresh workspace holding the sample ideas for every test of the surrounding suite, with no API
 * key from the developer's environment; after each test every app booted is closed, the folder
 * removed and the environment restored, and no contract bug may have been reported.
 */
export function appPerTest(
  prefix: string,
  answered: Set<Channel>,
  ideas: readonly string[] = [IDEA, OTHER],
): AppPerTest {
  let root = '';
  let cleanup = () => {};
  const apps: App[] = [];
  const bugs: Error[] = [];
  const savedEnv = { ...process.env };

  beforeEach(() => {
    ({ root, cleanup } = tempWorkspace(prefix));
    copyIdeas(root, ideas);
    // The environment key store reads these: a developer's own key must not leak into the assertions.
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.CRUCIBLE_OPENAI_API_KEY;
  });

  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    process.env = { ...savedEnv };
    cleanup();
    expect(bugs.splice(0)).toEqual([]);
  });

  return {
    get root() {
      return root;
    },
    async boot(options = {}) {
      const app = await createApp({
        workspaceRoot: root,
        watch: false,
        onContractBug: (e) => bugs.push(e),
        // Instant simulated runs (the hosts a researcher watches pace them).
        paceSimulated: false,
        ...options,
      });
      apps.push(app);
      return app;
    },
    async call(app, channel, input) {
      const output = await app.handlers[channel](input);
      answered.add(channel);
      return output;
    },
  };
}

export interface FinishedRuns {
  readonly root: string;
  /** The app the runs were made with, open for the whole suite. */
  readonly app: App;
  readonly debateId: string;
  /** Empty unless the suite asked for an evaluation. */
  readonly evaluationId: string;
  /** Closes the suite's app, does `between` (with no app open), and boots the next one on the same workspace. */
  restart(between?: () => void): Promise<void>;
  /** Calls a channel's handler (of the suite's app unless `on` is given) and notes that it answered. */
  call<C extends Channel>(channel: C, input: ChannelInput<C>, on?: App): Promise<ChannelOutput<C>>;
}

/** The simulator's falsifiers fall due on 2027-12-31; the finished runs' "today" is after that. */
export const AFTER_THE_DEADLINES = new Date('2028-03-01T12:00:00Z');

/**
 * One workspace for the whole surrounding suite, where a simulated crux debate of five agents
 * (seed 3) about IDEA has finished, and, when asked, a quick simulated evaluation of IDEA (seed 5)
 * has locked: what the views of past runs read. The app's clock says AFTER_THE_DEADLINES.
 */
export function finishedRuns(prefix: string, answered: Set<Channel>, options: { evaluation: boolean }): FinishedRuns {
  let root = '';
  let cleanup = () => {};
  let app: App | undefined;
  let debateId = '';
  let evaluationId = '';
  const bugs: Error[] = [];

  const boot = () =>
    createApp({
      workspaceRoot: root,
      watch: false,
      clock: { now: () => AFTER_THE_DEADLINES },
      onContractBug: (e) => bugs.push(e),
      paceSimulated: false,
    });
  const call = async <C extends Channel>(channel: C, input: ChannelInput<C>, on?: App) => {
    const output = await (on ?? (app as App)).handlers[channel](input);
    answered.add(channel);
    return output;
  };

  beforeAll(async () => {
    ({ root, cleanup } = tempWorkspace(prefix));
    copyIdeas(root, [IDEA]);
    app = await boot();
    const agents = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];
    debateId = (await call('debates:start', { ideaSlug: IDEA, agents, provider: 'simulated', seed: 3 })).id;
    const until = Date.now() + 30_000;
    while ((await app.handlers['debates:get']({ id: debateId })).status === 'running') {
      if (Date.now() > until) throw new Error('the simulated debate did not end');
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!options.evaluation) return;
    evaluationId = (await call('evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated', seed: 5 })).id;
    const locked = Date.now() + 30_000;
    while ((await app.handlers['evaluations:get']({ id: evaluationId })).status === 'running') {
      if (Date.now() > locked) throw new Error('the simulated evaluation did not lock');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    cleanup();
    expect(bugs).toEqual([]);
  });

  return {
    get root() {
      return root;
    },
    get app() {
      return app as App;
    },
    get debateId() {
      return debateId;
    },
    get evaluationId() {
      return evaluationId;
    },
    async restart(between) {
      await app?.close();
      between?.();
      app = await boot();
    },
    call,
  };
}

/** The ContractError a call was refused with (it fails when the call succeeds or throws anything else). */
export async function refused(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ContractError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

/** The batches of a debate's events among pushed events, in order. */
export const debateEvents = (seen: PushEvent[], id: string) =>
  seen.flatMap((e) => (e.event === 'debate:event' && e.payload.debateId === id ? [e.payload] : []));
/** A run's statuses (a debate's, an evaluation's) among pushed events, in order. */
export const runStatuses = (seen: PushEvent[], id: string) =>
  seen.flatMap((e) => (e.event === 'run:status' && e.payload.id === id ? [e.payload.status] : []));
/** The last status pushed for a run. */
export const lastRunStatus = (seen: PushEvent[], id: string) =>
  seen.findLast(
    (e): e is Extract<PushEvent, { event: 'run:status' }> => e.event === 'run:status' && e.payload.id === id,
  )?.payload;

/** Every event the app pushes from now on, in order. */
export function record(app: App): PushEvent[] {
  const seen: PushEvent[] = [];
  app.events.onAny((event) => seen.push(event));
  return seen;
}
