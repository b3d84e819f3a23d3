import { FALSIFIER_OUTCOMES, type FalsifierOutcome } from '../../contract';
import { localDay } from '../app/debate-view/ledger';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, workspaceOption } from './common';
import type { Command } from './workspace-commands';

const percent = (x: number | null) => (x === null ? '  —' : `${Math.round(x * 100)}%`.padStart(4));

/** The crux and falsifier ledger (ledger.md) and the personas' calibration, as the ledger view shows them. */
export const ledgerCommands: Command[] = [
  {
    spec: {
      name: 'ledger',
      summary: 'The crux and falsifier ledger: list it, record how a falsifier resolved, or show calibration.',
      usage:
        'ledger (list | resolve KEY --outcome OUTCOME [--on YYYY-MM-DD] [--note TEXT] [--early] | calibration) --workspace DIR [--json]',
      positionals: ['ACTION', 'KEY?'],
      options: {
        workspace: workspaceOption,
        outcome: {
          type: 'string',
          value: 'OUTCOME',
          description: `how it turned out: ${FALSIFIER_OUTCOMES.join(', ')}`,
        },
        on: { type: 'string', value: 'YYYY-MM-DD', description: 'the day it resolved (default: today)' },
        note: { type: 'string', value: 'TEXT', description: 'what settled it (kept in ledger.md)' },
        early: {
          type: 'boolean',
          description: 'record ambiguous or void ahead of the deadline (survived never is)',
        },
        json: jsonOption,
      },
    },
    run(args, io) {
      const [action, key] = args.positionals;
      if (action !== 'list' && action !== 'resolve' && action !== 'calibration') {
        throw new UserError('ledger: the action is list, resolve or calibration');
      }
      if (action !== 'resolve' && key !== undefined) throw new UserError(`ledger ${action}: unexpected "${key}"`);
      return withApp(args, async (app) => {
        if (action === 'list') {
          const ledger = await call(app, 'ledger:list', {});
          if (args.options.json) io.out(JSON.stringify(ledger, null, 2));
          else {
            io.out(
              [
                `${ledger.falsifiers.length} falsifier(s) in ${ledger.cruxes.length} crux(es); resolutions in ${ledger.file} (today ${ledger.today})`,
                ...ledger.falsifiers.map(
                  (f) =>
                    `${f.status.padEnd(8)} ${(f.deadlineDate ?? f.deadline).padEnd(10)} ${f.key}  ${f.side ?? '—'} ${percent(f.confidence)}  ${f.metric} ${f.threshold}${f.resolution ? `  → ${f.resolution.outcome} ${f.resolution.resolvedOn}` : ''}`,
                ),
                ...ledger.problems.map((p) => `${ledger.file} line ${p.line}: ${p.reason}`),
              ].join('\n'),
            );
          }
          return 0;
        }
        if (action === 'calibration') {
          const { agents } = await call(app, 'ledger:calibration', {});
          if (args.options.json) io.out(JSON.stringify({ agents }, null, 2));
          else {
            io.out(
              agents.length === 0
                ? 'no falsifier has been resolved yet (ledger resolve KEY --outcome …)'
                : agents
                    .map(
                      (a) =>
                        `${a.agent.padEnd(24)} Brier ${a.brier === null ? '—' : a.brier.toFixed(3)}  held ${percent(a.heldRate)}  mean confidence ${percent(a.meanConfidence)}  (${a.scored} scored: ${a.survived} survived, ${a.falsified} falsified; ${a.unscored} unscored)`,
                    )
                    .join('\n'),
            );
          }
          return 0;
        }
        if (key === undefined)
          throw new UserError('ledger resolve: which falsifier? (its KEY from ledger list: DEBATE/THREAD/AGENT)');
        const parts = key.split('/');
        if (parts.length !== 3 || parts.some((p) => p.trim() === '')) {
          throw new UserError(
            `ledger resolve: "${key}" is not a falsifier key (DEBATE/THREAD/AGENT, as ledger list shows it)`,
          );
        }
        const [debateId, thread, agent] = parts as [string, string, string];
        const outcome = args.options.outcome as string | undefined;
        if (outcome === undefined)
          throw new UserError(`ledger resolve: give --outcome (${FALSIFIER_OUTCOMES.join(', ')})`);
        const result = await call(app, 'ledger:resolveFalsifier', {
          debateId,
          thread,
          agent,
          outcome: outcome as FalsifierOutcome,
          resolvedOn: (args.options.on as string | undefined) ?? localDay(new Date()),
          note: (args.options.note as string | undefined) ?? '',
          early: args.options.early === true,
        });
        if (args.options.json) io.out(JSON.stringify(result, null, 2));
        else {
          io.out(
            result.conflict
              ? `ledger.md changed meanwhile; yours is kept and this record is in ${result.path}`
              : `Recorded ${result.falsifier.key}: ${outcome} on ${result.falsifier.resolution?.resolvedOn} (${result.path})`,
          );
        }
        return 0;
      });
    },
  },
];
