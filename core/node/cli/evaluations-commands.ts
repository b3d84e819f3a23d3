import { basename } from 'node:path';
import {
  type EvaluationDetail,
  evaluationStartSchema,
  type EvaluationSummary,
  evaluationStatusOf,
} from '../../contract';
import { RUN_STATUSES } from '../../engine/protocol';
import { OPTION_NAMES, optionsFromPairs } from '../../evaluation/options';
import type { App } from '../app/create-app';
import { findUnfinished, readEvaluationLog } from '../evaluations/evaluation-log';
import { requestRun, runOwner } from '../runs/run-control';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import type { ParsedArgs } from './args';
import {
  jsonOption,
  providerOf,
  providerOption,
  runStatusOption,
  seedOf,
  workspaceDir,
  workspaceOption,
} from './common';
import { readConfigFile, validated } from './config-file';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

const ACTIONS = ['list', 'show', 'estimate', 'stop', 'resume', 'approve', 'add-round', 'matrix'] as const;
type Action = (typeof ACTIONS)[number];
const WAIT_MS = 120_000;

export const configOption = {
  type: 'string' as const,
  value: 'FILE',
  description:
    'evaluation config, JSON or YAML: mode, budgetUsd, timeLimitMinutes, seed, provider, options (flags win)',
};

export const optionOption = {
  type: 'string' as const,
  value: 'NAME=VALUE',
  repeatable: true,
  description: `a debate option, repeatable: ${OPTION_NAMES.join(', ')} (see docs/evaluation-protocol.md)`,
};

/** `--option NAME=VALUE` pairs over the config file's `options` (a flag wins, option by option). */
function optionsOf(args: ParsedArgs, file: Record<string, unknown>): Record<string, unknown> | undefined {
  const pairs = args.lists?.option ?? [];
  const fromFile = file.options;
  if (pairs.length === 0) return fromFile === undefined ? undefined : (fromFile as Record<string, unknown>);
  let flags: Record<string, unknown>;
  try {
    flags = optionsFromPairs(pairs);
  } catch (error) {
    throw new UserError(`evaluate: ${(error as Error).message}`);
  }
  const base = fromFile !== null && typeof fromFile === 'object' && !Array.isArray(fromFile) ? fromFile : {};
  return { ...(base as Record<string, unknown>), ...flags };
}

/**
 * The evaluation a command asks for: the `--config FILE` fields under the flags, checked with the
 * contract's `evaluations:start` schema (a wrong or unknown field is named, with the file).
 */
