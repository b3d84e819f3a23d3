import type { PipelineStatusView } from '../../contract';
import { MODES } from '../../evaluation/vocabulary';
import type { PipelineEntry } from '../../pipeline/log';
import { PIPELINE_STEPS, type PipelineSettingsPatch, type PipelineStep, STEP_NAMES } from '../../pipeline/steps';
import type { App } from '../app/create-app';
import { PROVIDERS } from '../debates/providers';
import { UserError } from '../workspace/workspace';
import { call, withApp } from './app-session';
import { jsonOption, workspaceOption } from './common';
import type { CliIo } from './io';
import type { Command } from './workspace-commands';

/** `pipeline status|run|stop|approve|log|configure`: the pipeline that runs itself (docs/pipeline.md). */

const ACTIONS = ['status', 'run', 'stop', 'approve', 'log', 'configure'] as const;
type Action = (typeof ACTIONS)[number];

const usd = (n: number) => `$${n.toFixed(4)}`;

function entryLine(slug: string, e: PipelineEntry): string {
  return `${e.at.slice(0, 19).replace('T', ' ')}  ${slug}  ${STEP_NAMES[e.step]} ${e.event}  ${usd(e.costUsd)}${e.note ? `  ${e.note}` : ''}`;
}

export function statusText(s: PipelineStatusView): string {
  const on = PIPELINE_STEPS.filter((step) => s.settings.steps[step]);
  const lines = [
    `Pipeline: ${s.running ? 'running' : 'stopped'}${s.performer ? ` (performed by process ${s.performer.pid}${s.performer.here ? ', this one' : ''})` : ''}`,
    `  steps on: ${on.length > 0 ? on.map((x) => STEP_NAMES[x]).join(' → ') : 'none'} (${s.file}); review gate ${s.settings.reviewGate ? 'on' : 'off'}; ${s.settings.evaluationMode} evaluations on ${s.provider}`,
    `  today (${s.today}): ${usd(s.spentTodayUsd)} spent of ${usd(s.settings.dailyBudgetUsd)}, ${usd(s.remainingUsd)} left`,
    `  cost previews: ${(['develop', 'evaluate', 'redteam', 'classify'] as const)
      .map((k) => `${STEP_NAMES[k]} ~${usd(s.estimates[k].usd)} (≤ ${usd(s.estimates[k].worstUsd)})`)
      .join(', ')}`,
  ];
  for (const p of s.problems) lines.push(`  ! ${p}`);
  if (s.current)
    lines.push(
      `  now: ${STEP_NAMES[s.current.step]} of ${s.current.slug}${s.current.evaluationId ? ` (evaluation ${s.current.evaluationId})` : ''}`,
    );
  for (const q of s.queue) lines.push(`  due: ${STEP_NAMES[q.step]} (${q.kind}) of ${q.slug}: ${q.reason}`);
  for (const r of s.refused) lines.push(`  ${r.message}`);
  for (const w of s.waiting) {
    lines.push(
      `  review gate: ${w.slug}, evaluation ${w.evaluationId} (${STEP_NAMES[w.step]}) waits` +
        (w.heldAt === 'review'
          ? ''
          : ` (its ${w.heldAt} ran out: approved, it locks from its figures, with no further call)`) +
        `: approve with \`pipeline approve ${w.slug} --evaluation ${w.evaluationId}\``,
    );
    for (const c of w.critical)
      lines.push(`    CRITICAL ${c.criterion} (${c.persona}, ${c.winner ?? 'not ruled'}): ${c.challenge}`);
  }
  for (const h of s.halted) lines.push(`  halted: ${h.slug}: ${h.message}`);
  if (s.ideas.length > 0) lines.push('  ideas:');
  for (const i of s.ideas) {
    const steps = PIPELINE_STEPS.map((step) => `${STEP_NAMES[step]}:${i.steps[step]}`).join(' ');
    lines.push(`    ${i.slug}  ${steps}  ${usd(i.costUsd)}`);
  }
  return lines.join('\n');
}

