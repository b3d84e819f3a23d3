import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tournamentArenaSetup } from '../../core/node/arena/arena-setup';
import { continueTournament, runTournament, type TournamentReport } from '../../core/node/arena/tournament-run';
import { type ProviderFactory, providerFor } from '../../core/node/debates/providers';
import { RunService } from '../../core/node/runs/run-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { LlmError } from '../../core/ports/llm';
import { cli } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// A tournament of ideas: every pair meets once in a head-to-head arena of their champions; the ideas'
// Elo is a fold over the completed tournament arenas in order of completion (the same formula as
// persona Elo, K / (N − 1) = 32 for two agents), the same after the index is deleted, and arenas that
// were cancelled or failed change nothing. Persona ratings are not moved by tournament arenas.

let ws: { root: string; cleanup: () => void };
beforeAll(() => {
  ws = tempWorkspace('crucible-tournament-');
  writeFile(ws.root, 'ideas/solar-coop/README.md', readme('A community solar co-op', {}, 'Panels on the school roof.'));
  writeFile(ws.root, 'ideas/heat-pumps/README.md', readme('Shared heat pumps', {}, 'One pump for a row of houses.'));
  writeFile(ws.root, 'ideas/bike-lanes/README.md', readme('Protected bike lanes', {}, 'Kerbs between cars and bikes.'));
});
afterAll(() => ws.cleanup());

const IDEAS = ['solar-coop', 'heat-pumps', 'bike-lanes'];
const CHAMPIONS = ['investor', 'historian', 'regulator'];
const ledger = { cruxes: [], falsifiers: [] };
const settings = { judge: 'judge', trickster: false, similarity: 'lexical' as const, ledger };

const failing: ProviderFactory = (name, root, seed) => ({
  ...providerFor(name, root, seed),
  llm: { provider: 'down', call: () => Promise.reject(new LlmError('server_error', 'the server is down')) },
});

async function inWorkspace<T>(f: (w: Workspace) => Promise<T>): Promise<T> {
  const w = Workspace.open(ws.root);
  try {
    w.sync();
    return await f(w);
  } finally {
    w.close();
  }
}

