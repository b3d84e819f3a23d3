import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DebateRecord, RunHeader } from '../../engine/debate-record';
import type { RunRecord, RunStatus } from '../../engine/protocol';
import type { AnyProtocolEntry, ProtocolRegistry, RunResources } from '../../engine/registry';
import { type RunLimits, Runner } from '../../engine/runner';
import { protocols as builtIn } from '../../protocols';
import { describeIssues } from '../../text/zod-issues';
import { DebateJournal, lastStatus, readDebateLog } from '../debates/journal';
import { type ProviderFactory, type ProviderName, providerFor } from '../debates/providers';
import { ulid } from '../ids';
import { UserError, type Workspace } from '../workspace/workspace';
import { claimRun } from './run-control';
import { workspaceResources } from './run-resources';
import { workspaceMemory } from '../memory/workspace-memory';

/** What starts a run of a registered protocol. */
export interface RunRequest {
  protocol: string;
  ideaSlug?: string;
  topic: string;
  provider: ProviderName;
  seed?: number;
  /** The protocol's own setup, checked against its schema. */
  setup: unknown;
  limits?: Partial<RunLimits>;
}

/** A run as the CLI and the views show it. */
export interface RunReport {
  id: string;
  protocol: string;
  version: number;
  status: RunStatus;
  reason: string | null;
  /** Workspace-relative path of its log. */
  log: string;
  costUsd: number;
  summary: Record<string, unknown>;
  transcript: { author: string; text: string }[];
}

/** What a host follows a run by (all optional). */
export interface RunServiceHooks {
  /** The run is held and its runner built, before its first call: its id, and the runner to pause or cancel. */
  onStarted?: (id: string, runner: Runner<unknown, unknown, unknown>) => void;
  /** Every record its log appends, numbered and dated, as it is written. */
  onRecords?: (records: DebateRecord[]) => void;
}

const DEFAULT_LIMITS: RunLimits = { budgetUsd: 2, timeLimitMs: 30 * 60_000, concurrency: 4 };

/**
 * Starts, resumes and reads runs of any protocol in the registry (`core/protocols.ts`) with the one
 * runner and the one log: the header names the protocol and its version, the runner's records follow,
 * one process holds the run while it writes (run-control.ts), and a run killed at any moment resumes
 * from its log to the result an uninterrupted run has.
 */
export class RunService {
  constructor(
    private readonly ws: Workspace,
    private readonly registry: ProtocolRegistry = builtIn,
    private readonly providers: ProviderFactory = providerFor,
  ) {}

  private entry(name: string): AnyProtocolEntry {
    const entry = this.registry.get(name);
    if (!entry)
      throw new UserError(
        `no protocol "${name}" (registered: ${this.registry.names.join(', ') || 'none besides crux and evaluation, which have their own commands'})`,
      );
    return entry;
  }

  async start(request: RunRequest, hooks: RunServiceHooks = {}): Promise<RunReport> {
    const entry = this.entry(request.protocol);
    if (entry.startedBy)
      throw new UserError(`a ${entry.name} run is started with \`${entry.startedBy}\`, which keeps what it needs beside the log`);
    const parsed = entry.setup.safeParse(request.setup);
    if (!parsed.success)
      throw new UserError(`the ${entry.name} setup: ${describeIssues('setup', parsed.error).join('; ')}`);
    if (request.ideaSlug !== undefined && !this.ws.list().some((idea) => idea.slug === request.ideaSlug))
      throw new UserError(`no idea "${request.ideaSlug}" in this workspace`);
    const header: RunHeader = {
      id: ulid().toLowerCase(),
      protocol: entry.name,
      version: entry.version,
      ideaSlug: request.ideaSlug ?? null,
      topic: request.topic,
      provider: request.provider,
      createdAt: new Date().toISOString(),
      setup: parsed.data as Record<string, unknown>,
      seed: request.seed ?? 1,
      limits: { ...DEFAULT_LIMITS, ...request.limits },
    };
    // The provider is made before anything is written: a missing key is said with nothing created.
    const provider = this.providers(request.provider, this.ws.root, header.seed ?? 1);
    const held = claimRun(this.ws.root, this.ws.db, header.id, 'run');
    try {
      const rel = logPath(entry, header.ideaSlug, header.id);
      const journal = DebateJournal.start(
        this.ws.root,
        this.ws.db,
        rel,
        { type: 'run_created', header },
        hooks.onRecords,
        held.confirm,
      );
      const runner = this.runner(entry, header, journal, provider, 0);
      hooks.onStarted?.(header.id, runner);
      return await this.drive(entry, header, rel, journal, runner, held);
    } finally {
      held.release();
    }
  }

