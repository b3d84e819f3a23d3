import type { SimilarityMeasure } from '../../arena/config';
import { arenaEntry } from '../../arena/live/protocol';
import type { ArenaSetup } from '../../arena/live/setup';
import type {
  ArenaEstimate,
  ArenaRequest,
  arenasChannels,
  LedgerCrux,
  LedgerFalsifier,
  RunEntry,
} from '../../contract';
import { planTournament } from '../../arena/plan';
import { tournamentPairings } from '../../arena/tournament';
import { describeIssues } from '../../text/zod-issues';
import { arenaEstimate, DEFAULT_ARENA_BUDGET_USD, tournamentEstimate } from '../arena/arena-estimate';
import { arenaSetupFor } from '../arena/arena-setup';
import { tournamentIdeas } from '../arena/tournament-run';
import { ulid } from '../ids';
import type { RunRequest } from '../runs/run-service';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { arenaDetail } from './arena-view/arena-detail';
import { readArena } from './arena-view/arena-log';
import { ratingsWithHistory } from './arena-view/rating-history';
import { TournamentSchedules } from './arena-view/tournament-schedule';
import { LiveTournaments, meetingSetup, type TournamentPlay } from './live-tournaments';
import { debateLimitsFromSettings } from './settings-file';

type Ledger = { cruxes: LedgerCrux[]; falsifiers: LedgerFalsifier[] };

/** What the arena channels borrow from other areas: the general run start, and the ledger for the brief. */
export interface ArenaDeps {
  /** `runs:start`'s way of starting a registered protocol in the background (LiveProtocolRuns). */
  startRun(request: RunRequest): Promise<RunEntry>;
  /** Every crux and falsifier, as `ledger:list` answers: those that mention the idea go into the brief. */
  ledger(): Ledger | Promise<Ledger>;
}

const NO_LEDGER: Ledger = { cruxes: [], falsifiers: [] };
const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * The handlers of the channels in core/contract/arenas-channels.ts. An arena is a registered
 * protocol the general run service runs, so starting one goes through the same background start as
 * `runs:start` (its status is `run:status`, its controls `runs:*`); what the arena view and the
 * ratings tab read is folded from the logs in the folder.
 */
