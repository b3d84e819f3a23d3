import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runArenaReplay, ScriptError, SIMILARITY_MEASURES, type SimilarityMeasure } from '../../arena';
import { arenaEstimate } from '../arena/arena-estimate';
import { arenaSetupFor, autoTeam } from '../arena/arena-setup';
import { ideaRatingsReport, ratingsReport } from '../arena/ratings-report';
import { continueTournament, previewTournament, runTournament, type TournamentReport } from '../arena/tournament-run';
import { providerFor } from '../debates/providers';
import { RunService } from '../runs/run-service';
import { UserError, type Workspace } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import {
  jsonOption,
  openWorkspace,
  providerOf,
  providerOption,
  seedOf,
  seedOption,
  workspaceDir,
  workspaceOption,
} from './common';
import { costLine } from './cost-line';
import { ScriptFileError } from './crux-commands';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

/** `arena --replay FILE`: a script's result, or exit 2 with `line N: reason`. */
function replay(io: CliIo, file: string): number {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`cannot read ${path}`);
  }
  try {
    io.out(JSON.stringify(runArenaReplay(text), null, 2));
  } catch (error) {
    if (error instanceof ScriptError) throw new ScriptFileError(`${path}: ${error.message}`);
    throw error;
  }
  return 0;
}

const list = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The embedding model asked for when none is named (OpenAI's small one; a local server names its own). */
const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';

/** The settings every arena of a command shares, from its options. */
function arenaSettings(args: ParsedArgs) {
  const judge = args.options.judge as string | undefined;
  if (!judge) throw new UserError('arena: give --judge ID (a judge persona, such as judge)');
  const provider = providerOf(args);
  // Judged by a model when one is at hand; lexical offline (ARENA-PROTOCOL.md).
  const similarity = ((args.options.similarity as string | undefined) ??
    (provider === 'simulated' ? 'lexical' : 'judged')) as SimilarityMeasure;
  if (!SIMILARITY_MEASURES.includes(similarity))
    throw new UserError(`--similarity must be one of ${SIMILARITY_MEASURES.join(', ')}`);
  // The embedding measure's endpoint: the options, else the environment; kept in the arena's setup.
  const url = (args.options['embeddings-url'] as string | undefined) ?? process.env.CRUCIBLE_EMBEDDINGS_URL;
  const model =
    (args.options['embeddings-model'] as string | undefined) ??
    process.env.CRUCIBLE_EMBEDDINGS_MODEL ??
    DEFAULT_EMBEDDINGS_MODEL;
  if (similarity === 'embedding' && !url)
    throw new UserError(
      '--similarity embedding needs an OpenAI-compatible embeddings endpoint: --embeddings-url URL (or CRUCIBLE_EMBEDDINGS_URL)',
    );
  if (url !== undefined && !URL.canParse(url))
    throw new UserError(`--embeddings-url must be an address such as http://127.0.0.1:11434/v1, not "${url}"`);
  const embedding = similarity === 'embedding' && url ? { url, model } : null;
  const budget = args.options.budget === undefined ? undefined : Number(args.options.budget);
  if (budget !== undefined && !(budget >= 0))
    throw new UserError(`--budget must be a number of USD, not "${args.options.budget}"`);
  const seed = seedOf(args);
  return { judge, provider, similarity, embedding, budget, seed, trickster: args.options.trickster === true };
}

/** `--size N` as a whole number, or undefined. */
function sizeOf(args: ParsedArgs): number | undefined {
  if (args.options.size === undefined) return undefined;
  const n = Number(args.options.size);
  if (!Number.isInteger(n)) throw new UserError(`--size must be a whole number, not "${String(args.options.size)}"`);
  return n;
}

/**
 * The agents: the ids given, or with `auto` the team the ratings pick (`--size N`, or `fixed` when the
 * command already says how many, as a tournament does: one per idea).
 */
function agentsOf(args: ParsedArgs, ws: Workspace, io: CliIo, fixed?: number): string[] {
  const given = list(args.options.agents);
  const size = sizeOf(args);
  if (given.length === 1 && given[0] === 'auto') {
    if (fixed !== undefined && size !== undefined && size !== fixed)
      throw new UserError(`--size ${size}: a tournament of ${fixed} ideas has ${fixed} champions`);
    const n = size ?? fixed;
    if (n === undefined) throw new UserError('--agents auto needs --size N (how many agents)');
    const team = autoTeam(ws, n);
    if (!args.options.json) io.err(`Team: ${team.agents.map((a) => `${a} (${team.reasons[a]})`).join('; ')}`);
    return team.agents;
  }
  if (size !== undefined) throw new UserError('--size goes with --agents auto');
  if (given.length === 0)
    throw new UserError('arena: give --agents a,b,c (debater persona ids) or --agents auto --size N');
  return given;
}

/** The ledger as the app reads it (every debate's cruxes and falsifiers with the researcher's resolutions). */
const ledgerOf = (args: ParsedArgs) => withApp(args, (app) => call(app, 'ledger:list', {}));

/** Whether the provider could run now: its error, as the app's estimate reports it. */
const canRun = (ws: Workspace, settings: ReturnType<typeof arenaSettings>) => () =>
  void providerFor(settings.provider, ws.root, settings.seed ?? 1);

function tournamentOut(io: CliIo, report: TournamentReport): void {
  io.out(`tournament ${report.id}: ${report.ideas.map((i) => `${i.slug} (${i.champion})`).join(', ')}`);
  for (const a of report.arenas)
    io.out(
      `  ${a.pairing.join(' vs ')}: ${a.status}${a.reason ? ` (${a.reason})` : ''}${a.outcome ? `, ${a.outcome}` : ''}${a.winner ? `, ${a.winner} first` : ''}${a.id ? ` [${a.id}]` : ''}`,
    );
  io.out('idea Elo:');
  for (const r of report.ratings)
    io.out(`  ${r.id.padEnd(28)} ${r.elo.toFixed(1).padStart(7)}  ${r.wins}-${r.draws}-${r.losses} in ${r.arenas}`);
  io.out(`$${report.costUsd.toFixed(4)}`);
}

/** `arena --ideas a,b,c`: a tournament of ideas, priced first (`--estimate` stops there); or `--tournament ID` continues one. */
async function tournament(args: ParsedArgs, io: CliIo): Promise<number> {
  const continuing = args.options.tournament as string | undefined;
  const ledger = await ledgerOf(args);
  const ws = openWorkspace(args);
  try {
    let report: TournamentReport;
    const onArena = (i: number, of: number, pairing: [string, string]) => {
      if (!args.options.json) io.err(`Arena ${i} of ${of}: ${pairing.join(' vs ')}…`);
    };
    if (continuing !== undefined) {
      const budget = args.options.budget === undefined ? undefined : Number(args.options.budget);
      report = await continueTournament(
        ws,
        continuing,
        { ledger, ...(budget !== undefined ? { budgetUsd: budget } : {}) },
        { onArena },
      );
      if (args.options.json) io.out(JSON.stringify(report, null, 2));
      else tournamentOut(io, report);
    } else {
      const ideas = list(args.options.ideas);
      const settings = arenaSettings(args);
      const champions = agentsOf(args, ws, io, ideas.length);
      const options = {
        ideas,
        champions,
        judge: settings.judge,
        trickster: settings.trickster,
        similarity: settings.similarity,
        embedding: settings.embedding,
        provider: settings.provider,
        ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
        ...(settings.budget !== undefined ? { budgetUsd: settings.budget } : {}),
        ledger,
      };
      // Priced as `arenas:estimate` prices the same tournament (core/node/arena/arena-estimate.ts).
      const preview = previewTournament(ws, options, canRun(ws, settings));
      if (args.options.estimate) {
        io.out(args.options.json ? JSON.stringify(preview, null, 2) : costLine(preview.estimate));
        return 0;
      }
      if (preview.estimate.cannotRun !== null) throw new UserError(preview.estimate.cannotRun);
      if (!args.options.json) io.err(`${costLine(preview.estimate)}\nRunning…`);
      report = await runTournament(ws, options, { onArena });
      if (args.options.json) io.out(JSON.stringify({ ...report, estimate: preview.estimate }, null, 2));
      else tournamentOut(io, report);
    }
    return report.arenas.every((a) => a.status === 'completed') ? 0 : 1;
  } finally {
    ws.close();
  }
}

/** A live arena through the general run service: `runs resume ID` and `runs show ID` continue and read it. */
async function live(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.options.ideas !== undefined || args.options.tournament !== undefined) {
    if (args.options.idea !== undefined || args.options.topic !== undefined)
      throw new UserError('arena: --ideas (a tournament) goes without --idea and --topic');
    return tournament(args, io);
  }
  const idea = args.options.idea as string | undefined;
  const topic = args.options.topic as string | undefined;
  if (idea === undefined && topic === undefined)
    throw new UserError('arena: give --idea SLUG, --topic T or --ideas a,b,c (a tournament)');
  const settings = arenaSettings(args);
  const ledger = await ledgerOf(args);
  const ws = openWorkspace(args);
  try {
    const agents = agentsOf(args, ws, io);
    const { topic: question, setup } = arenaSetupFor(ws, {
      ...(idea !== undefined ? { ideaSlug: idea } : {}),
      ...(topic !== undefined ? { topic } : {}),
      agents,
      judge: settings.judge,
      trickster: settings.trickster,
      similarity: settings.similarity,
      embedding: settings.embedding,
      provider: settings.provider,
      ledger,
    });
    // Priced as `arenas:estimate` prices the same arena (core/node/arena/arena-estimate.ts).
    const estimate = arenaEstimate(ws.root, setup, settings.provider, settings.budget, canRun(ws, settings));
    if (args.options.estimate) {
      io.out(args.options.json ? JSON.stringify(estimate, null, 2) : costLine(estimate));
      return 0;
    }
    if (estimate.cannotRun !== null) throw new UserError(estimate.cannotRun);
    const report = await new RunService(ws).start({
      protocol: 'arena',
      ...(idea !== undefined ? { ideaSlug: idea } : {}),
      topic: question,
      provider: settings.provider,
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
      setup,
      // A round asks every agent at once: the pool holds them all.
      limits: {
        concurrency: Math.max(4, setup.agents.length),
        ...(settings.budget !== undefined ? { budgetUsd: settings.budget } : {}),
      },
    });
    if (args.options.json) io.out(JSON.stringify(report, null, 2));
    else {
      const s = report.summary as { outcome?: string | null; judge?: { ranking: string[] } };
      io.out(
        `arena ${report.id}: ${report.status}${report.reason ? ` (${report.reason})` : ''}${s.outcome ? `, ${s.outcome}` : ''}${s.judge ? `; ranking ${s.judge.ranking.join(' > ')}` : ''}`,
      );
      // One line per message here; `runs show ID` and `export --arena ID` give them whole.
      for (const line of report.transcript) io.out(`  ${line.author}: ${line.text.split('\n')[0]}`);
      io.out(`log: ${report.log} · $${report.costUsd.toFixed(4)}`);
    }
    return report.status === 'completed' ? 0 : 1;
  } finally {
    ws.close();
  }
}