export function evaluationConfigOf(args: ParsedArgs, slug: string) {
  const path = args.options.config as string | undefined;
  const file = path === undefined ? {} : readConfigFile(path);
  const seed = seedOf(args);
  const options = optionsOf(args, file);
  const request = {
    ...file,
    ...(options !== undefined ? { options } : {}),
    slug,
    ...(args.options.provider !== undefined || file.provider === undefined ? { provider: providerOf(args) } : {}),
    ...(args.options.mode !== undefined ? { mode: args.options.mode } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
  return validated(evaluationStartSchema, request, path === undefined ? 'evaluate' : basename(path));
}

function optionWords(o: EvaluationDetail['options']): string {
  return `red-teamers per evaluator ${o.redTeamersPerEvaluator ?? 'any'}, ${o.firstPrinciples} first principles, ${o.arbiter} arbiter, ±${o.adjustmentRange}, minimum confidence ${o.minConfidence}`;
}

function summaryLine(e: EvaluationSummary): string {
  const score = e.overallScore === null ? '  —  ' : e.overallScore.toFixed(2);
  return `${e.id}  ${evaluationStatusOf(e).padEnd(8)} ${e.phase.padEnd(12)} ${score}  ${e.slug}${e.stale ? ' STALE' : ''}${e.stopReason ? ` (${e.stopReason})` : ''}`;
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new UserError(`gave up waiting for ${what} after ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function finalStatus(app: App, id: string, io: CliIo, args: ParsedArgs, note: string): Promise<number> {
  const e = await call(app, 'evaluations:get', { id });
  if (args.options.json)
    io.out(
      JSON.stringify(
        {
          id,
          status: e.status,
          phase: e.phase,
          lockReason: e.lockReason,
          overallScore: e.overallScore,
          stopReason: e.stopReason,
        },
        null,
        2,
      ),
    );
  else
    io.out(
      `Evaluation ${id}: ${evaluationStatusOf(e)}${e.lockReason ? ` (${e.lockReason})` : ''}${e.stopReason ? ` (${e.stopReason})` : ''}${note ? ` ${note}` : ''}`,
    );
  return 0;
}

/**
 * stop / approve / resume. An evaluation running in another process is asked through
 * runs/run-control.ts, and this waits until its checkpoint says it stopped (or its record says it
 * locked); one no process runs is resumed here through the app's handler, to its end.
 */
export async function controlEvaluation(
  args: ParsedArgs,
  io: CliIo,
  action: 'stop' | 'approve' | 'resume',
  id: string,
): Promise<number> {
  const root = workspaceDir(args);
  const owner = /^[a-z0-9][a-z0-9-]*$/.test(id) ? runOwner(root, id) : null;
  if (owner && action === 'resume') throw new UserError(`evaluation ${id} is already running (process ${owner.pid})`);
  if (owner) {
    requestRun(root, id, action);
    await until(`evaluation ${id} to ${action === 'stop' ? 'stop' : 'lock'}`, () => {
      // Whether it still runs is read before its log: a run that locks and lets go in between is
      // then seen locked, not as a process that ended before it could stop.
      const running = runOwner(root, id) !== null;
      const log = findUnfinished(root, id);
      if (log === null) return true; // locked: the record took over
      if (action === 'stop' && readEvaluationLog(root, log).stopped !== null) return true;
      if (!running)
        throw new UserError(`the process running evaluation ${id} (${owner.pid}) ended before it could ${action}`);
      return false;
    });
    return withApp(args, (app) => finalStatus(app, id, io, args, `(in process ${owner.pid})`));
  }
  return withApp(args, async (app) => {
    if (action !== 'resume') {
      // Not running anywhere: the handler says so (approve) or answers its stored status (stop).
      if (action === 'approve') await call(app, 'evaluations:approve', { id });
      else await call(app, 'evaluations:cancel', { id });
      return finalStatus(app, id, io, args, '(no process was running it)');
    }
    let settle: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      settle = resolve;
    });
    // Its drive is over once it is neither running nor stopping (a stop logs `paused`).
    const off = app.events.on('run:status', (s) => {
      if (s.id === id && s.status !== 'running') settle();
    });
    try {
      if (!args.options.json) io.err(`Resuming evaluation ${id} here…`);
      await call(app, 'evaluations:resume', { id });
      await ended;
    } finally {
      off();
    }
    return finalStatus(app, id, io, args, '');
  });
}

/**
 * Grants the evaluation another process runs one more round: asked through run-control like stop
 * and approve, and done once its log records the `add_round` input (the runner's own record of it).
 */
async function addRound(args: ParsedArgs, io: CliIo, id: string): Promise<number> {
  const root = workspaceDir(args);
  const owner = /^[a-z0-9][a-z0-9-]*$/.test(id) ? runOwner(root, id) : null;
  const log = findUnfinished(root, id);
  if (!owner || log === null)
    throw new UserError(
      `evaluation ${id} is not running: only a running evaluation can be given another round (resume it first: evaluations resume ${id})`,
    );
  const granted = () => readEvaluationLog(root, log).inputs.filter((i) => i.kind === 'add_round').length;
  const before = granted();
  requestRun(root, id, 'add_round');
  await until(`evaluation ${id} to take the round`, () => {
    if (findUnfinished(root, id) === null)
      throw new UserError(`evaluation ${id} locked before it could take another round`);
    if (granted() > before) return true;
    if (runOwner(root, id) === null)
      throw new UserError(`the process running evaluation ${id} (${owner.pid}) ended before it took the round`);
    return false;
  });
  return withApp(args, async (app) => {
    const e = await call(app, 'evaluations:get', { id });
    if (args.options.json) io.out(JSON.stringify({ id, roundLimit: e.roundLimit, round: e.round }, null, 2));
    else io.out(`Evaluation ${id} may now run ${e.roundLimit} rounds (round ${e.round} now; in process ${owner.pid}).`);
    return 0;
  });
}

export const evaluationsCommands: Command[] = [
  {
    spec: {
      name: 'evaluations',
      summary:
        'List evaluations, show one, estimate one, stop, approve, resume or add a round to a running one, or show the score matrix.',
      usage:
        'evaluations (list [--idea SLUG] [--status S] | show ID | estimate SLUG [--config FILE] | stop ID | approve ID | resume ID | add-round ID | matrix) --workspace DIR [--json]',
      positionals: ['ACTION', 'ARG?'],
      options: {
        workspace: workspaceOption,
        idea: { type: 'string', value: 'SLUG', description: 'list: only evaluations of this idea' },
        status: {
          type: 'string',
          value: 'S',
          description: `list: only those ${RUN_STATUSES.join(', ')} (completed: locked)`,
        },
        mode: { type: 'string', value: 'MODE', description: 'estimate: quick, standard (default) or deep' },
        provider: providerOption,
        config: configOption,
        json: jsonOption,
      },
    },
    run(args, io) {
      const [action, arg] = args.positionals as [Action, string | undefined];
      if (!ACTIONS.includes(action)) throw new UserError(`evaluations: the action is one of ${ACTIONS.join(', ')}`);
      const needs = action === 'estimate' ? 'SLUG' : 'ID';
      if (action !== 'list' && action !== 'matrix' && arg === undefined) {
        throw new UserError(`evaluations ${action}: which one? (evaluations ${action} ${needs})`);
      }
      if ((action === 'list' || action === 'matrix') && arg !== undefined)
        throw new UserError(`evaluations ${action}: unexpected "${arg}"`);
      if (action === 'stop' || action === 'approve' || action === 'resume')
        return controlEvaluation(args, io, action, arg as string);
      if (action === 'add-round') return addRound(args, io, arg as string);
      return withApp(args, async (app) => {
        const asJson = args.options.json === true;
        if (action === 'list') {
          const status = args.options.status as string | undefined;
          const { evaluations } = await call(app, 'evaluations:list', {
            ...(args.options.idea !== undefined ? { slug: args.options.idea as string } : {}),
            ...(status !== undefined ? { status: runStatusOption(status) } : {}),
          });
          io.out(
            asJson
              ? JSON.stringify({ evaluations }, null, 2)
              : evaluations.map(summaryLine).join('\n') || 'no evaluations yet',
          );
        } else if (action === 'show') {
          const e = await call(app, 'evaluations:get', { id: arg as string });
          io.out(
            asJson
              ? JSON.stringify(e, null, 2)
              : [
                  summaryLine(e),
                  `${e.ideaTitle} — ${e.mode}, round ${e.round}/${e.roundLimit}, ${e.progress.done}/${e.progress.total} answers, $${(e.costUsd ?? 0).toFixed(4)}`,
                  ...(e.prediction ? [`Prediction: ${e.prediction.text}`] : []),
                  ...(e.addRoundPreview
                    ? [
                        `Add round (evaluations add-round ${e.id}): likely $${e.addRoundPreview.usd.toFixed(4)}, at most $${e.addRoundPreview.worstUsd.toFixed(4)} — ${e.addRoundPreview.basis}`,
                      ]
                    : []),
                  `Options: ${optionWords(e.options)}`,
                  ...e.criteria.map((c) => `  ${c.id.padEnd(28)} ${c.score === null ? '—' : c.score}`),
                ].join('\n'),
          );
        } else if (action === 'estimate') {
          const request = evaluationConfigOf(args, arg as string);
          const e = await call(app, 'evaluations:estimate', {
            slug: request.slug,
            mode: request.mode,
            provider: request.provider,
            ...(request.budgetUsd !== undefined ? { budgetUsd: request.budgetUsd } : {}),
          });
          io.out(
            asJson
              ? JSON.stringify(e, null, 2)
              : `Estimated cost: $${e.usd.toFixed(4)} (at worst $${e.worstUsd.toFixed(4)}, budget $${e.budgetUsd}): ${e.basis}`,
          );
        } else {
          const m = await call(app, 'evaluations:matrix', {});
          io.out(
            asJson
              ? JSON.stringify(m, null, 2)
              : m.ideas
                  .map(
                    (i) =>
                      `${i.slug.padEnd(32)} ${i.overallScore === null ? '  —  ' : i.overallScore.toFixed(2)}  ${i.scores.map((s) => (s === null ? '·' : String(Math.round(s)))).join(' ')}`,
                  )
                  .join('\n'),
          );
        }
        return 0;
      });
    },
  },
];
