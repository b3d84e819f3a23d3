import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, OTHER } from '../../../tests/helpers/app-harness';
import { readme, writeFile } from '../../../tests/helpers/temp-workspace';
import { type Channel, type PipelineStatusView, pipelineChannels } from '../../contract';
import { evaluationLogPath, readEvaluationLog } from '../evaluations/evaluation-log';
import { parseMarkdown } from '../markdown';
import type { App } from './create-app';

// The pipeline through the app, on a real temp workspace (real SQLite, the real folder watcher)
// with the offline simulator: a file dropped into the folder goes through develop, evaluate and
// classify within the day's budget; a stop leaves the running evaluation at its checkpoint, and
// the next run (or the next start of the app) continues that same evaluation.

const answered = new Set<Channel>();
const DROPPED = 'rooftop-beehives';
/** A sample idea whose quick simulated evaluation (seed 1) raises a CRITICAL challenge. */
const CHALLENGED = 'dataset-diff-tool';
const LONG = 30_000;

describe('the pipeline, switched on, in a running app', () => {
  const t = appPerTest('crucible-pipeline-app-', answered, [IDEA, OTHER, CHALLENGED]);
  /** An app with the folder watcher on, as the desktop app and browser mode run. */
  const watching = () => t.boot({ watch: { debounceMs: 20 } });
  const status = (app: App) => t.call(app, 'pipeline:status', {});
  const trail = async (app: App, slug: string) =>
    (await t.call(app, 'pipeline:log', { slug })).entries.map((e) => `${e.step}:${e.event}`);
  const dropFile = () =>
    writeFile(
      t.root,
      `ideas/${DROPPED}/README.md`,
      readme('Rooftop beehives for the office block', { type: 'business' }, 'Two hives on the flat roof.'),
    );
  const until = async (app: App, what: string, check: (s: PipelineStatusView) => boolean, ms = LONG) => {
    let last: PipelineStatusView | null = null;
    const deadline = Date.now() + ms;
    for (;;) {
      last = await status(app);
      if (check(last)) return last;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last, null, 1)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('takes a dropped file through develop, evaluate and classify with the simulator, within its budget', async () => {
    const app = await watching();
    const pushed: (string | null)[] = [];
    app.events.on('pipelinerun:changed', ({ slug }) => pushed.push(slug));
    const configured = await t.call(app, 'pipeline:configure', {
      steps: { capture: true, develop: true, evaluate: true, classify: true },
      dailyBudgetUsd: 0.5,
      reviewGate: false,
    });
    // The switches live in the workspace's own pipeline.md, readable and editable by hand.
    expect(parseMarkdown(readFileSync(join(t.root, 'pipeline.md'), 'utf8')).data).toMatchObject({
      kind: 'pipeline',
      capture: true,
      develop: true,
      evaluate: true,
      classify: true,
      dailyBudgetUsd: 0.5,
      reviewGate: false,
    });
    expect(configured.running).toBe(false);
    expect(configured.estimates.evaluate.basis).toMatch(/the simulator costs nothing$/);
    await t.call(app, 'pipeline:run', {});

    dropFile();
    const done = await until(app, 'the dropped idea to be classified', (s) =>
      s.ideas.some((i) => i.slug === DROPPED && i.steps.classify === 'done'),
    );
    expect(await trail(app, DROPPED)).toEqual([
      'capture:enrolled',
      'develop:started',
      'develop:done',
      'evaluate:started',
      'evaluate:done',
      'classify:started',
      'classify:done',
    ]);
    // Only the idea that appeared entered the pipeline; the ones already there were left alone.
    expect(done.ideas.map((i) => i.slug)).toEqual([DROPPED]);
    expect(done.spentTodayUsd).toBe(0);
    expect(done.spentTodayUsd).toBeLessThanOrEqual(done.settings.dailyBudgetUsd);

    // What each step did is in the idea's folder, through the services the views use.
    const folder = join(t.root, 'ideas', DROPPED);
    expect(readFileSync(join(folder, 'development.md'), 'utf8')).toMatch(/\[simulated\]/);
    const { entries } = await t.call(app, 'pipeline:log', { slug: DROPPED });
    const evaluationId = entries.find((e) => e.step === 'evaluate' && e.event === 'done')?.evaluationId as string;
    expect(existsSync(join(folder, 'evaluations', `${evaluationId}.json`))).toBe(true);
    const evaluation = await t.call(app, 'evaluations:get', { id: evaluationId });
    expect(evaluation.status).toBe('completed');
    const classified = entries.at(-1)?.note ?? '';
    const front = parseMarkdown(readFileSync(join(folder, 'README.md'), 'utf8')).data;
    expect(classified).toContain(`type ${String(front.type)}`);
    // The log is markdown a researcher reads: every line says the step, what happened and its cost.
    const log = readFileSync(join(folder, 'pipeline.md'), 'utf8');
    expect(log).toMatch(/^# Pipeline log: Rooftop beehives for the office block$/m);
    expect(log).toMatch(/^- \S+ \S+ UTC · \*\*evaluate\*\* · done · \$0\.0000 — evaluation \w+ locked \(MAX_ROUNDS\)/m);
    expect(pushed).toContain(DROPPED);
  }, 60_000);

  it('stops when told: the evaluation waits at its checkpoint, and the next start of the app goes on with it', async () => {
    // Slow simulated calls, so that the evaluation is still running when the stop comes.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '150';
    let app = await watching();
    await t.call(app, 'pipeline:configure', {
      steps: { capture: true, evaluate: true, classify: true },
      reviewGate: false,
    });
    await t.call(app, 'pipeline:run', {});
    dropFile();
    const running = await until(app, 'the evaluation to start', (s) => s.current?.step === 'evaluate');
    const id = running.current?.evaluationId as string;
    const stopped = await t.call(app, 'pipeline:stop', {});
    expect(stopped.running).toBe(false);
    const idle = await until(app, 'the stop', (s) => !s.working);
    expect(idle.current).toBeNull();
    expect(await trail(app, DROPPED)).toEqual(['capture:enrolled', 'evaluate:started', 'evaluate:stopped']);
    // Stopped at its checkpoint, not locked: its log says paused, resumable.
    expect(readEvaluationLog(t.root, evaluationLogPath(DROPPED, id)).stopped?.reason).toBe('cancelled');
    expect(idle.queue.map((q) => [q.slug, q.step, q.kind, q.evaluationId])).toEqual([
      [DROPPED, 'evaluate', 'resume', id],
    ]);

    // Switched on again and the app closed mid-evaluation: the next start picks up where it was.
    await t.call(app, 'pipeline:run', {});
    await until(app, 'the evaluation to go on', (s) => s.current?.evaluationId === id);
    await app.close();
    delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    app = await watching();
    const finished = await until(app, 'the idea to be classified', (s) => s.ideas[0]?.steps.classify === 'done');
    expect(finished.running).toBe(true);
    const entries = (await t.call(app, 'pipeline:log', { slug: DROPPED })).entries;
    expect(entries.map((e) => `${e.step}:${e.event}`)).toEqual([
      'capture:enrolled',
      'evaluate:started',
      'evaluate:stopped',
      'evaluate:started',
      'evaluate:stopped',
      'evaluate:started',
      'evaluate:done',
      'classify:started',
      'classify:done',
    ]);
    // One evaluation throughout, continued from its checkpoint each time, never begun again.
    expect(new Set(entries.filter((e) => e.step === 'evaluate').map((e) => e.evaluationId))).toEqual(new Set([id]));
    expect(entries[4]?.note).toBe('the app closed; it continues when the pipeline next runs');
  }, 90_000);

  it('holds an evaluation with CRITICAL challenges in the review gate until it is approved', async () => {
    const app = await t.boot();
    await t.call(app, 'pipeline:configure', { steps: { evaluate: true }, reviewGate: true });
    await t.call(app, 'pipeline:run', { slugs: [CHALLENGED] });
    const held = await until(app, 'the review gate', (s) => s.waiting.length > 0 && !s.working);
    const gate = held.waiting[0];
    expect(gate?.critical.length).toBeGreaterThan(0);
    expect(gate?.critical.every((c) => c.challenge.startsWith('[simulated]'))).toBe(true);
    const id = gate?.evaluationId as string;
    // Not locked: paused at its review, by the gate, resumable.
    expect((await t.call(app, 'evaluations:get', { id })).status).toBe('paused');
    expect(readEvaluationLog(t.root, evaluationLogPath(CHALLENGED, id)).stopped?.reason).toBe('review gate');
    await expect(t.call(app, 'pipeline:approve', { slug: CHALLENGED, evaluationId: 'nope' })).rejects.toThrow(
      `no evaluation "nope" of "${CHALLENGED}" waits in the review gate (waiting: ${id})`,
    );
    await t.call(app, 'pipeline:approve', { slug: CHALLENGED, evaluationId: id });
    await until(app, 'the lock', (s) => s.ideas[0]?.steps.evaluate === 'done' && !s.working);
    expect((await t.call(app, 'evaluations:get', { id })).status).toBe('completed');
    expect(await trail(app, CHALLENGED)).toEqual([
      'capture:enrolled',
      'evaluate:started',
      'evaluate:held',
      'evaluate:approved',
      'evaluate:started',
      'evaluate:done',
    ]);
  }, 60_000);

  it('enrols an idea captured by a one-shot command, and leaves the work to the process that performs the pipeline', async () => {
    const host = await t.boot();
    await t.call(host, 'pipeline:configure', { steps: { capture: true, develop: true } });
    await t.call(host, 'pipeline:run', {});
    await host.close();
    // A CLI command's app: no watcher, so it does not take the pipeline up by itself.
    const oneShot = await t.boot();
    const captured = await t.call(oneShot, 'ideas:capture', {
      title: 'Rooftop beehives',
      text: 'Two hives on the roof.',
    });
    const slug = captured.idea?.slug as string;
    await new Promise((r) => setTimeout(r, 300));
    expect(await trail(oneShot, slug)).toEqual(['capture:enrolled']);
    const waiting = await status(oneShot);
    expect([waiting.running, waiting.working, waiting.performer]).toEqual([true, false, null]);
    expect(waiting.queue.map((q) => `${q.slug}:${q.step}`)).toEqual([`${slug}:develop`]);
    await oneShot.close();
    // The host that stays open takes it up at its start.
    const app = await watching();
    await until(app, 'the development step', (s) => s.ideas[0]?.steps.develop === 'done' && !s.working);
  }, 60_000);

  it('answered every channel of core/contract/pipeline-channels.ts in this file', () => {
    expect(Object.keys(pipelineChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