export const arenaCommands: Command[] = [
  {
    spec: {
      name: 'arena',
      summary: 'Run an arena (proposals, critique, revision, vote, judge, Elo) or replay an arena script.',
      usage:
        'arena --workspace DIR (--idea SLUG | --topic T | --ideas a,b,c) --agents a,b,c|auto [--size N] --judge ID [--provider P] [--trickster] [--similarity lexical|judged|embedding [--embeddings-url URL] [--embeddings-model M]] [--seed N] [--budget USD] [--estimate] [--json] | arena --workspace DIR --tournament ID [--budget USD] [--json] | arena --replay FILE [--json]',
      positionals: [],
      options: {
        workspace: workspaceOption,
        idea: { type: 'string', value: 'SLUG', description: 'the idea the arena answers for (its log goes beside it)' },
        topic: { type: 'string', value: 'T', description: 'the question (default: the idea title)' },
        agents: {
          type: 'string',
          value: 'a,b,c',
          description:
            'the debater personas taking part (2 to 12; in a tournament, one champion per idea, in order), or auto: picked by the ratings',
        },
        size: {
          type: 'string',
          value: 'N',
          description: 'with --agents auto: how many (the N − 1 best-rated debaters and the least-played one)',
        },
        ideas: {
          type: 'string',
          value: 'a,b,c',
          description: 'a tournament: these ideas (2 to 8) meet pairwise in head-to-head arenas of their champions',
        },
        tournament: {
          type: 'string',
          value: 'ID',
          description: 'continue this tournament: resume an interrupted arena, play the meetings not played yet',
        },
        estimate: { type: 'boolean', description: 'only say what it would likely cost, and at worst; start nothing' },
        judge: { type: 'string', value: 'ID', description: 'the judge persona (judge)' },
        trickster: { type: 'boolean', description: 'check a consensus for hollowness and challenge it once' },
        similarity: {
          type: 'string',
          value: 'M',
          description:
            'how agreement is measured: judged (default with a model), lexical (default offline) or embedding (cosine, from --embeddings-url)',
        },
        'embeddings-url': {
          type: 'string',
          value: 'URL',
          description:
            'an OpenAI-compatible embeddings endpoint for --similarity embedding: its API root (http://127.0.0.1:11434/v1) or …/embeddings address (default $CRUCIBLE_EMBEDDINGS_URL; a key from $CRUCIBLE_EMBEDDINGS_API_KEY)',
        },
        'embeddings-model': {
          type: 'string',
          value: 'M',
          description: `the embedding model (default $CRUCIBLE_EMBEDDINGS_MODEL, else ${DEFAULT_EMBEDDINGS_MODEL})`,
        },
        provider: providerOption,
        seed: seedOption,
        budget: {
          type: 'string',
          value: 'USD',
          description: 'stop cleanly before spending more than this (default 2 per arena; for a tournament, all of it)',
        },
        replay: { type: 'string', value: 'FILE', description: 'replay an arena script (JSONL) and print its result' },
        json: jsonOption,
      },
    },
    run(args, io) {
      const file = args.options.replay as string | undefined;
      if (file !== undefined) return replay(io, file);
      return live(args, io);
    },
  },
  {
    spec: {
      name: 'ratings',
      summary:
        'Persona Elo and vote calibration, folded from the completed arenas in the workspace; with --ideas, the idea Elo of tournaments.',
      usage: 'ratings --workspace DIR [--ideas] [--json]',
      positionals: [],
      options: {
        workspace: workspaceOption,
        ideas: { type: 'boolean', description: "the ideas' Elo, folded from the completed arenas of tournaments" },
        json: jsonOption,
      },
    },
    run(args, io) {
      const root = workspaceDir(args);
      if (!existsSync(root)) throw new UserError(`no workspace at ${root}`);
      if (args.options.ideas) {
        const ideas = ideaRatingsReport(root);
        if (args.options.json) io.out(JSON.stringify(ideas, null, 2));
        else {
          const left = Object.entries(ideas.leftOut).map(([status, n]) => `${n} ${status}`);
          io.out(
            `${ideas.counted} completed tournament arena(s) of ${ideas.tournaments} tournament(s)${left.length ? `; left out: ${left.join(', ')}` : ''}`,
          );
          for (const r of ideas.ratings)
            io.out(
              `${r.id.padEnd(28)} ${r.elo.toFixed(1).padStart(7)}  won ${r.wins}, drew ${r.draws}, lost ${r.losses}; championed by ${r.champions.join(', ')}`,
            );
          for (const e of ideas.errors) io.err(`${e.file}: ${e.reason}`);
        }
        return 0;
      }
      const report = ratingsReport(root);
      if (args.options.json) io.out(JSON.stringify(report, null, 2));
      else {
        const left = Object.entries(report.leftOut).map(([status, n]) => `${n} ${status}`);
        io.out(`${report.counted} completed arena(s)${left.length ? `; left out: ${left.join(', ')}` : ''}`);
        for (const r of report.ratings)
          io.out(
            `${r.id.padEnd(22)} ${r.elo.toFixed(1).padStart(7)}  ${r.arenas} arena(s), ${r.wins} first; vote Brier ${r.voteBrier === null ? '—' : r.voteBrier.toFixed(3)}`,
          );
        for (const e of report.errors) io.err(`${e.file}: ${e.reason}`);
      }
      return 0;
    },
  },
];