function parseSteps(text: string | undefined, flag: string): PipelineStep[] {
  if (text === undefined) return [];
  const names = text
    .split(',')
    .map((s) =>
      s
        .trim()
        .toLowerCase()
        .replace(/^red[ -]?team$/, 'redteam'),
    )
    .filter(Boolean);
  for (const n of names)
    if (!(PIPELINE_STEPS as readonly string[]).includes(n))
      throw new UserError(`--${flag}: "${n}" is not a step (one of ${PIPELINE_STEPS.join(', ')})`);
  return names as PipelineStep[];
}

function patchOf(options: Record<string, unknown>): PipelineSettingsPatch {
  const patch: PipelineSettingsPatch = {};
  const steps: Partial<Record<PipelineStep, boolean>> = {};
  for (const s of parseSteps(options.on as string | undefined, 'on')) steps[s] = true;
  for (const s of parseSteps(options.off as string | undefined, 'off')) {
    if (steps[s]) throw new UserError(`"${s}" is both in --on and in --off`);
    steps[s] = false;
  }
  if (Object.keys(steps).length > 0) patch.steps = steps;
  if (options.budget !== undefined) {
    const n = Number(options.budget);
    if (!Number.isFinite(n) || n < 0)
      throw new UserError(`--budget must be a number of US dollars, 0 or more, not "${String(options.budget)}"`);
    patch.dailyBudgetUsd = n;
  }
  if (options['review-gate'] !== undefined) {
    const v = String(options['review-gate']);
    if (v !== 'on' && v !== 'off') throw new UserError(`--review-gate is on or off, not "${v}"`);
    patch.reviewGate = v === 'on';
  }
  if (options.mode !== undefined) {
    const m = String(options.mode);
    if (!(MODES as readonly string[]).includes(m))
      throw new UserError(`--mode is one of ${MODES.join(', ')}, not "${m}"`);
    patch.evaluationMode = m as PipelineSettingsPatch['evaluationMode'];
  }
  if (options.provider !== undefined) {
    const p = String(options.provider);
    if (p !== 'default' && !(PROVIDERS as readonly string[]).includes(p))
      throw new UserError(`--provider is one of ${PROVIDERS.join(', ')}, or default (settings.md's), not "${p}"`);
    patch.provider = p === 'default' ? null : (p as NonNullable<PipelineSettingsPatch['provider']>);
  }
  if (Object.keys(patch).length === 0)
    throw new UserError(
      'pipeline configure: nothing to change (give --on, --off, --budget, --review-gate, --mode or --provider)',
    );
  return patch;
}

/**
 * Performs the pipeline here until it has nothing left to do (or Ctrl-C), printing each entry its
 * ideas' logs gain; a pipeline another process performs is only switched on and told.
 */
async function runHere(app: App, io: CliIo, slugs: string[], asJson: boolean): Promise<PipelineStatusView> {
  const printed = new Map<string, number>();
  const printNew = async (slug: string) => {
    const { entries } = await call(app, 'pipeline:log', { slug });
    const from = printed.get(slug) ?? entries.length;
    for (const e of entries.slice(from)) if (!asJson) io.out(entryLine(slug, e));
    printed.set(slug, entries.length);
  };
  const before = await call(app, 'pipeline:status', {});
  for (const i of before.ideas) printed.set(i.slug, (await call(app, 'pipeline:log', { slug: i.slug })).entries.length);
  let queue = Promise.resolve();
  const off = app.events.on('pipelinerun:changed', ({ slug }) => {
    if (slug) queue = queue.then(() => printNew(slug)).catch(() => {});
  });
  try {
    let status = await call(app, 'pipeline:run', { slugs });
    if (status.performer && !status.performer.here) {
      if (!asJson)
        io.out(
          `The pipeline is performed by process ${status.performer.pid}; it was told (switched on${slugs.length ? `, ${slugs.join(', ')} sent through` : ''}).`,
        );
      return status;
    }
    let interrupted = false;
    const stopped = io.untilStopped().then(() => {
      interrupted = true;
    });
    while (!interrupted) {
      status = await call(app, 'pipeline:status', {});
      // Stopped meanwhile (here or from another process): the running step ends first.
      if (!status.working) break;
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 100))]);
    }
    await queue;
    if (interrupted && !asJson)
      io.out(
        'Interrupted: the step running now stops at its checkpoint; the pipeline stays on and goes on at its next run.',
      );
    return await call(app, 'pipeline:status', {});
  } finally {
    off();
  }
}

