import type { CruxEvent } from '../../crux/events';
import type { DebateRequest } from '../../contract';
import type { CruxDraft, CruxEngine } from '../../engine/crux-engine';
import type { DebateRecord, DebateStatus } from '../../engine/debate-record';
import { readDebateLog } from '../debates/journal';
import { runStatus } from '../sqlite/run-queries';
import type { Log } from '../../ports/log';
import type { DebateEstimate, DebateRun, DebateService, StartOptions } from '../debates/debate-service';
import { UserError, type Workspace } from '../workspace/workspace';
import { ENDED_STATUSES, type LiveRun, type LiveRuns } from './live-runs';
import type { PushEmitter } from './push-emitter';

interface LiveDebate {
  id: string;
  engine: CruxEngine;
  /** Where its status is followed and pushed (`run:status`). */
  run: LiveRun;
  /** Events in the debate's sequence so far: the `from` of the next `debate:event`. */
  events: number;
  /** Drafts held back by the throttle, by `thread agent`, with the timer that sends them. */
  drafts: Map<string, { draft: CruxDraft; timer: NodeJS.Timeout | null; sentAt: number }>;
}

/** What DebateService.start and resume are given to hand the engine and the log's records over. */
interface LaunchHooks {
  onEngine: (engine: CruxEngine) => void;
  onRecords: (records: DebateRecord[]) => void;
}

/** Drafts of one turn go out at most this often (the latest text whole each time). */
const DRAFT_INTERVAL_MS = 100;

interface Deps {
  ws: Workspace;
  service: DebateService;
  emitter: PushEmitter;
  log: Log;
  /** Follows each debate's status by the records its log appends, and pushes it (`run:status`). */
  runs: LiveRuns;
}

/** Thrown from the estimate hook so that `DebateService.start` stops before it creates anything. */
class EstimateOnly extends Error {
  constructor(readonly estimate: DebateEstimate) {
    super('estimate only');
  }
}

/** The request of `debates:start` as DebateService takes it (no key left holding `undefined`). */
export function startOptions(request: DebateRequest): StartOptions {
  const limits = request.limits
    ? Object.fromEntries(Object.entries(request.limits).filter(([, value]) => value !== undefined))
    : undefined;
  return {
    ...(request.ideaSlug !== undefined ? { ideaSlug: request.ideaSlug } : {}),
    ...(request.topic !== undefined ? { topic: request.topic } : {}),
    agents: request.agents,
    provider: request.provider,
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(limits && Object.keys(limits).length > 0 ? { limits } : {}),
    ...(request.config ? { config: request.config } : {}),
    ...(request.baseline ? { baseline: true } : {}),
  };
}

/**
 * The debates running in this app: started or resumed in the background, their engines' events
 * pushed as `debate:event` (numbered in the debate's own sequence) and their drafts as
 * `debate:draft`; their status is LiveRuns', fed by the records each debate's log appends. The log
 * stays the authority; this only follows it.
 */
export class LiveDebates {
  private readonly live = new Map<string, LiveDebate>();
  private closing = false;

  constructor(private readonly deps: Deps) {}

  isLive(id: string): boolean {
    return this.live.has(id);
  }

  /** The status the index records for a debate (null: no such debate). */
  recordedStatus(id: string): DebateStatus | null {
    if (!this.deps.ws.db.open) return null;
    return runStatus(this.deps.ws.db, id);
  }

  /** The events of a debate's log from index `from` on, and how many it holds. */
  events(id: string, from = 0): { events: CruxEvent[]; total: number } {
    const rel = this.deps.service.logPathOf(id);
    const { records } = readDebateLog(this.deps.ws.root, rel);
    const all = records.flatMap((r) => (r.type === 'event' ? [r.event as unknown as CruxEvent] : []));
    return { events: all.slice(from), total: all.length };
  }

  /**
   * What the debate would likely cost. It runs DebateService.start's own checks and estimate, and
   * stops it from the estimate hook, before the log is created.
   */
  async estimate(request: DebateRequest): Promise<DebateEstimate> {
    try {
      await this.deps.service.start(startOptions(request), {
        onEstimate: (estimate) => {
          throw new EstimateOnly(estimate);
        },
        onEngine: () => {
          throw new Error('DebateService.start created a debate before reporting its estimate');
        },
      });
    } catch (error) {
      if (error instanceof EstimateOnly) return error.estimate;
      throw error;
    }
    throw new Error('DebateService.start finished without reporting an estimate');
  }

