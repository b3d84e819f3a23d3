import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaResult } from '../../core/arena';
import { arenaSetupFor } from '../../core/node/arena/arena-setup';
import { type ProviderFactory, providerFor } from '../../core/node/debates/providers';
import { type RunReport, RunService } from '../../core/node/runs/run-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { LlmError } from '../../core/ports/llm';
import { cli } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Ratings are a fold over the completed arena logs: each completed arena starts from the ratings the
// ones before it left (so its own Elo "after" is what the fold shows next), cancelled, failed and
// partial arenas between them change nothing, and deleting the index changes nothing either.

let ws: { root: string; cleanup: () => void };
beforeAll(() => {
  ws = tempWorkspace('crucible-ratings-');
  writeFile(ws.root, 'ideas/solar-coop/README.md', readme('A community solar co-op'));
});
afterAll(() => ws.cleanup());

const failing: ProviderFactory = (name, root, seed) => ({
  ...providerFor(name, root, seed),
  llm: { provider: 'down', call: () => Promise.reject(new LlmError('server_error', 'the server is down')) },
});

async function arena(
  agents: string[],
  seed: number,
  how: { providers?: ProviderFactory; cancel?: boolean; timeLimitMs?: number } = {},
): Promise<RunReport> {
  const w = Workspace.open(ws.root);
  try {
    w.sync();
    const { topic, setup } = arenaSetupFor(w, {
      ideaSlug: 'solar-coop',
      agents,
      judge: 'judge',
      trickster: true,
      similarity: 'lexical',
      ledger: { cruxes: [], falsifiers: [] },
    });
    const service = new RunService(w, undefined, how.providers);
    return await service.start(
      {
        protocol: 'arena',
        ideaSlug: 'solar-coop',
        topic,
        provider: 'simulated',
        seed,
        setup,
        ...(how.timeLimitMs ? { limits: { timeLimitMs: how.timeLimitMs } } : {}),
      },
      how.cancel ? { onStarted: (_id, runner) => runner.cancel() } : {},
    );
  } finally {
    w.close();
  }
}

const ratings = () => {
  const run = cli(['ratings', '--workspace', ws.root, '--json']);
  if (run.code !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as {
    ratings: { id: string; elo: number; arenas: number; wins: number; votes: number; voteBrier: number | null }[];
    counted: number;
    leftOut: Record<string, number>;
  };
};

describe('ratings', { timeout: 120_000 }, () => {
  it('fold the completed arenas only, in order, and come out the same from the logs after the index is deleted', async () => {
    const first = await arena(['investor', 'regulator', 'historian'], 1);
    const cancelled = await arena(['investor', 'regulator', 'ethicist'], 2, { cancel: true });
    const failed = await arena(['investor', 'ethicist'], 3, { providers: failing });
    const partial = await arena(['regulator', 'historian'], 4, { timeLimitMs: 1 });
    const second = await arena(['investor', 'ethicist', 'historian'], 5);
    const a = first.summary as unknown as ArenaResult;
    const b = second.summary as unknown as ArenaResult;
    const table = ratings();
    rmSync(join(ws.root, '.crucible', 'index.db'), { force: true });
    const rebuilt = ratings();
    const elo = (t: typeof table) => Object.fromEntries(t.ratings.map((r) => [r.id, [r.elo, r.arenas]]));

    expect({
      statuses: [first.status, cancelled.status, failed.status, partial.status, second.status],
      // The second arena started from the first's ratings: nothing in between moved them.
      secondBefore: b.elo.before,
      elo: elo(table),
      counted: table.counted,
      leftOut: table.leftOut,
      rebuilt,
    }).toEqual({
      statuses: ['completed', 'cancelled', 'failed', 'partial', 'completed'],
      secondBefore: { investor: a.elo.after.investor, ethicist: 1500, historian: a.elo.after.historian },
      elo: {
        investor: [b.elo.after.investor, 2],
        historian: [b.elo.after.historian, 2],
        ethicist: [b.elo.after.ethicist, 1],
        regulator: [a.elo.after.regulator, 1],
      },
      counted: 2,
      leftOut: { cancelled: 1, failed: 1, partial: 1 },
      rebuilt: table,
    });
    // Wins and vote calibration, from the two arenas' own results: a win is a first place in the
    // judge's ranking, a persona's vote Brier the mean of its arenas' (each vote against the ranking).
    const results = [a, b];
    const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
    const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
    expect(Object.fromEntries(table.ratings.map((r) => [r.id, [r.wins, r.votes, round3(r.voteBrier)]]))).toEqual(
      Object.fromEntries(
        table.ratings.map((r) => {
          const briers = results.flatMap((x) => (r.id in x.voteBrier ? [x.voteBrier[r.id] as number] : []));
          return [
            r.id,
            [results.filter((x) => x.judge.ranking[0] === r.id).length, briers.length, round3(mean(briers))],
          ];
        }),
      ),
    );
    expect(table.ratings.map((r) => r.wins).reduce((s, w) => s + w, 0)).toBe(2);
  });

  it('pick a team with --agents auto --size N: the N − 1 best by Elo (then Brier, then id) and the least-played', () => {
    // After the arenas above: the table as `ratings` has it, every built-in debater not in it at 1500
    // with no arena and no Brier (an unknown Brier ranks after any known one).
    const table = ratings();
    const debaters = [
      'end-user-advocate',
      'ethicist',
      'field-researcher',
      'historian',
      'investor',
      'optimist-engineer',
      'regulator',
      'skeptical-economist',
      'systems-thinker',
    ];
    const standing = (id: string) => {
      const r = table.ratings.find((x) => x.id === id);
      return { id, elo: r?.elo ?? 1500, arenas: r?.arenas ?? 0, brier: r?.voteBrier ?? Number.POSITIVE_INFINITY };
    };
    const best = debaters
      .map(standing)
      .sort((a, b) => b.elo - a.elo || a.brier - b.brier || a.id.localeCompare(b.id))
      .slice(0, 3);
    const newcomer = debaters
      .map(standing)
      .filter((s) => !best.some((b) => b.id === s.id))
      .sort((a, b) => a.arenas - b.arenas || a.id.localeCompare(b.id))[0];
    const run = cli([
      'arena',
      '--workspace',
      ws.root,
      '--topic',
      'Share the roof with the school?',
      '--agents',
      'auto',
      '--size',
      '4',
      '--judge',
      'judge',
      '--provider',
      'simulated',
      '--json',
    ]);
    const report = JSON.parse(run.stdout) as { status: string; summary: ArenaResult };
    const refused = (args: string[]) =>
      cli(['arena', '--workspace', ws.root, '--topic', 'x', '--judge', 'judge', ...args]).stderr.trim();
    expect({
      code: run.code,
      team: Object.keys(report.summary.elo.before),
      refused: [refused(['--agents', 'auto']), refused(['--agents', 'investor,historian', '--size', '2'])],
    }).toEqual({
      code: 0,
      team: [...best.map((b) => b.id), newcomer?.id],
      refused: [
        expect.stringContaining('--agents auto needs --size N'),
        expect.stringContaining('--size goes with --agents auto'),
      ],
    });
    // Who was picked is not what plain id order would give: the ratings decide it.
    expect(Object.keys(report.summary.elo.before)).not.toEqual(debaters.slice(0, 4));
  });
});
