import { resolveArenaConfig, type SimilarityMeasure } from '../../arena/config';
import { planTournament } from '../../arena/plan';
import { foldIdeaRatings, type IdeaRating } from '../../arena/ratings';
import type { ArenaState } from '../../arena/state';
import { MAX_TOURNAMENT_IDEAS, type TournamentIdea, tournamentPairings } from '../../arena/tournament';
import type { RunStatus } from '../../engine/protocol';
import type { EmbeddingEndpoint } from '../../ports/embeddings';
import type { ProviderFactory, ProviderName } from '../debates/providers';
import { ulid } from '../ids';
import type { RunEstimate } from '../llm/cost-preview';
import { findPersonas, loadPersonas } from '../personas/load-personas';
import { type RunReport, RunService } from '../runs/run-service';
import { UserError, type Workspace } from '../workspace/workspace';
import { tournamentEstimate } from './arena-estimate';
import { readArenaLogs } from './arena-logs';
import { type ArenaStartOptions, completedArenas, tournamentArenaSetup, tournamentArenas } from './arena-setup';

/**
 * A tournament of ideas: every pair of ideas meets once in a head-to-head arena of their champions,
 * one arena after another, each an ordinary arena run (its own log, resumable with `runs resume`)
 * whose setup names the tournament. Nothing else is written: the tournament is the set of its arenas'
 * logs, and the ideas' Elo is folded from them.
 */

export interface TournamentOptions {
  ideas: string[];
  /** The champions, one debater persona per idea, in the ideas' order. */
  champions: string[];
  judge: string;
  trickster: boolean;
  similarity: SimilarityMeasure;
  /** The endpoint of the `embedding` measure. */
  embedding?: EmbeddingEndpoint | null;
  provider: ProviderName;
  seed?: number;
  /** USD for the whole tournament: each arena may spend what the ones before it left. */
  budgetUsd?: number;
  ledger: ArenaStartOptions['ledger'];
}

export interface TournamentPreview {
  ideas: TournamentIdea[];
  pairings: [string, string][];
  /** Likely and worst calls and cost of all its arenas, priced for the provider, and why. */
  estimate: RunEstimate;
}

export interface TournamentArenaReport {
  /** The arena run's id (null for a meeting not played). */
  id: string | null;
  pairing: [string, string];
  status: RunStatus | 'not played';
  reason: string | null;
  outcome: string | null;
  /** The idea the judge ranked first. */
  winner: string | null;
  /** The judge's final scores by idea. */
  scores: Record<string, number> | null;
  costUsd: number;
}

export interface TournamentReport {
  id: string;
  ideas: TournamentIdea[];
  arenas: TournamentArenaReport[];
  /** The ideas' Elo table after it (every tournament's completed arenas folded). */
  ratings: IdeaRating[];
  costUsd: number;
}

/** The ideas with their titles and champions, checked: existing ideas, distinct, as many debaters as ideas. */
export function tournamentIdeas(ws: Workspace, slugs: string[], champions: string[]): TournamentIdea[] {
  if (slugs.length < 2 || slugs.length > MAX_TOURNAMENT_IDEAS)
    throw new UserError(`a tournament needs 2 to ${MAX_TOURNAMENT_IDEAS} ideas (got ${slugs.length})`);
  const twice = slugs.find((s, i) => slugs.indexOf(s) < i);
  if (twice) throw new UserError(`--ideas: "${twice}" is listed twice`);
  if (champions.length !== slugs.length)
    throw new UserError(
      `--agents: a tournament has one champion per idea, ${slugs.length} in all (got ${champions.length})`,
    );
  const again = champions.find((c, i) => champions.indexOf(c) < i);
  if (again) throw new UserError(`--agents: "${again}" would champion two ideas`);
  return slugs.map((slug, i) => ({ slug, title: ws.show(slug).title, champion: champions[i] as string }));
}

/**
 * What a tournament would cost before anything runs (no key needed; the simulator costs nothing), as
 * the app's `arenas:estimate` says it for the same tournament; with `canRun`, why the provider
 * cannot run it now.
 */
export function previewTournament(ws: Workspace, options: TournamentOptions, canRun?: () => void): TournamentPreview {
  const ideas = tournamentIdeas(ws, options.ideas, options.champions);
  const pairings = tournamentPairings(ideas.map((i) => i.slug));
  const loaded = loadPersonas(ws.root);
  const tier = (id: string) => findPersonas([id], loaded)[0]?.tier ?? 'standard';
  const plan = planTournament({
    ideas,
    tierOf: tier,
    judge: tier(options.judge),
    trickster: options.trickster ? tier('trickster') : null,
    config: resolveArenaConfig({ similarity: options.similarity, trickster: options.trickster }),
  });
  const estimate = tournamentEstimate(ws.root, plan, pairings.length, options.provider, options.budgetUsd, canRun);
  return { ideas, pairings, estimate };
}

function arenaReport(run: RunReport, pairing: [string, string], champions: Record<string, string>) {
  const summary = run.summary as {
    outcome?: string | null;
    judge?: { scores: Record<string, number>; ranking: string[] };
  };
  const first = summary.judge?.ranking[0];
  return {
    id: run.id,
    pairing,
    status: run.status,
    reason: run.reason,
    outcome: summary.outcome ?? null,
    winner: first === undefined ? null : (champions[first] ?? null),
    scores: summary.judge
      ? Object.fromEntries(Object.entries(summary.judge.scores).map(([a, s]) => [champions[a] ?? a, s]))
      : null,
    costUsd: run.costUsd,
  } satisfies TournamentArenaReport;
}