  async start(request: DebateRequest): Promise<{ id: string; estimate: DebateEstimate }> {
    let estimate: DebateEstimate = {
      calls: 0,
      usd: 0,
      worstCalls: 0,
      worstUsd: 0,
      basis: 'no estimate was reported',
      cannotRun: null,
    };
    const engine = await this.launch(async (hooks) => {
      const run = await this.deps.service.start(startOptions(request), {
        ...hooks,
        onEstimate: (e) => {
          estimate = e;
        },
      });
      if (request.baseline) await this.baselineAfter(run.id);
      return run;
    });
    return { id: engine.header.id, estimate };
  }

  /**
   * The single pass a start asked for, once the debate has ended and before its end is pushed, so the
   * view that reloads on that push finds it. A pass that fails leaves the debate as it ended (the view
   * then offers the pass again); the app closing skips it.
   */
  private async baselineAfter(id: string): Promise<void> {
    if (this.closing) return;
    try {
      await this.deps.service.baseline(id);
    } catch (error) {
      this.deps.log.warn(`debate ${id}: the single pass asked for at its start failed`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Asks a running debate to pause; it logs the pause when the calls in flight return (pushed then). */
  pause(id: string): void {
    const entry = this.live.get(id);
    if (!entry) throw this.notLive(id, 'pause');
    entry.engine.pause();
    entry.run.stopAsked(true);
  }

  async resume(id: string): Promise<void> {
    const entry = this.live.get(id);
    if (entry) {
      entry.engine.resume();
      entry.run.stopAsked(false);
      return;
    }
    this.requireUnfinished(id, 'resume');
    await this.launch((hooks) => this.deps.service.resume(id, hooks));
  }

  async cancel(id: string): Promise<void> {
    const entry = this.live.get(id);
    if (entry) {
      entry.engine.cancel();
      entry.run.stopAsked(true);
      return;
    }
    // An interrupted or paused debate is cancelled through its own engine, so the log says so.
    this.requireUnfinished(id, 'cancel');
    await this.launch(
      (hooks) => this.deps.service.resume(id, hooks),
      (entry) => {
        entry.engine.cancel();
        entry.run.stopAsked(true);
      },
    );
  }

  private notLive(id: string, action: string): UserError {
    const status = this.recordedStatus(id);
    if (status === null) this.deps.service.logPathOf(id); // throws the usual "no debate" error
    return new UserError(`cannot ${action} debate ${id}: it is not running (${status ?? 'unknown'})`);
  }

  private requireUnfinished(id: string, action: string): void {
    const status = this.recordedStatus(id);
    if (status === null) this.deps.service.logPathOf(id);
    if (status && ENDED_STATUSES.has(status))
      throw new UserError(`cannot ${action} debate ${id}: it has already ended (${status})`);
  }

  /**
   * Starts `begin` and answers as soon as its engine exists (a mistake in the request rejects
   * before that); the debate then runs on in the background.
   */
  private async launch(
    begin: (hooks: LaunchHooks) => Promise<DebateRun>,
    afterAttach?: (entry: LiveDebate) => void,
  ): Promise<CruxEngine> {
    if (this.closing) throw new UserError('the workspace is closing; no debate can start now');
    let handOver: (engine: CruxEngine) => void = () => {};
    const ready = new Promise<CruxEngine>((resolve) => {
      handOver = resolve;
    });
    // The log's first records (its header, the opening thread) come before the engine is handed
    // over: they say nothing of status or cost, and the run is followed from the hand-over on.
    let attached: LiveDebate | null = null;
    const run = begin({
      onEngine: (engine) => {
        attached = this.attach(engine);
        afterAttach?.(attached);
        handOver(engine);
      },
      onRecords: (records) => attached?.run.records(records),
    });
    const engine = await Promise.race([ready, run.then(() => null)]);
    if (!engine) throw new Error('the debate ended before its engine was handed over');
    const id = engine.header.id;
    run.then(
      () => this.stopped(id),
      (error) => this.crashed(id, error),
    );
    return engine;
  }

  private attach(engine: CruxEngine): LiveDebate {
    const { header } = engine;
    const id = header.id;
    // Events already in the log (the opening thread, or everything before a resume) come first.
    const entry: LiveDebate = {
      id,
      engine,
      run: this.deps.runs.follow({
        id,
        protocol: header.protocol,
        ideaSlug: header.ideaSlug,
        topic: header.topic,
        provider: header.provider,
        startedAt: header.createdAt,
        costUsd: engine.spentUsd,
      }),
      events: this.events(id).total,
      drafts: new Map(),
    };
    this.live.set(id, entry);
    engine.onEvents((events) => {
      const from = entry.events;
      entry.events += events.length;
      this.deps.emitter.emit('debate:event', { debateId: id, from, events });
    });
    engine.onDrafts((draft) => this.draft(entry, draft));
    return entry;
  }

  /**
   * Passes a draft on, at most every DRAFT_INTERVAL_MS per turn: one that comes sooner waits (and is
   * replaced by any later one); a cleared draft goes at once, and drops whatever was waiting.
   */
  private draft(entry: LiveDebate, draft: CruxDraft): void {
    const key = `${draft.thread} ${draft.agent}`;
    const send = (d: CruxDraft) => this.deps.emitter.emit('debate:draft', { debateId: entry.id, ...d });
    const held = entry.drafts.get(key);
    if (draft.content === null) {
      if (held?.timer) clearTimeout(held.timer);
      entry.drafts.delete(key);
      if (held) send(draft);
      return;
    }
    const now = Date.now();
    if (!held || (held.timer === null && now - held.sentAt >= DRAFT_INTERVAL_MS)) {
      entry.drafts.set(key, { draft, timer: null, sentAt: now });
      send(draft);
      return;
    }
    held.draft = draft;
    if (held.timer) return;
    held.timer = setTimeout(
      () => {
        held.timer = null;
        held.sentAt = Date.now();
        send(held.draft);
      },
      DRAFT_INTERVAL_MS - (now - held.sentAt),
    );
    held.timer.unref();
  }

  /** Stops following a debate: the end its log recorded is pushed, or `failure` (a first line) when it threw. */
  private forget(id: string, failure?: string): void {
    const entry = this.live.get(id);
    for (const held of entry?.drafts.values() ?? []) if (held.timer) clearTimeout(held.timer);
    this.live.delete(id);
    entry?.run.end(failure);
  }

  /** Its transcript is written: the end its log recorded is pushed now. */
  private stopped(id: string): void {
    this.forget(id);
  }

  private crashed(id: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.closing) {
      this.forget(id);
      this.deps.log.warn(`debate ${id} stopped while the app closed; it resumes from its log`, { error: message });
      return;
    }
    this.deps.log.error(`debate ${id} failed`, { error: error instanceof Error ? (error.stack ?? message) : message });
    this.forget(id, message.split('\n')[0] ?? message);
  }

  /**
   * Shutdown: every running debate is paused, and given until `timeoutMs` to finish the calls in
   * flight and log its pause, so the next start resumes it exactly. A debate still waiting on a
   * model then is left as its log stands: the planned round is in the log and a resume redoes it.
   */
  async close(timeoutMs: number): Promise<{ paused: string[]; interrupted: string[] }> {
    this.closing = true;
    const entries = [...this.live.values()];
    for (const entry of entries) {
      entry.engine.pause();
      entry.run.stopAsked(true);
    }
    const { runs } = this.deps;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(entries.map((e) => runs.until(e.id, (status) => status === 'paused'))),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    const waiting = () => entries.filter((e) => this.live.has(e.id) && runs.get(e.id)?.status !== 'paused');
    const interrupted = waiting().map((e) => e.id);
    const paused = entries.filter((e) => this.live.has(e.id) && !interrupted.includes(e.id)).map((e) => e.id);
    for (const id of interrupted)
      this.deps.log.warn(`debate ${id} was still waiting on model calls at shutdown; it resumes from its log`);
    for (const entry of entries) this.forget(entry.id);
    return { paused, interrupted };
  }
}