/** The design page's Elo, written out again: every pair of an arena's ideas plays one game. */
function foldByHand(games: { scores: Record<string, number> }[]): Record<string, number> {
  const elo: Record<string, number> = {};
  for (const { scores } of games) {
    const ideas = Object.keys(scores);
    const before = Object.fromEntries(ideas.map((i) => [i, elo[i] ?? 1500]));
    for (const i of ideas) {
      let sum = 0;
      for (const j of ideas.filter((x) => x !== i)) {
        const s = (scores[i] as number) > (scores[j] as number) ? 1 : scores[i] === scores[j] ? 0.5 : 0;
        sum += s - 1 / (1 + 10 ** (((before[j] as number) - (before[i] as number)) / 400));
      }
      elo[i] = (before[i] as number) + (32 / (ideas.length - 1)) * sum;
    }
  }
  return Object.fromEntries(Object.entries(elo).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}

const ideaRatings = () => {
  const run = cli(['ratings', '--workspace', ws.root, '--ideas', '--json']);
  if (run.code !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as {
    ratings: { id: string; elo: number; arenas: number; wins: number; draws: number; losses: number }[];
    counted: number;
    tournaments: number;
    leftOut: Record<string, number>;
  };
};

describe('a tournament of ideas', { timeout: 180_000 }, () => {
  it('plays every pair once, and its idea Elo is a fold over the completed arenas only, rebuilt from the logs', async () => {
    const first: TournamentReport = await inWorkspace((w) =>
      runTournament(w, { ideas: IDEAS, champions: CHAMPIONS, provider: 'simulated', seed: 3, ...settings }),
    );
    // A second tournament whose arenas all fail, and a third whose one arena the researcher cancels.
    const failed = await inWorkspace((w) =>
      runTournament(
        w,
        {
          ideas: ['solar-coop', 'bike-lanes'],
          champions: ['investor', 'ethicist'],
          provider: 'simulated',
          ...settings,
        },
        {},
        failing,
      ),
    );
    const cancelled = await inWorkspace(async (w) => {
      const { topic, setup } = tournamentArenaSetup(w, {
        tournament: {
          id: 'cancelled1',
          ideas: [
            { slug: 'heat-pumps', title: 'Shared heat pumps', champion: 'historian' },
            { slug: 'bike-lanes', title: 'Protected bike lanes', champion: 'regulator' },
          ],
        },
        pairing: ['heat-pumps', 'bike-lanes'],
        index: 1,
        of: 1,
        ...settings,
      });
      return new RunService(w).start(
        { protocol: 'arena', topic, provider: 'simulated', setup },
        { onStarted: (_id, runner) => runner.cancel() },
      );
    });
    const table = ideaRatings();
    const personas = cli(['ratings', '--workspace', ws.root, '--json']);
    rmSync(join(ws.root, '.crucible', 'index.db'), { force: true });
    const rebuilt = ideaRatings();

    const played = first.arenas.map((a) => a.scores as Record<string, number>);
    const elo = Object.fromEntries(table.ratings.map((r) => [r.id, r.elo]));
    expect({
      pairings: first.arenas.map((a) => a.pairing),
      statuses: [...first.arenas, ...failed.arenas].map((a) => a.status),
      cancelled: cancelled.status,
      // Every arena's contestants are the two ideas that meet, scored by the judge.
      scored: played.map((s) => Object.keys(s).sort()),
      elo,
      counted: table.counted,
      tournaments: table.tournaments,
      leftOut: table.leftOut,
      arenas: table.ratings.map((r) => [r.id, r.arenas, r.wins + r.draws + r.losses]),
      personaCounted: (JSON.parse(personas.stdout) as { counted: number }).counted,
      rebuilt,
    }).toEqual({
      pairings: [
        ['solar-coop', 'heat-pumps'],
        ['solar-coop', 'bike-lanes'],
        ['heat-pumps', 'bike-lanes'],
      ],
      statuses: ['completed', 'completed', 'completed', 'failed'],
      cancelled: 'cancelled',
      scored: [
        ['heat-pumps', 'solar-coop'],
        ['bike-lanes', 'solar-coop'],
        ['bike-lanes', 'heat-pumps'],
      ],
      elo: foldByHand(played.map((scores) => ({ scores }))),
      counted: 3,
      tournaments: 1,
      leftOut: { failed: 1, cancelled: 1 },
      arenas: expect.arrayContaining([
        ['solar-coop', 2, 2],
        ['heat-pumps', 2, 2],
        ['bike-lanes', 2, 2],
      ]),
      personaCounted: 0,
      rebuilt: table,
    });
  });

  it('continues from its logs: what was played stays, the rest is played', async () => {
    const tournament = {
      id: 'resumed1',
      ideas: IDEAS.map((slug, i) => ({ slug, title: slug, champion: CHAMPIONS[i] as string })),
    };
    const firstArena = await inWorkspace(async (w) => {
      const { topic, setup } = tournamentArenaSetup(w, {
        tournament,
        pairing: ['solar-coop', 'heat-pumps'],
        index: 1,
        of: 3,
        ...settings,
      });
      return new RunService(w).start({ protocol: 'arena', topic, provider: 'simulated', seed: 5, setup });
    });
    const report = await inWorkspace((w) => continueTournament(w, 'resumed1', { ledger }));
    expect({
      ids: report.arenas.map((a) => a.id === firstArena.id),
      statuses: report.arenas.map((a) => a.status),
      pairings: report.arenas.map((a) => a.pairing.join(' vs ')),
    }).toEqual({
      ids: [true, false, false],
      statuses: ['completed', 'completed', 'completed'],
      pairings: ['solar-coop vs heat-pumps', 'solar-coop vs bike-lanes', 'heat-pumps vs bike-lanes'],
    });
  });

  it('picks its champions with --agents auto and prices itself before it runs (--estimate)', () => {
    // No persona has played an arena outside a tournament: all at 1500, no Brier, so the two first
    // by id, then the least-played of the rest (all at 0) by id.
    const run = cli(
      [
        'arena',
        '--workspace',
        ws.root,
        '--ideas',
        IDEAS.join(','),
        '--agents',
        'auto',
        '--judge',
        'judge',
        '--provider',
        'anthropic',
        '--estimate',
        '--json',
      ],
      { env: { ANTHROPIC_API_KEY: '' } },
    );
    const preview = JSON.parse(run.stdout) as {
      ideas: { slug: string; champion: string }[];
      pairings: string[][];
      estimate: { calls: number; usd: number; worstUsd: number; basis: string; cannotRun: string | null };
    };
    expect({
      code: run.code,
      champions: preview.ideas.map((i) => [i.slug, i.champion]),
      arenas: preview.pairings.length,
      basis: preview.estimate.basis,
      priced: preview.estimate.usd > 0 && preview.estimate.worstUsd > preview.estimate.usd,
      // No key in the test's environment: the estimate says so, as the app's does.
      cannotRun: preview.estimate.cannotRun,
    }).toEqual({
      code: 0,
      champions: [
        ['solar-coop', 'end-user-advocate'],
        ['heat-pumps', 'ethicist'],
        ['bike-lanes', 'field-researcher'],
      ],
      arenas: 3,
      basis: expect.stringMatching(
        /^3 head-to-head arenas, every pair of the 3 ideas once; each about \d+ calls for 2 agents: .*each judged for agreement/,
      ),
      priced: true,
      cannotRun: expect.stringMatching(/^the anthropic provider needs an API key/),
    });
  });
});