  async resume(id: string, hooks: RunServiceHooks = {}): Promise<RunReport> {
    const rel = this.find(id);
    const held = claimRun(this.ws.root, this.ws.db, id, 'run');
    try {
      // Read after the run is held: what a live owner was writing is no basis for a resume.
      const { journal, records } = DebateJournal.resume(this.ws.root, this.ws.db, rel, hooks.onRecords, held.confirm);
      const header = headerOf(rel, records);
      const entry = this.entry(header.protocol);
      if (entry.startedBy)
        throw new UserError(`${entry.name} run ${id} resumes through its own service: runs resume ${id}`);
      if (header.version !== entry.version)
        throw new UserError(
          `${rel} was written by version ${header.version} of the ${entry.name} protocol; this app runs version ${entry.version}`,
        );
      const provider = this.providers(header.provider as ProviderName, this.ws.root, header.seed ?? 1);
      const first = Date.parse(records[0]?.at ?? '');
      const last = Date.parse(records[records.length - 1]?.at ?? '');
      const runner = this.runner(entry, header, journal, provider, Math.max(0, last - first) || 0);
      for (const record of records.slice(1)) runner.fold(record as RunRecord);
      hooks.onStarted?.(header.id, runner);
      return await this.drive(entry, header, rel, journal, runner, held);
    } finally {
      held.release();
    }
  }

  /**
   * Stops a run no process drives (killed, or paused by a quit) for good: its log ends `cancelled`.
   * A run another process drives is asked through its control file instead (`runs stop ID`).
   */
  stopIdle(id: string): RunReport {
    const rel = this.find(id);
    const held = claimRun(this.ws.root, this.ws.db, id, 'run');
    try {
      const { journal, records } = DebateJournal.resume(this.ws.root, this.ws.db, rel, undefined, held.confirm);
      try {
        const status = lastStatus(records);
        if (status === null || status === 'running' || status === 'paused')
          journal.append([{ type: 'status', status: 'cancelled', reason: 'stopped by the researcher' }]);
      } finally {
        journal.close();
      }
    } finally {
      held.release();
    }
    return this.show(id);
  }

  /** The workspace-relative log of run `id` (an unknown id is a one-line error). */
  logPathOf(id: string): string {
    return this.find(id);
  }

  /** The header of run `id`, from its log. */
  header(id: string): RunHeader {
    const rel = this.find(id);
    return headerOf(rel, readDebateLog(this.ws.root, rel).records);
  }

  /** A run as its log has it, without running anything. */
  show(id: string): RunReport {
    const rel = this.find(id);
    const { records } = readDebateLog(this.ws.root, rel);
    const header = headerOf(rel, records);
    const entry = this.entry(header.protocol);
    const runner = foldRun(entry, header, records, workspaceResources(this.ws));
    const status = lastStatus(records) ?? 'running';
    return report(entry, header, rel, runner, status, runner.currentStatus.reason);
  }

  private runner(
    entry: AnyProtocolEntry,
    header: RunHeader,
    journal: DebateJournal,
    provider: ReturnType<ProviderFactory>,
    elapsedBefore: number,
  ): Runner<unknown, unknown, unknown> {
    const resources = workspaceResources(this.ws);
    return new Runner(
      entry.protocol(header.setup, { now: Date.now, resources }),
      entry.init(header.setup, resources),
      header.limits ?? DEFAULT_LIMITS,
      {
        llm: provider.llm,
        append: (records) => journal.append(records as Parameters<DebateJournal['append']>[0]),
        estimateCostUsd: provider.estimate,
        now: Date.now,
      },
      elapsedBefore,
    );
  }