export const pipelineCommands: Command[] = [
  {
    spec: {
      name: 'pipeline',
      summary: 'The pipeline that runs itself: status, run, stop, approve a held evaluation, an idea’s log, configure.',
      usage:
        'pipeline (status | run [--idea SLUG,SLUG] | stop | approve SLUG [--evaluation ID] | log SLUG | configure [--on STEPS] [--off STEPS] [--budget USD] [--review-gate on|off] [--mode M] [--provider P]) --workspace DIR [--json]',
      positionals: ['ACTION', 'SLUG?'],
      options: {
        workspace: workspaceOption,
        idea: { type: 'string', value: 'SLUG,SLUG', description: 'run: send these ideas through the pipeline (again)' },
        evaluation: {
          type: 'string',
          value: 'ID',
          description: 'approve: the held evaluation (default: the one waiting)',
        },
        on: {
          type: 'string',
          value: 'STEPS',
          description: `configure: switch these on (${PIPELINE_STEPS.join(', ')})`,
        },
        off: { type: 'string', value: 'STEPS', description: 'configure: switch these off' },
        budget: { type: 'string', value: 'USD', description: 'configure: the daily budget in US dollars' },
        'review-gate': {
          type: 'string',
          value: 'on|off',
          description: 'configure: hold evaluations with CRITICAL challenges',
        },
        mode: { type: 'string', value: 'M', description: `configure: the evaluation mode (${MODES.join(', ')})` },
        provider: {
          type: 'string',
          value: 'P',
          description: `configure: ${PROVIDERS.join(', ')}, or default (settings.md's)`,
        },
        json: jsonOption,
      },
    },
    run(args, io) {
      const [action, slug] = args.positionals as [Action, string | undefined];
      if (!ACTIONS.includes(action)) throw new UserError(`pipeline: the action is one of ${ACTIONS.join(', ')}`);
      const asJson = args.options.json === true;
      const needsSlug = action === 'approve' || action === 'log';
      if (needsSlug && slug === undefined)
        throw new UserError(`pipeline ${action}: which idea? (pipeline ${action} SLUG)`);
      if (!needsSlug && slug !== undefined) throw new UserError(`pipeline ${action}: unexpected "${slug}"`);
      const print = (status: PipelineStatusView) =>
        io.out(asJson ? JSON.stringify(status, null, 2) : statusText(status));
      return withApp(args, async (app) => {
        switch (action) {
          case 'status':
            print(await call(app, 'pipeline:status', {}));
            return 0;
          case 'stop':
            print(await call(app, 'pipeline:stop', {}));
            return 0;
          case 'configure':
            print(await call(app, 'pipeline:configure', patchOf(args.options)));
            return 0;
          case 'run': {
            const ideas = ((args.options.idea as string | undefined) ?? '')
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
            print(await runHere(app, io, ideas, asJson));
            return 0;
          }
          case 'approve': {
            let id = args.options.evaluation as string | undefined;
            if (id === undefined) {
              const waiting = (await call(app, 'pipeline:status', {})).waiting.filter((w) => w.slug === slug);
              if (waiting.length !== 1)
                throw new UserError(
                  waiting.length === 0
                    ? `no evaluation of "${slug}" waits in the review gate`
                    : `${waiting.length} evaluations of "${slug}" wait: name one with --evaluation ID`,
                );
              id = waiting[0]?.evaluationId as string;
            }
            print(await call(app, 'pipeline:approve', { slug: slug as string, evaluationId: id }));
            return 0;
          }
          case 'log': {
            const log = await call(app, 'pipeline:log', { slug: slug as string });
            io.out(
              asJson
                ? JSON.stringify(log, null, 2)
                : log.entries.map((e) => entryLine(log.slug, e)).join('\n') || `${log.path}: no entries yet`,
            );
            return 0;
          }
        }
      });
    },
  },
];
