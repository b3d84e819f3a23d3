import type { RunEntry } from '../../contract';
import type { Runner } from '../../engine/runner';
import type { ProtocolRegistry } from '../../engine/registry';
import type { Log } from '../../ports/log';
import type { ProviderFactory } from '../debates/providers';
import { type RunRequest, RunService } from '../runs/run-service';
import { UserError, type Workspace } from '../workspace/workspace';
import { ENDED_STATUSES, type LiveRun, type LiveRuns } from './live-runs';

interface Driven {
  runner: Runner<unknown, unknown, unknown>;
  live: LiveRun;
}

/**
 * Runs of the protocols registered in core/protocols.ts, driven in this app in the background: the
 * general run service does the work (runner, log, lease), and LiveRuns follows each from the records
 * its log appends, like a debate or an evaluation. Nothing here names a protocol.
 */
export class LiveProtocolRuns {
  private readonly driven = new Map<string, Driven>();

  constructor(
    private readonly deps: {
      ws: Workspace;
      runs: LiveRuns;
      registry: ProtocolRegistry;
      providers: ProviderFactory;
      log: Log;
    },
  ) {
    for (const name of deps.registry.hosted) {
      deps.runs.serve(name, {
        pause: (id) => this.runner(id).pause(),
        resume: (id) => this.resumeRun(id),
        cancel: (id) => this.runner(id).cancel(),
      });
    }
  }

  private runner(id: string): Runner<unknown, unknown, unknown> {
    const driven = this.driven.get(id);
    if (!driven) throw new UserError(`run ${id} is not running in this app`);
    return driven.runner;
  }

  /** A paused run continues; one this app no longer drives is resumed from its log. */
  private async resumeRun(id: string): Promise<void> {
    const driven = this.driven.get(id);
    if (driven) return driven.runner.resume();
    await this.drive(id, (service, hooks) => service.resume(id, hooks));
  }

  /** Starts a run in the background; answers once it is held, its log begun and followed. */
  async start(request: RunRequest): Promise<RunEntry> {
    const id = await this.drive(null, (service, hooks) => service.start(request, hooks));
    return this.deps.runs.get(id) as RunEntry;
  }

  private drive(
    known: string | null,
    run: (service: RunService, hooks: Parameters<RunService['start']>[1]) => Promise<unknown>,
  ): Promise<string> {
    const { ws, runs, registry, providers, log } = this.deps;
    const service = new RunService(ws, registry, providers);
    return new Promise<string>((resolve, reject) => {
      let live: LiveRun | null = null;
      let started = false;
      run(service, {
        onStarted: (id, runner) => {
          const header = service.header(id);
          live = runs.follow({
            id,
            protocol: header.protocol,
            ideaSlug: header.ideaSlug,
            topic: header.topic,
            provider: header.provider,
            startedAt: header.createdAt,
            costUsd: runner.usage.costUsd,
          });
          this.driven.set(id, { runner, live });
          started = true;
          resolve(id);
        },
        onRecords: (records) => live?.records(records),
      })
        .then(
          () => live?.end(),
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            // Refused before it started (an unknown protocol, a bad setup): the caller hears it.
            if (!started) return reject(error);
            log.warn('a run ended with an error', { id: known ?? live?.id, error: message });
            live?.end(message);
          },
        )
        .finally(() => {
          const id = known ?? live?.id;
          if (id) this.driven.delete(id);
        });
    });
  }

  /** When the app closes: every run pauses after its calls in flight (resumable), or ends. */
  async close(): Promise<void> {
    const waits = [...this.driven.entries()].map(([id, driven]) => {
      driven.runner.pause();
      return this.deps.runs.until(id, (status) => status === 'paused' || ENDED_STATUSES.has(status));
    });
    await Promise.race([Promise.all(waits), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
}