export function arenasHandlers(ctx: AppContext, deps: ArenaDeps): AreaHandlers<keyof typeof arenasChannels> {
  const { ws, open } = ctx;
  const tournaments = new LiveTournaments({
    ws,
    runs: ctx.runs,
    startRun: deps.startRun,
    ledger: deps.ledger,
    log: ctx.log,
    open,
  });
  const schedules = new TournamentSchedules(ws);

  /** The setup a request makes (personas, brief, ratings), checked as the run service will check it. */
  const setupOf = (request: ArenaRequest, ledger: Ledger) => {
    // Judged by a model when one is at hand, lexical offline (ARENA-PROTOCOL.md).
    const similarity: SimilarityMeasure =
      request.similarity ?? (request.provider === 'simulated' ? 'lexical' : 'judged');
    const built = arenaSetupFor(ws, {
      ...(request.ideaSlug !== undefined ? { ideaSlug: request.ideaSlug } : {}),
      ...(request.topic !== undefined ? { topic: request.topic } : {}),
      agents: request.agents,
      judge: request.judge,
      trickster: request.trickster,
      similarity,
      ledger,
    });
    const checked = arenaEntry.setup.safeParse(built.setup);
    if (!checked.success) throw new UserError(describeIssues('the arena', checked.error).join('; '));
    return { topic: built.topic, setup: checked.data as ArenaSetup };
  };

  // Priced as the CLI's `arena --estimate` prices the same setup (core/node/arena/arena-estimate.ts).
  const canRun = (request: ArenaRequest) => () => void ctx.providers(request.provider, ws.root, request.seed ?? 1);
  const estimateOf = (request: ArenaRequest, setup: ArenaSetup, budgetUsd: number | undefined): ArenaEstimate =>
    arenaEstimate(ws.root, setup, request.provider, budgetUsd, canRun(request));

  /** The request's budget, else the settings page's debate budget; 0 is no cap. */
  const budgetOf = (request: ArenaRequest) => request.budgetUsd ?? debateLimitsFromSettings(ws.root).budgetUsd;

  /**
   * A tournament as a request asks for it, each meeting's setup built as it would start now, and
   * what all its arenas would cost: the plan of each meeting, added up. Its budget is for all of
   * them: by default the settings' debate budget (else the run service's 2 USD) for each meeting.
   */
  const tournamentOf = (request: ArenaRequest & { ideas: string[] }) => {
    const similarity: SimilarityMeasure =
      request.similarity ?? (request.provider === 'simulated' ? 'lexical' : 'judged');
    const meetings = (request.ideas.length * (request.ideas.length - 1)) / 2;
    const budgetUsd =
      request.budgetUsd ?? (debateLimitsFromSettings(ws.root).budgetUsd ?? DEFAULT_ARENA_BUDGET_USD) * meetings;
    const play: TournamentPlay = {
      id: ulid().toLowerCase(),
      ideas: tournamentIdeas(ws, request.ideas, request.agents),
      judge: request.judge,
      trickster: request.trickster,
      similarity,
      provider: request.provider,
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      budgetUsd: budgetUsd > 0 ? budgetUsd : undefined,
      concurrency: debateLimitsFromSettings(ws.root).concurrency,
    };
    // Every meeting's plan needs only its two champions' tiers: the setups of a few meetings that
    // between them hold every idea ((a,b), (c,d) …) check every champion, the judge and the trickster
    // as a start would, without building all n(n−1)/2 briefs (28 for 8 ideas took seconds at 2,000 ideas).
    const pairings = tournamentPairings(request.ideas);
    const covering = new Set<number>();
    for (let i = 0; i < request.ideas.length; i += 2) {
      const a = Math.min(i, request.ideas.length - 2);
      covering.add(pairings.findIndex(([x, y]) => x === request.ideas[a] && y === request.ideas[a + 1]));
    }
    const setups = [...covering].map((k) => meetingSetup(ws, play, k, NO_LEDGER).setup);
    const tiers = new Map(setups.flatMap((setup) => setup.agents.map((agent) => [agent.id, agent.tier] as const)));
    const first = setups[0];
    if (!first) throw new UserError('a tournament needs 2 ideas or more');
    const plan = planTournament({
      ideas: play.ideas,
      tierOf: (id) => tiers.get(id) ?? 'standard',
      judge: first.judge.tier,
      trickster: first.config.trickster ? (first.trickster?.tier ?? null) : null,
      config: first.config,
    });
    const estimate = tournamentEstimate(ws.root, plan, meetings, request.provider, budgetUsd, canRun(request));
    return { play, estimate };
  };

  return {
    impl: {
      'arenas:estimate': (request) => {
        open();
        if (request.ideas !== undefined) return tournamentOf({ ...request, ideas: request.ideas }).estimate;
        const { setup } = setupOf(request, NO_LEDGER);
        return estimateOf(request, setup, budgetOf(request));
      },
      'arenas:start': async (request) => {
        open();
        if (request.ideas !== undefined) {
          const { play, estimate } = tournamentOf({ ...request, ideas: request.ideas });
          if (estimate.cannotRun !== null) throw new UserError(estimate.cannotRun);
          const run = await tournaments.start(play);
          return { run, estimate, tournament: play.id };
        }
        const { topic, setup } = setupOf(request, await deps.ledger());
        const budgetUsd = budgetOf(request);
        const estimate = estimateOf(request, setup, budgetUsd);
        if (estimate.cannotRun !== null) throw new UserError(estimate.cannotRun);
        const { concurrency } = debateLimitsFromSettings(ws.root);
        const run = await deps.startRun({
          protocol: arenaEntry.name,
          ...(request.ideaSlug !== undefined ? { ideaSlug: request.ideaSlug } : {}),
          topic,
          provider: request.provider,
          ...(request.seed !== undefined ? { seed: request.seed } : {}),
          setup,
          limits: {
            ...(budgetUsd !== undefined ? { budgetUsd: budgetUsd > 0 ? budgetUsd : null } : {}),
            ...(concurrency !== undefined ? { concurrency } : {}),
          },
        });
        return { run, estimate, tournament: null };
      },
      'arenas:get': ({ id }) => {
        open();
        const read = readArena(ws, id);
        const live = ctx.runs.get(id);
        return arenaDetail(read.state, {
          id: read.header.id,
          ideaSlug: read.header.ideaSlug,
          status: live?.status ?? read.status,
          reason: live?.reason ?? read.reason,
          live: live?.live ?? false,
          provider: read.header.provider,
          costUsd: roundUsd(read.costUsd),
          startedAt: read.header.createdAt,
          records: read.records,
          judge: { id: read.setup.judge.id, name: read.setup.judge.name },
          trickster: read.setup.trickster ? { id: read.setup.trickster.id, name: read.setup.trickster.name } : null,
          tournament: read.setup.tournament && {
            id: read.setup.tournament.id,
            ideas: read.setup.tournament.ideas.map((i) => ({ slug: i.slug, title: i.title, champion: i.champion })),
            pairing: read.setup.tournament.pairing,
            index: read.setup.tournament.index,
            of: read.setup.tournament.of,
          },
        });
      },
      'arenas:tournament': ({ id }) => {
        open();
        return schedules.schedule(id, (run) => ctx.runs.get(run), tournaments.isPlaying(id));
      },
      'arenas:ratings': () => {
        open();
        return ratingsWithHistory(ws.root);
      },
    },
  };
}
