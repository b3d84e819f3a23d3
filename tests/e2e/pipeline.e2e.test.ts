import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSHandle } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, sessionPerFile } from './harness';

/**
 * Issue 23's pipeline that runs itself, in the browser: switched on in the pipeline view's panel, it
 * takes a file dropped on the library through develop, evaluate and classify with the simulator,
 * within its daily budget, each step in the idea's log; and it stops when told, in the middle of an
 * evaluation, and goes on with that evaluation when run again.
 */
describe.skipIf(!chromiumPath)('the pipeline that runs itself', () => {
  const { s, ws, go } = sessionPerFile();
  const FIRST = 'rooftop-beehives-for-the-office-block';
  const SECOND = 'a-seed-swap-shelf-in-the-library';

  /** A real DataTransfer holding one real File, built in the page, as a drop from the desktop carries. */
  const fileDrop = (name: string, text: string): Promise<JSHandle> =>
    s.page.evaluateHandle(
      ({ name, text }) => {
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: string[], name: string, options: { type: string }) => unknown;
        };
        const dt = new page.DataTransfer();
        dt.items.add(new page.File([text], name, { type: 'text/plain' }));
        return dt;
      },
      { name, text },
    );
  const drop = async (name: string, text: string) => {
    await go('#/library');
    const filters = s.page.locator('.library-filters');
    await filters.waitFor();
    await filters.dispatchEvent('drop', { dataTransfer: await fileDrop(name, text) });
    await s.page.getByRole('link', { name: text.split('\n')[0] as string }).waitFor();
  };
  const panel = () => s.page.getByTestId('pipeline-panel');
  const row = (slug: string) => panel().locator(`tr[data-slug="${slug}"]`);
  const badge = (slug: string, step: string) => row(slug).locator(`td[data-step="${step}"] .badge`);
  const status = () => s.app.client.invoke('pipeline:status', {});

  it('switched on, takes a dropped file through develop, evaluate and classify within its budget', async () => {
    const { page } = s;
    await go('#/pipeline');
    await panel().waitFor();
    expect(await page.getByTestId('pipeline-state').textContent()).toBe('stopped');
    // Every step shows its cost preview before anything runs; the simulator's costs nothing.
    expect(await panel().getByTestId('preview-evaluate').textContent()).toMatch(
      /^~\$0\.0000 · ≤ \$0\.0000 · \d+ calls$/,
    );
    for (const step of ['capture', 'develop', 'evaluate', 'classify']) {
      const box = panel()
        .locator('.pipeline-step', { hasText: new RegExp(`^${step}`) })
        .locator('input');
      await box.check();
      await expect.poll(() => box.isChecked()).toBe(true);
    }
    await panel().getByLabel('Review gate for CRITICAL challenges').uncheck();
    const budget = panel().getByLabel('Daily budget (US$)');
    await budget.fill('0.5');
    await budget.press('Enter');
    await page.getByTestId('pipeline-spend').filter({ hasText: 'of $0.5000 spent' }).waitFor();
    await panel().getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('pipeline-state').filter({ hasText: 'running' }).waitFor();

    await drop(
      'beehives.txt',
      'Rooftop beehives for the office block\n\nTwo hives on the flat roof, tended by volunteers.\n',
    );
    await go('#/pipeline');
    await badge(FIRST, 'classify').filter({ hasText: 'done' }).waitFor({ timeout: 60_000 });
    expect(await badge(FIRST, 'develop').textContent()).toBe('done');
    expect(await badge(FIRST, 'evaluate').textContent()).toBe('done');
    expect(await badge(FIRST, 'redteam').textContent()).toBe('pending');

    // The idea's log, in the panel and in its folder: each step with its cost.
    await row(FIRST).getByRole('button', { name: 'Log' }).click();
    const log = panel().getByRole('list', { name: `Pipeline log of ${FIRST}` });
    await log.locator('li[data-event="classify:done"]').waitFor();
    expect(
      await log.locator('li[data-event]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-event'))),
    ).toEqual([
      'capture:enrolled',
      'develop:started',
      'develop:done',
      'evaluate:started',
      'evaluate:done',
      'classify:started',
      'classify:done',
    ]);
    const file = readFileSync(join(ws.root, 'ideas', FIRST, 'pipeline.md'), 'utf8');
    expect(file.match(/^- .* · (done|started|enrolled) · \$0\.0000/gm)).toHaveLength(7);
    const now = await status();
    expect(now.spentTodayUsd).toBeLessThanOrEqual(now.settings.dailyBudgetUsd);
    expect(await page.getByTestId('pipeline-spend').textContent()).toBe(
      `Today (${now.today}): $0.0000 of $0.5000 spent`,
    );
    await s.screenshot('pipeline-panel');
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('stops when told, in the middle of an evaluation, and goes on with it when run again', async () => {
    const { page } = s;
    // Simulated calls slow enough to catch the evaluation running.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '250';
    try {
      await drop('seed-swap.txt', 'A seed swap shelf in the library\n\nVisitors leave and take seed packets.\n');
      await go('#/pipeline');
      await panel().getByRole('status').filter({ hasText: 'Now: evaluate of' }).waitFor({ timeout: 60_000 });
      const id = (await status()).current?.evaluationId as string;
      await panel().getByRole('button', { name: 'Stop' }).click();
      await page.getByTestId('pipeline-state').filter({ hasText: 'stopped' }).waitFor();
      await badge(SECOND, 'evaluate').filter({ hasText: 'stopped' }).waitFor({ timeout: 30_000 });
      // Stopped means stopped: nothing more runs, the evaluation waits at its checkpoint.
      await new Promise((r) => setTimeout(r, 1500));
      const stopped = await status();
      expect([stopped.running, stopped.working, stopped.current]).toEqual([false, false, null]);
      expect(stopped.queue.map((q) => [q.slug, q.step, q.kind, q.evaluationId])).toEqual([
        [SECOND, 'evaluate', 'resume', id],
      ]);
      expect((await s.app.client.invoke('evaluations:get', { id })).status).toBe('paused');
      expect(await badge(SECOND, 'classify').textContent()).toBe('pending');
    } finally {
      delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    }
    await panel().getByRole('button', { name: 'Run' }).click();
    await badge(SECOND, 'classify').filter({ hasText: 'done' }).waitFor({ timeout: 60_000 });
    const { entries } = await s.app.client.invoke('pipeline:log', { slug: SECOND });
    const evaluations = new Set(entries.filter((e) => e.step === 'evaluate').map((e) => e.evaluationId));
    expect(evaluations.size).toBe(1);
    expect(entries.map((e) => `${e.step}:${e.event}`)).toEqual([
      'capture:enrolled',
      'develop:started',
      'develop:done',
      'evaluate:started',
      'evaluate:stopped',
      'evaluate:started',
      'evaluate:done',
      'classify:started',
      'classify:done',
    ]);
    expect(s.problems).toEqual([]);
  }, 150_000);

  it('shows an evaluation held in the review gate with its CRITICAL challenges, and lets it lock when approved', async () => {
    const { page } = s;
    const CHALLENGED = 'dataset-diff-tool';
    await go('#/pipeline');
    await panel().waitFor();
    // Only the evaluation, with the gate on (switched in the panel): the diff tool's raises CRITICAL challenges.
    await s.app.client.invoke('pipeline:configure', { steps: { develop: false, classify: false } });
    const gate = panel().getByLabel('Review gate for CRITICAL challenges');
    await gate.check();
    await expect.poll(async () => (await status()).settings.reviewGate).toBe(true);
    await s.app.client.invoke('pipeline:run', { slugs: [CHALLENGED] });
    const held = page.getByRole('region', { name: /^Review gate: / });
    await held.waitFor({ timeout: 60_000 });
    const waiting = (await status()).waiting;
    expect(waiting.map((w) => [w.slug, w.step, w.heldAt])).toEqual([[CHALLENGED, 'evaluate', 'review']]);
    const w = waiting[0] as (typeof waiting)[number];
    // Every CRITICAL challenge, with its criterion, its persona and who won, before the evaluation locks.
    const words = (winner: string | null) =>
      winner === null
        ? 'not ruled'
        : winner === 'EVALUATOR'
          ? 'defended'
          : winner === 'DRAW'
            ? 'a draw'
            : 'the red team won';
    expect(await held.getByRole('listitem').allInnerTexts()).toEqual(
      w.critical.map((c) => `CRITICAL ${c.criterion} (${c.persona}; ${words(c.winner)}): ${c.challenge}`),
    );
    expect(w.critical.length).toBeGreaterThan(0);
    expect((await s.app.client.invoke('evaluations:get', { id: w.evaluationId })).status).toBe('paused');
    await badge(CHALLENGED, 'evaluate').filter({ hasText: 'held' }).waitFor();
    await s.screenshot('pipeline-review-gate');

    await held.getByRole('button', { name: 'Approve and let it lock' }).click();
    await badge(CHALLENGED, 'evaluate').filter({ hasText: 'done' }).waitFor({ timeout: 60_000 });
    expect(await held.count()).toBe(0);
    expect((await s.app.client.invoke('evaluations:get', { id: w.evaluationId })).status).toBe('completed');
    const { entries } = await s.app.client.invoke('pipeline:log', { slug: CHALLENGED });
    expect(entries.map((e) => `${e.step}:${e.event}`)).toEqual([
      'capture:enrolled',
      'evaluate:started',
      'evaluate:held',
      'evaluate:approved',
      'evaluate:started',
      'evaluate:done',
    ]);
    expect(s.problems).toEqual([]);
  }, 150_000);
});
