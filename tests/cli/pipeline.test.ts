import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PipelineStatusView } from '../../core/contract';
import { appRoot } from '../../core/node/app-root';
import { runCli } from '../../core/node/cli/main';
import { tempWorkspace } from '../helpers/temp-workspace';

// `pipeline configure|run|status|log|stop|approve` as a researcher types them, in this process (the
// same code path as `npm run cli`, without a process start per command).

const IDEA = 'community-solar-coop';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => (err += t.endsWith('\n') ? t : `${t}\n`),
    untilStopped: () => new Promise(() => {}),
  });
  return { code, out, err };
}

describe('pipeline on the command line', () => {
  let root = '';
  let cleanup = () => {};
  beforeEach(() => {
    ({ root, cleanup } = tempWorkspace('crucible-pipeline-cli-'));
    cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  });
  afterEach(() => cleanup());

  it('switches steps on, runs an idea through them here, and shows the status and the log', async () => {
    const configured = await run([
      'pipeline',
      'configure',
      '--on',
      'develop,evaluate,red-team',
      '--budget',
      '2',
      '--review-gate',
      'off',
      '--workspace',
      root,
      '--json',
    ]);
    expect(configured.code).toBe(0);
    const settings = (JSON.parse(configured.out) as PipelineStatusView).settings;
    expect(settings).toMatchObject({
      dailyBudgetUsd: 2,
      reviewGate: false,
      steps: { develop: true, evaluate: true, redteam: true, classify: false },
    });
    expect(readFileSync(join(root, 'pipeline.md'), 'utf8')).toMatch(/^redteam: true$/m);

    const ran = await run(['pipeline', 'run', '--idea', IDEA, '--workspace', root]);
    expect(ran.code).toBe(0);
    // Each line of the log as it was written, then the status: develop, evaluate, red team done.
    const printed = ran.out
      .split('\n')
      .filter((l) => /^\d{4}-\d{2}-\d{2} /.test(l) && l.includes(`  ${IDEA}  `))
      .map((l) => l.split('  ')[2]);
    expect(printed).toEqual([
      'develop started',
      'develop done',
      'evaluate started',
      'evaluate done',
      'red team started',
      'red team done',
    ]);
    expect(ran.out).toMatch(/^Pipeline: running \(performed by process \d+, this one\)$/m);
    expect(ran.out).toMatch(
      new RegExp(
        `^ {4}${IDEA} {2}capture:done develop:done evaluate:done red team:done classify:pending {2}\\$0\\.0000$`,
        'm',
      ),
    );

    const log = await run(['pipeline', 'log', IDEA, '--workspace', root, '--json']);
    expect((JSON.parse(log.out) as { entries: { step: string }[] }).entries).toHaveLength(7);
    const stopped = await run(['pipeline', 'stop', '--workspace', root]);
    expect(stopped.out.split('\n')[0]).toBe('Pipeline: stopped');
  }, 90_000);

  it('shows each step’s cost preview, priced for its provider, before anything runs', async () => {
    expect(
      (await run(['pipeline', 'configure', '--on', 'develop,evaluate', '--provider', 'anthropic', '--workspace', root]))
        .code,
    ).toBe(0);
    const status = JSON.parse(
      (await run(['pipeline', 'status', '--workspace', root, '--json'])).out,
    ) as PipelineStatusView;
    const text = (await run(['pipeline', 'status', '--workspace', root])).out;
    const e = status.estimates;
    const usd = (n: number) => `$${n.toFixed(4)}`;
    expect(e.evaluate.usd).toBeGreaterThan(0);
    expect(e.evaluate.worstUsd).toBeGreaterThan(e.evaluate.usd);
    expect(text.split('\n').find((l) => l.includes('cost previews'))).toBe(
      `  cost previews: develop ~${usd(e.develop.usd)} (≤ ${usd(e.develop.worstUsd)}), evaluate ~${usd(e.evaluate.usd)} (≤ ${usd(e.evaluate.worstUsd)}), ` +
        `red team ~${usd(e.redteam.usd)} (≤ ${usd(e.redteam.worstUsd)}), classify ~${usd(e.classify.usd)} (≤ ${usd(e.classify.worstUsd)})`,
    );
    // Nothing ran: no idea entered the pipeline, nothing was spent.
    expect([status.running, status.ideas, status.spentTodayUsd]).toEqual([false, [], 0]);
  });

  it('says in one line what is wrong with what was asked', async () => {
    const cases: [string[], string][] = [
      [
        ['pipeline', 'configure', '--on', 'dance'],
        'error: --on: "dance" is not a step (one of capture, develop, evaluate, redteam, classify)\n',
      ],
      [
        ['pipeline', 'configure'],
        'error: pipeline configure: nothing to change (give --on, --off, --budget, --review-gate, --mode or --provider)\n',
      ],
      [
        ['pipeline', 'configure', '--budget', '-1'],
        'error: --budget must be a number of US dollars, 0 or more, not "-1"\n',
      ],
      [['pipeline', 'approve', IDEA], `error: no evaluation of "${IDEA}" waits in the review gate\n`],
      [['pipeline', 'run', '--idea', 'nope'], 'error: no idea "nope" (see: npm run cli -- list)\n'],
      [['pipeline', 'log'], 'error: pipeline log: which idea? (pipeline log SLUG)\n'],
      [['pipeline', 'fly'], 'error: pipeline: the action is one of status, run, stop, approve, log, configure\n'],
    ];
    for (const [args, message] of cases) {
      const result = await run([...args, '--workspace', root]);
      expect({ args, code: result.code, err: result.err }).toEqual({ args, code: 1, err: message });
    }
  }, 60_000);
});