/** The ideas' Elo table as the logs have it now. */
export function ideaRatingsTable(root: string): IdeaRating[] {
  return foldIdeaRatings(tournamentArenas(completedArenas(readArenaLogs(root).arenas)));
}

/** Hooks a caller follows a tournament by. */
export interface TournamentHooks {
  /** Before each arena starts (or resumes). */
  onArena?: (index: number, of: number, pairing: [string, string]) => void;
}

/**
 * Plays the meetings of a tournament not played yet, in schedule order: an arena a kill interrupted
 * is resumed, a meeting with no arena is started; one that failed, stopped partway or was cancelled
 * stays as it ended (it counts for nothing). A budget for the tournament stops it before an arena
 * would have nothing left to spend; the meetings not reached are reported as not played.
 */
async function play(
  ws: Workspace,
  tournament: { id: string; ideas: TournamentIdea[] },
  settings: Omit<TournamentOptions, 'ideas' | 'champions'>,
  hooks: TournamentHooks,
  providers?: ProviderFactory,
): Promise<TournamentReport> {
  const service = new RunService(ws, undefined, providers);
  const pairings = tournamentPairings(tournament.ideas.map((i) => i.slug));
  const existing = readArenaLogs(ws.root).arenas.filter((a) => a.tournament?.id === tournament.id);
  const reports: TournamentArenaReport[] = [];
  const champions = Object.fromEntries(tournament.ideas.map((x) => [x.champion, x.slug]));
  // What its arenas spent so far, earlier runs of this tournament included: a budget is for all of it.
  let spent = 0;
  for (const [i, pairing] of pairings.entries()) {
    const had = existing.find((a) => a.tournament?.pairing.join() === pairing.join());
    if (had && had.status !== 'running' && had.status !== 'paused') {
      const shown = service.show(had.id);
      spent += shown.costUsd;
      reports.push(arenaReport(shown, pairing, champions));
      continue;
    }
    const left = settings.budgetUsd === undefined ? undefined : settings.budgetUsd - spent;
    if (left !== undefined && left <= 0) {
      reports.push({
        id: had?.id ?? null,
        pairing,
        status: 'not played',
        reason: `the tournament's budget of $${settings.budgetUsd?.toFixed(2)} is spent`,
        outcome: null,
        winner: null,
        scores: null,
        costUsd: 0,
      });
      continue;
    }
    hooks.onArena?.(i + 1, pairings.length, pairing);
    let run: RunReport;
    if (had) run = await service.resume(had.id);
    else {
      const { topic, setup } = tournamentArenaSetup(ws, {
        tournament,
        pairing,
        index: i + 1,
        of: pairings.length,
        judge: settings.judge,
        trickster: settings.trickster,
        similarity: settings.similarity,
        embedding: settings.embedding ?? null,
        provider: settings.provider,
        ledger: settings.ledger,
      });
      run = await service.start({
        protocol: 'arena',
        topic,
        provider: settings.provider,
        ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
        setup,
        ...(left !== undefined ? { limits: { budgetUsd: left } } : {}),
      });
    }
    spent += run.costUsd;
    reports.push(arenaReport(run, pairing, champions));
  }
  return {
    id: tournament.id,
    ideas: tournament.ideas,
    arenas: reports,
    ratings: ideaRatingsTable(ws.root),
    costUsd: reports.reduce((s, r) => s + r.costUsd, 0),
  };
}

/** Starts a tournament of `options.ideas` and plays it to its end. */
export function runTournament(
  ws: Workspace,
  options: TournamentOptions,
  hooks: TournamentHooks = {},
  providers?: ProviderFactory,
): Promise<TournamentReport> {
  const ideas = tournamentIdeas(ws, options.ideas, options.champions);
  const { ideas: _i, champions: _c, ...settings } = options;
  return play(ws, { id: ulid().toLowerCase(), ideas }, settings, hooks, providers);
}

/**
 * Continues tournament `id` from its arenas' logs (after a kill, or a budget that ran out): its ideas,
 * champions, judge, trickster, measure, provider and seed are those its first arena was started with.
 */
export function continueTournament(
  ws: Workspace,
  id: string,
  options: { ledger: ArenaStartOptions['ledger']; budgetUsd?: number },
  hooks: TournamentHooks = {},
  providers?: ProviderFactory,
): Promise<TournamentReport> {
  const arenas = readArenaLogs(ws.root).arenas.filter((a) => a.tournament?.id === id);
  const first = arenas.sort((a, b) => (a.tournament?.index ?? 0) - (b.tournament?.index ?? 0))[0];
  if (!first?.tournament) throw new UserError(`no arena of a tournament "${id}" in this workspace`);
  const header = new RunService(ws).header(first.id);
  const setup = header.setup as {
    judge: { id: string };
    embedding?: EmbeddingEndpoint | null;
    config: { similarity: SimilarityMeasure };
  };
  const state: ArenaState = first.state;
  return play(
    ws,
    { id, ideas: first.tournament.ideas },
    {
      judge: setup.judge.id,
      trickster: state.config.trickster,
      similarity: setup.config.similarity,
      embedding: setup.embedding ?? null,
      provider: header.provider as ProviderName,
      ...(header.seed !== undefined ? { seed: header.seed } : {}),
      ...(options.budgetUsd !== undefined ? { budgetUsd: options.budgetUsd } : {}),
      ledger: options.ledger,
    },
    hooks,
    providers,
  );
}