  private async drive(
    entry: AnyProtocolEntry,
    header: RunHeader,
    rel: string,
    journal: DebateJournal,
    runner: Runner<unknown, unknown, unknown>,
    held: ReturnType<typeof claimRun>,
  ): Promise<RunReport> {
    // Another process (`runs pause|resume|stop ID`) asks through the run's control file; a stop is a cancel.
    held.follow((action) => {
      if (action === 'pause') runner.pause();
      if (action === 'resume') runner.resume();
      if (action === 'stop') runner.cancel();
    });
    try {
      const outcome = await runner.run();
      // What a completed run leaves in the shared memory, once per run id (a run finished again
      // after a kill between its last record and this line writes it then, and only then).
      const episode =
        outcome.status === 'completed' ? entry.episode?.(header.setup, runner.currentState, header) : null;
      if (episode) workspaceMemory(this.ws.root).record(entry.name, header.id, episode);
      return report(entry, header, rel, runner, outcome.status, outcome.reason);
    } finally {
      journal.close();
    }
  }

  /** The log of run `id`, in the folder of any registered protocol (beside an idea or at the top). */
  private find(id: string): string {
    if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(id)) throw new UserError(`"${id}" is not a run id`);
    const slugs = (() => {
      try {
        return readdirSync(join(this.ws.root, 'ideas'));
      } catch {
        return [];
      }
    })();
    for (const name of this.registry.names) {
      const entry = this.entry(name);
      for (const rel of [logPath(entry, null, id), ...slugs.map((slug) => logPath(entry, slug, id))])
        if (existsSync(join(this.ws.root, rel))) return rel;
    }
    throw new UserError(`no run "${id}" of a registered protocol in this workspace`);
  }
}

/**
 * A run folded from its log (the header record first) without running anything: what `show` reads,
 * and any reader of a protocol's logs (the arena's ratings) with it.
 */
export function foldRun(
  entry: AnyProtocolEntry,
  header: RunHeader,
  records: readonly DebateRecord[],
  resources: RunResources,
): Runner<unknown, unknown, unknown> {
  const runner = new Runner(
    entry.protocol(header.setup, { now: () => 0, resources }),
    entry.init(header.setup, resources),
    header.limits ?? DEFAULT_LIMITS,
    {
      llm: { provider: 'none', call: () => Promise.reject(new Error('reading a log makes no calls')) },
      append: () => {},
      estimateCostUsd: () => 0,
      now: () => 0,
    },
  );
  for (const record of records.slice(1)) runner.fold(record as RunRecord);
  return runner;
}

function logPath(entry: AnyProtocolEntry, ideaSlug: string | null, id: string): string {
  const name = entry.logName ? entry.logName(id) : `${id}.jsonl`;
  return ideaSlug ? `ideas/${ideaSlug}/${entry.folder}/${name}` : `${entry.folder}/${name}`;
}

function headerOf(rel: string, records: readonly DebateRecord[]): RunHeader {
  const first = records[0];
  // A crux debate's log, older than the general header, starts with its own: that header is its setup.
  if (first?.type === 'debate_created') {
    const h = first.header;
    return {
      id: h.id,
      protocol: 'crux',
      version: 1,
      ideaSlug: h.ideaSlug,
      topic: h.topic,
      provider: h.provider,
      createdAt: h.createdAt,
      setup: h as unknown as Record<string, unknown>,
      ...(h.seed !== null ? { seed: h.seed } : {}),
      limits: {
        budgetUsd: h.limits.budgetUsd > 0 ? h.limits.budgetUsd : null,
        timeLimitMs: h.limits.maxDurationMs,
        concurrency: h.limits.concurrency,
      },
    };
  }
  if (first?.type !== 'run_created') throw new UserError(`${rel} does not start with a run header`);
  return first.header;
}

function report(
  entry: AnyProtocolEntry,
  header: RunHeader,
  rel: string,
  runner: Runner<unknown, unknown, unknown>,
  status: RunStatus,
  reason: string | null,
): RunReport {
  return {
    id: header.id,
    protocol: header.protocol,
    version: header.version,
    status,
    reason,
    log: rel,
    costUsd: runner.usage.costUsd,
    summary: entry.summary(runner.currentState),
    transcript: entry.transcript(runner.currentState),
  };
}
