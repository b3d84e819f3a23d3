import type { EvaluationEntry } from '../../contract';
import type { RunStatus } from '../../engine/protocol';
import { addRoundRefusal } from '../../evaluation/step';
import type { Log } from '../../ports/log';
import type { PreparedRun, RunOutcome } from '../evaluations/evaluation-service';
import { EvaluationTrack } from '../evaluations/evaluation-track';
import type { StopReason } from '../evaluations/evaluation-log';
import { UserError } from '../workspace/workspace';
import type { LiveRun, LiveRuns } from './live-runs';
import type { PushEmitter } from './push-emitter';

/** One evaluation running in this app. */
export interface LiveEvaluation {
  id: string;
  slug: string;
  prepared: PreparedRun;
  track: EvaluationTrack;
  /** Where its status is followed and pushed (`run:status`). */
  followed: LiveRun;
  /** Set by cancel or by the app closing: the drive stops before its next batch of calls. */
  stop: StopReason | null;
  /** Set by approve: the drive feeds `user_approved` before its next batch. */
  approve: boolean;
  /** Rounds granted by "Add round" and not fed yet: the drive feeds `add_round` before its next batch. */
  addRounds: number;
  costUsd: number;
  budgetUsd: number;
  /** Answers a run like it needs in all (for the progress bar). */
  expected: number;
  done: Promise<void>;
}

interface Deps {
  emitter: PushEmitter;
  log: Log;
  /** Follows each evaluation's status by the records its log appends, and pushes it (`run:status`). */
  runs: LiveRuns;
  /** Answers a simulated continuation of the state would take (an estimate of the work left). */
  remaining: (track: EvaluationTrack) => number;
  /** Told when a run has locked (its record and script written), with the entries it followed. */
  onLocked?: (run: LiveEvaluation) => void;
}

/** Gives the event loop a turn, so that pushes, other calls and a cancel get in between batches. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An evaluation's status as a run's: what every evaluation channel carries. */
export interface EvaluationRunStatus {
  status: RunStatus;
  live: boolean;
  stopRequested: boolean;
}

/**
 * The evaluations running in this app, each in the background: started (or resumed) from a
 * prepared run, followed input by input into a track, pushed as `evaluation:event`, and stopped at
 * their checkpoint on cancel or when the app closes. Their status is LiveRuns', fed by the records
 * each one's log appends. The log and the record on disk stay the authority; this only follows them.
 */
export class LiveEvaluations {
  private readonly live = new Map<string, LiveEvaluation>();

  constructor(private readonly deps: Deps) {}

  get(id: string): LiveEvaluation | undefined {
    return this.live.get(id);
  }

  all(): LiveEvaluation[] {
    return [...this.live.values()];
  }

  /** Its status as every run's (LiveRuns says where it stands). */
  status(run: LiveEvaluation): EvaluationRunStatus {
    const followed = this.deps.runs.get(run.id);
    return followed
      ? { status: followed.status, live: followed.live, stopRequested: followed.stopRequested }
      : { status: 'running', live: true, stopRequested: run.stop !== null };
  }

  /** Refuses a second evaluation of an idea while one runs (both would write its synthesis). */
  checkIdle(slug: string): void {
    const running = this.all().find((r) => r.slug === slug);
    if (running) {
      throw new UserError(
        `an evaluation of "${slug}" is already running (${running.id}); wait for it or cancel it first`,
      );
    }
  }

