import type { SimilarityMeasure } from '../../arena/config';
import { arenaEntry } from '../../arena/live/protocol';
import type { ArenaSetup } from '../../arena/live/setup';
import { type TournamentIdea, tournamentPairings } from '../../arena/tournament';
import type { LedgerCrux, LedgerFalsifier, RunEntry } from '../../contract';
import { ENDED_STATUSES } from '../../engine/protocol';
import type { Log } from '../../ports/log';
import { describeIssues } from '../../text/zod-issues';
import { tournamentArenaSetup } from '../arena/arena-setup';
import type { ProviderName } from '../debates/providers';
import type { RunRequest } from '../runs/run-service';
import { UserError, type Workspace } from '../workspace/workspace';
import { readArena } from './arena-view/arena-log';
import type { LiveRuns } from './live-runs';

type Ledger = { cruxes: LedgerCrux[]; falsifiers: LedgerFalsifier[] };

/** A tournament as the app plays it: its ideas with their champions and the settings of every meeting. */
export interface TournamentPlay {
  id: string;
  ideas: TournamentIdea[];
  judge: string;
  trickster: boolean;
  similarity: SimilarityMeasure;
  provider: ProviderName;
  seed?: number;
  /** USD for all its arenas (each may spend what the ones before it left); undefined: no cap. */
  budgetUsd: number | undefined;
  concurrency: number | undefined;
}

/** The setup of meeting `index` (0-based) of a tournament, checked as the run service will check it. */
export function meetingSetup(ws: Workspace, play: TournamentPlay, index: number, ledger: Ledger) {
  const pairings = tournamentPairings(play.ideas.map((i) => i.slug));
  const pairing = pairings[index];
  if (!pairing) throw new UserError(`tournament ${play.id} has ${pairings.length} meetings, not ${index + 1}`);
  const built = tournamentArenaSetup(ws, {
    tournament: { id: play.id, ideas: play.ideas },
    pairing,
    index: index + 1,
    of: pairings.length,
    judge: play.judge,
    trickster: play.trickster,
    similarity: play.similarity,
    provider: play.provider,
    ledger,
  });
  const checked = arenaEntry.setup.safeParse(built.setup);
  if (!checked.success) throw new UserError(describeIssues('the tournament arena', checked.error).join('; '));
  return { topic: built.topic, setup: checked.data as ArenaSetup };
}

/**
 * Tournaments this app plays (ARENA-PROTOCOL.md, "Ratings"): every pair of ideas meets once, one
 * arena after another, each an ordinary arena run started through the general run start (so it has
 * its own log, `run:status`, and pause, resume and stop through `runs:*`). The CLI's `arena --ideas`
 * plays the same schedule in its own process; here each next meeting starts when the one before it
 * ends, with the ratings and the past meetings the earlier ones left in its brief. Nothing is
 * written beside the arenas' logs: the schedule is read back from them (`arenas:tournament`).
 *
 * A meeting the researcher stopped (cancelled), or one paused when the app closed, stops the
 * tournament there; `arena --tournament ID` continues it. A meeting that failed or stopped partway
 * counts for nothing and the next one starts, as in the CLI.
 */
export class LiveTournaments {
  private readonly playing = new Set<string>();

  constructor(
    private readonly deps: {
      ws: Workspace;
      runs: LiveRuns;
      startRun(request: RunRequest): Promise<RunEntry>;
      ledger(): Ledger | Promise<Ledger>;
      log: Log;
      /** Throws once the app is closing: no meeting starts after that. */
      open(): void;
    },
  ) {}

  /** Whether this app is playing tournament `id` now (a meeting runs, or the next is about to start). */
  isPlaying(id: string): boolean {
    return this.playing.has(id);
  }

  /** Starts the first meeting and answers once its log is begun; the others follow in the background. */
  async start(play: TournamentPlay): Promise<RunEntry> {
    const first = await this.meeting(play, 0, play.budgetUsd);
    this.playing.add(play.id);
    void this.follow(play, first.id)
      .catch((error: unknown) => {
        this.deps.log.warn('a tournament stopped with an error', {
          tournament: play.id,
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => this.playing.delete(play.id));
    return first;
  }

  private async meeting(play: TournamentPlay, index: number, budgetUsd: number | undefined): Promise<RunEntry> {
    const { topic, setup } = meetingSetup(this.deps.ws, play, index, await this.deps.ledger());
    return this.deps.startRun({
      protocol: arenaEntry.name,
      topic,
      provider: play.provider,
      ...(play.seed !== undefined ? { seed: play.seed } : {}),
      setup,
      limits: {
        budgetUsd: budgetUsd === undefined ? null : budgetUsd,
        ...(play.concurrency !== undefined ? { concurrency: play.concurrency } : {}),
      },
    });
  }

  /** Waits for each meeting to end and starts the next, until the schedule is played or it must stop. */
  private async follow(play: TournamentPlay, firstId: string): Promise<void> {
    const meetings = tournamentPairings(play.ideas.map((i) => i.slug)).length;
    let running = firstId;
    let spent = 0;
    for (let next = 1; next < meetings; next++) {
      await this.deps.runs.until(running, (status) => ENDED_STATUSES.has(status));
      const ended = readArena(this.deps.ws, running);
      spent += ended.costUsd;
      // Stopped by the researcher, or paused by the app's closing: the rest waits for them.
      if (ended.status === 'cancelled' || !ENDED_STATUSES.has(ended.status)) return;
      const left = play.budgetUsd === undefined ? undefined : play.budgetUsd - spent;
      if (left !== undefined && left <= 0) return;
      try {
        this.deps.open();
      } catch {
        return;
      }
      running = (await this.meeting(play, next, left)).id;
    }
    await this.deps.runs.until(running, (status) => ENDED_STATUSES.has(status));
  }
}
