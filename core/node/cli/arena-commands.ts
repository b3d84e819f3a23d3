import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runArenaReplay, ScriptError, SIMILARITY_MEASURES, type SimilarityMeasure } from '../../arena';
import { arenaSetupFor } from '../arena/arena-setup';
import { ratingsReport } from '../arena/ratings-report';
import { RunService } from '../runs/run-service';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { arenaEstimate } from './arena-estimate';
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

/** A live arena through the general run service: `runs resume ID` and `runs show ID` continue and read it. */
async function live(args: ParsedArgs, io: CliIo): Promise<number> {
  const idea = args.options.idea as string | undefined;
  const topic = args.options.topic as string | undefined;
  if (idea === undefined && topic === undefined) throw new UserError('arena: give --idea SLUG or --topic T');
  const agents = list(args.options.agents);
  if (agents.length === 0) throw new UserError('arena: give --agents a,b,c (debater persona ids)');
  const judge = args.options.judge as string | undefined;
  if (!judge) throw new UserError('arena: give --judge ID (a judge persona, such as judge)');
  const provider = providerOf(args);
  // Judged by a model when one is at hand; lexical offline (ARENA-PROTOCOL.md).
  const similarity = ((args.options.similarity as string | undefined) ??
    (provider === 'simulated' ? 'lexical' : 'judged')) as SimilarityMeasure;
  if (!SIMILARITY_MEASURES.includes(similarity))
    throw new UserError(`--similarity must be one of ${SIMILARITY_MEASURES.join(', ')}`);
  if (similarity === 'embedding')
    throw new UserError('--similarity embedding needs an embeddings endpoint, which this version cannot call yet');
  const budget = args.options.budget === undefined ? undefined : Number(args.options.budget);
  if (budget !== undefined && !(budget >= 0))
    throw new UserError(`--budget must be a number of USD, not "${args.options.budget}"`);
  const seed = seedOf(args);
  // The ledger as the app reads it (every debate's cruxes and falsifiers with the researcher's resolutions).
  const ledger = await withApp(args, (app) => call(app, 'ledger:list', {}));
  const ws = openWorkspace(args);
  try {
    const { topic: question, setup } = arenaSetupFor(ws, {
      ...(idea !== undefined ? { ideaSlug: idea } : {}),
      ...(topic !== undefined ? { topic } : {}),
      agents,
      judge,
      trickster: args.options.trickster === true,
      similarity,
      ledger,
    });
    const report = await new RunService(ws).start({
      protocol: 'arena',
      ...(idea !== undefined ? { ideaSlug: idea } : {}),
      topic: question,
      provider,
      ...(seed !== undefined ? { seed } : {}),
      setup,
      ...(budget !== undefined ? { limits: { budgetUsd: budget } } : {}),
    });
    if (args.options.json) io.out(JSON.stringify(report, null, 2));
    else {
      const s = report.summary as { outcome?: string | null; judge?: { ranking: string[] } };
      io.out(
        `arena ${report.id}: ${report.status}${report.reason ? ` (${report.reason})` : ''}${s.outcome ? `, ${s.outcome}` : ''}${s.judge ? `; ranking ${s.judge.ranking.join(' > ')}` : ''}`,
      );
      for (const line of report.transcript) io.out(`  ${line.author}: ${line.text}`);
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
        'arena --workspace DIR (--idea SLUG | --topic T) --agents a,b,c --judge ID [--provider P] [--trickster] [--similarity lexical|judged] [--seed N] [--budget USD] [--estimate] [--json] | arena --replay FILE [--json]',
      positionals: [],
      options: {
        workspace: workspaceOption,
        idea: { type: 'string', value: 'SLUG', description: 'the idea the arena answers for (its log goes beside it)' },
        topic: { type: 'string', value: 'T', description: 'the question (default: the idea title)' },
        agents: { type: 'string', value: 'a,b,c', description: 'the debater personas taking part (2 to 12)' },
        judge: { type: 'string', value: 'ID', description: 'the judge persona (judge)' },
        trickster: { type: 'boolean', description: 'check a consensus for hollowness and challenge it once' },
        similarity: {
          type: 'string',
          value: 'M',
          description: 'how agreement is measured: judged (default with a model) or lexical (default offline)',
        },
        provider: providerOption,
        seed: seedOption,
        budget: {
          type: 'string',
          value: 'USD',
          description: 'stop cleanly before spending more than this (default 2)',
        },
        replay: { type: 'string', value: 'FILE', description: 'replay an arena script (JSONL) and print its result' },
        estimate: { type: 'boolean', description: 'say what the arena would likely cost, and start nothing' },
        json: jsonOption,
      },
    },
    run(args, io) {
      const file = args.options.replay as string | undefined;
      if (file !== undefined) return replay(io, file);
      if (args.options.estimate === true) return arenaEstimate(args, io);
      return live(args, io);
    },
  },
  {
    spec: {
      name: 'ratings',
      summary: 'Persona Elo and vote calibration, folded from the completed arenas in the workspace.',
      usage: 'ratings --workspace DIR [--json]',
      positionals: [],
      options: { workspace: workspaceOption, json: jsonOption },
    },
    run(args, io) {
      const root = workspaceDir(args);
      if (!existsSync(root)) throw new UserError(`no workspace at ${root}`);
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