  /** Starts a prepared run in the background and returns at once. */
  launch(prepared: PreparedRun): LiveEvaluation {
    const track = new EvaluationTrack(prepared.initial);
    for (const input of prepared.inputs) track.apply(input);
    const { header } = prepared;
    const run: LiveEvaluation = {
      id: prepared.id,
      slug: prepared.slug,
      prepared,
      track,
      followed: this.deps.runs.follow({
        id: prepared.id,
        protocol: 'evaluation',
        ideaSlug: prepared.slug,
        topic: header.setup.idea.title,
        provider: header.provider,
        startedAt: header.setup.startedAt,
        costUsd: prepared.spentBefore,
      }),
      stop: null,
      approve: false,
      addRounds: 0,
      costUsd: prepared.spentBefore,
      budgetUsd: prepared.header.budgetUsd,
      expected: track.answers + this.deps.remaining(track),
      done: Promise.resolve(),
    };
    this.live.set(run.id, run);
    run.done = prepared
      .run({
        onRecords: (records) => run.followed.records(records),
        onInput: (input) => {
          const from = track.entries.length;
          let added: EvaluationEntry[] = [];
          try {
            added = track.apply(input);
          } catch (error) {
            // The track folds the same inputs as the driver, so this is a bug; the run goes on.
            this.deps.log.error('an evaluation view could not follow an input', {
              id: run.id,
              error: error instanceof Error ? error.message : String(error),
            });
          }
          this.pushEvent(run, from, added);
        },
        onCall: (costUsd) => {
          run.costUsd += costUsd;
        },
        control: async () => {
          await turn();
          if (run.stop) return 'stop';
          if (run.approve) {
            run.approve = false;
            return 'approve';
          }
          if (run.addRounds > 0) {
            run.addRounds -= 1;
            return 'add_round';
          }
          return null;
        },
        stopReason: () => run.stop ?? 'cancelled',
      })
      .then(
        (outcome) => this.finished(run, outcome),
        (error: unknown) => {
          const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
          this.deps.log.error('an evaluation stopped with an error', { id: run.id, error: message ?? '' });
          this.live.delete(run.id);
          run.followed.end(message ?? 'unknown error');
        },
      );
    return run;
  }

  /**
   * Its record (locked) or checkpoint (stopped, failed) is written: the end its log recorded is
   * pushed now; a stop was pushed when its log recorded the pause.
   */
  private finished(run: LiveEvaluation, outcome: RunOutcome): void {
    if (outcome.kind === 'locked') {
      try {
        this.deps.onLocked?.(run);
      } catch (error) {
        // Only what is kept to list it faster: the record on disk is the evaluation.
        this.deps.log.error('a locked evaluation could not be noted for the lists', {
          id: run.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    this.live.delete(run.id);
    // The runner logs a failure without its reason; the protocol's words for it go out with it.
    run.followed.end(outcome.kind === 'failed' ? outcome.reason : undefined);
  }

  /** Asks a running evaluation to stop after the calls in flight (it logs `paused`, pushed then). */
  cancel(run: LiveEvaluation, reason: StopReason): void {
    if (run.stop) return;
    run.stop = reason;
    run.followed.stopAsked(true);
  }

  /** Asks a running evaluation to lock with the scores as they stand. */
  approve(run: LiveEvaluation): void {
    const phase = run.track.state.phase;
    if (phase !== 'DEBATING' && phase !== 'SYNTHESIZING') {
      throw new UserError(
        `an evaluation can be approved only while the red team debates; this one is ${phase} (wait for the first round)`,
      );
    }
    run.approve = true;
  }

  /**
   * Grants a running evaluation one more round than its limit; fed to it before its next batch of
   * calls, through the runner, so its log records it. Answers the limit it will have.
   */
  addRound(run: LiveEvaluation): number {
    const state = run.track.state;
    const after = { ...state, roundLimit: state.roundLimit + run.addRounds };
    const refusal = addRoundRefusal(after);
    if (refusal !== null) throw new UserError(`cannot add a round to evaluation ${run.id}: ${refusal}`);
    run.addRounds += 1;
    return after.roundLimit + 1;
  }

  /**
   * Stops every running evaluation at its checkpoint and waits (up to `timeoutMs`) for the calls in
   * flight to return; `resume` continues each one later.
   */
  async close(timeoutMs: number): Promise<void> {
    const runs = this.all();
    for (const run of runs) this.cancel(run, 'app closed');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(runs.map((r) => r.done)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  private pushEvent(run: LiveEvaluation, from: number, entries: EvaluationEntry[]): void {
    const s = run.track.state;
    this.deps.emitter.emit('evaluation:event', {
      evaluationId: run.id,
      slug: run.slug,
      from,
      entries,
      phase: s.phase,
      round: s.round,
      costUsd: Math.round(run.costUsd * 1e6) / 1e6,
      budgetUsd: run.budgetUsd,
      progress: { done: run.track.answers, total: Math.max(run.track.answers, run.expected) },
    });
  }
}
