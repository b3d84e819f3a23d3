import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upsertEntry } from '../../core/ledger/ledger-md';
import { chromiumPath, finishedDebate, lockedEvaluation, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/** A rectangle on the page, as playwright measures one. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Figures that do not mislead (issue 22): charts drawn as the data moves, each line traceable to
 * its criterion, labels that can be read; boards and the ledger that say how much a number rests on.
 */
describe.skipIf(!chromiumPath)('honest figures', () => {
  const { s, ws, go } = sessionPerFile();

  it('draws scores as steps, the criteria as small multiples per category, and labels that can be read', async () => {
    const { page } = s;
    const id = await lockedEvaluation(s.app, IDEA, 'quick');
    const detail = await s.app.client.invoke('evaluations:get', { id });
    await go(`#/convergence/${id}`);
    const chart = page.getByTestId('convergence-chart');
    await chart.locator('.recharts-line-curve').first().waitFor({ state: 'attached' });

    // Whole-point moves are steps: no cubic segments (a smooth curve draws values nobody gave).
    const paths = await chart
      .locator('.recharts-line-curve')
      .evaluateAll((els) => els.map((el) => el.getAttribute('d') ?? ''));
    expect(paths.length).toBe(detail.criteria.length + 1);
    for (const d of paths) expect(d).not.toMatch(/C/);

    // One small chart per category, its criteria named, no two lines in it of one colour.
    const multiples = page.getByTestId('category-chart');
    expect(await multiples.count()).toBe(detail.categories.length);
    for (const category of detail.categories) {
      const figure = page.locator(`[data-testid="category-chart"][data-category="${category.id}"]`);
      const names = await figure.getByTestId('criterion-name').allInnerTexts();
      const own = detail.criteria.filter((c) => c.category === category.id);
      expect(names.length).toBe(own.length);
      for (const c of own) expect(names.some((n) => n.startsWith(c.name))).toBe(true);
      const strokes = await figure
        .locator('.recharts-line-curve')
        .evaluateAll((els) => els.map((el) => el.getAttribute('stroke')));
      expect(new Set(strokes).size).toBe(own.length);
    }
    // The overall chart alone in the wide chart, with its band explained beneath, not clipped.
    expect(await page.locator('[data-testid="overall-chart"] .recharts-line').count()).toBe(1);
    const band = page.getByTestId('band-label');
    expect(await band.innerText()).toMatch(/±0\.5 around the last overall score over the last/);
    expect(await band.isVisible()).toBe(true);

    // The thresholds' labels do not collide, and a sentence says what each confidence is.
    const confidence = page.getByTestId('confidence-chart');
    const labels = confidence.locator('text').filter({ hasText: /^(min|critical) / });
    expect(await labels.allTextContents()).toEqual([
      expect.stringMatching(/^min 0\.\d+$/),
      expect.stringMatching(/^critical 0\.\d+$/),
    ]);
    const [min, critical] = await Promise.all([labels.nth(0).boundingBox(), labels.nth(1).boundingBox()]);
    if (!min || !critical) throw new Error('a threshold label is not drawn');
    expect(overlap(min, critical)).toBe(false);
    const meaning = await confidence.getByTestId('confidence-meaning').innerText();
    expect(meaning).toContain('Evaluation confidence');
    expect(meaning).toContain('Lowest criterion');
    expect(meaning).toContain('can sit above');
    await s.screenshot('convergence-multiples');
    expect(s.problems).toEqual([]);
  }, 180_000);

  it('refuses "survived" before the deadline, asks before "void", and greys a Brier score on one falsifier', async () => {
    const { page } = s;
    const id = await finishedDebate(s.app, IDEA, 4);
    const { falsifiers, today } = await s.app.client.invoke('ledger:list', {});
    const ahead = falsifiers.find((f) => f.debateId === id && f.deadlineDate !== null && f.deadlineDate > today);
    if (!ahead) throw new Error('the simulated debate declared no falsifier with a deadline ahead');
    await go('#/ledger');
    const row = page.locator(`tr[data-key="${ahead.key}"]`);
    await row.getByRole('button', { name: 'Record how it resolved' }).click();
    const form = page.getByRole('form', { name: `How ${ahead.agentName}'s falsifier resolved` });
    const save = form.getByRole('button', { name: 'Save to ledger.md' });
    const outcome = form.getByRole('combobox', { name: 'Outcome' });
    // Survived a deadline that has not come: refused, in words.
    await outcome.selectOption('survived');
    const notice = form.getByTestId('early-outcome');
    expect(await notice.innerText()).toContain(`The deadline is ${ahead.deadlineDate}`);
    expect(await save.isDisabled()).toBe(true);
    // Void ahead of the deadline: possible, so asked.
    await outcome.selectOption('void');
    expect(await save.isDisabled()).toBe(true);
    await notice.getByRole('checkbox').check();
    expect(await save.isDisabled()).toBe(false);
    // Falsified: the threshold can be crossed any day.
    await outcome.selectOption('falsified');
    expect(await notice.count()).toBe(0);
    await save.click();
    await form.waitFor({ state: 'detached' });
    await s.screenshot('ledger-early-outcome');

    // One falsifier is an anecdote: its Brier score is greyed with n=1, not shown as settled.
    await go('#/leaderboards?tab=personas');
    const calibration = page.getByTestId('leaderboard-calibration');
    const scoreCell = calibration.getByRole('row').filter({ hasText: ahead.agentName }).getByTestId('sample-score');
    await scoreCell.waitFor();
    expect(await scoreCell.getAttribute('data-settled')).toBe('false');
    expect(await scoreCell.innerText()).toMatch(/n=1$/);
    expect(await scoreCell.locator('strong').count()).toBe(0);
    expect(s.problems).toEqual([]);
  }, 180_000);

  it('ranks a calibration resting on fewer than five falsifiers after the settled ones, however low its Brier score', async () => {
    const { page } = s;
    type Row = Awaited<ReturnType<typeof s.app.client.invoke<'ledger:list'>>>['falsifiers'][number];
    const sided = (rows: Row[]) => rows.filter((f) => (f.side === 'YES' || f.side === 'NO') && f.confidence !== null);
    // Enough debates among the same four for one agent to have five forecasts to score.
    let rows: Row[] = [];
    let settled: string | undefined;
    for (let seed = 1; !settled; seed++) {
      if (seed > 8) throw new Error('eight simulated debates gave no agent five sided falsifiers');
      await finishedDebate(s.app, IDEA, 4, seed);
      rows = sided((await s.app.client.invoke('ledger:list', {})).falsifiers);
      const counts = new Map<string, number>();
      for (const f of rows) counts.set(f.agent, (counts.get(f.agent) ?? 0) + 1);
      settled = [...counts].find(([, n]) => n >= 5)?.[0];
    }
    // The ledger is the researcher's file: written here as one would by hand. The settled agent was
    // wrong five times (a high Brier score); another was right once, confidently (a low one).
    const lucky = rows
      .filter((f) => f.agent !== settled)
      .sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0))[0] as Row;
    let text: string | null = null;
    const entry = (f: Row, outcome: 'survived' | 'falsified') =>
      upsertEntry(text, {
        key: f.key,
        outcome,
        resolvedOn: '2026-01-05',
        recordedAt: '2026-01-05T10:00:00.000Z',
        falsifier: f.metric,
        note: '',
      });
    for (const f of rows.filter((r) => r.agent === settled).slice(0, 5)) text = entry(f, 'falsified');
    text = entry(lucky, 'survived');
    writeFileSync(join(ws.root, 'ledger.md'), text);
    const { agents } = await s.app.client.invoke('ledger:calibration', {});
    const [high, low] = [agents.find((a) => a.agent === settled), agents.find((a) => a.agent === lucky.agent)];
    expect([high?.scored, low?.scored]).toEqual([5, 1]);
    // The case this is about: the provisional score is the better number.
    expect(low?.brier ?? 1).toBeLessThan(high?.brier ?? 0);

    // Away and back, so the board reads the ledger as now written (the last test left it open).
    await go('#/library');
    await page.getByTestId('leaderboard-calibration').waitFor({ state: 'detached' });
    await go('#/leaderboards?tab=personas');
    const board = page.getByTestId('leaderboard-calibration');
    await board.getByTestId('sample-score').nth(1).waitFor();
    const order = await Promise.all(
      (await board.locator('tbody tr [data-testid="sample-score"]').all()).map((c) => c.getAttribute('data-settled')),
    );
    expect(order).toEqual(['true', 'false']);
    expect(await board.locator('tbody tr').first().textContent()).toContain(high?.agentName);
    expect(s.problems).toEqual([]);
  }, 240_000);

  it('shows the exchanges under every persona rating and greys a rating on fewer than five', async () => {
    const { page } = s;
    await go('#/leaderboards?tab=personas');
    const board = page.getByTestId('leaderboard-personas');
    await board.getByTestId('sample-score').first().waitFor();
    const { personas: ratings } = await s.app.client.invoke('evaluations:personaRatings', {});
    expect(ratings.some((r) => r.exchanges < 5)).toBe(true);
    for (const r of ratings) {
      const cell = board
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: r.id, exact: true }) })
        .filter({ hasText: r.role === 'red-team' ? 'red team' : 'evaluator' })
        .getByTestId('sample-score');
      expect(await cell.innerText()).toMatch(new RegExp(`n=${r.exchanges}$`));
      expect(await cell.getAttribute('data-settled')).toBe(String(r.exchanges >= 5));
    }
    await s.screenshot('leaderboards-personas-n');
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('says when "Lock now" would lock below the confidence threshold, and asks', async () => {
    const { page } = s;
    // Slowed, so the evaluation is still debating when the button is pressed.
    const latency = process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '800';
    try {
      const { id } = await s.app.client.invoke('evaluations:start', {
        slug: IDEA,
        mode: 'quick',
        provider: 'simulated',
      });
      await go(`#/evaluation/${id}`);
      const lock = page.getByRole('button', { name: /^Lock now/ });
      await lock.waitFor({ timeout: 60_000 });
      expect(await lock.innerText()).toMatch(/^Lock now \(confidence (—|0\.\d\d) < 0\.7\)$/);
      await lock.click();
      const ask = page.getByRole('alertdialog', { name: 'Lock below the confidence threshold' });
      expect(await ask.innerText()).toContain('below the 0.7 the protocol asks for');
      await s.screenshot('evaluation-lock-ask');
      await ask.getByRole('button', { name: 'Keep it running' }).click();
      expect(await ask.count()).toBe(0);
      expect((await s.app.client.invoke('evaluations:get', { id })).status).toBe('running');
      await lock.click();
      await ask.getByRole('button', { name: 'Lock anyway' }).click();
      await page.getByTestId('evaluation-status').getByText('locked').waitFor({ timeout: 30_000 });
      expect((await s.app.client.invoke('evaluations:get', { id })).lockReason).toBe('USER_APPROVED');
    } finally {
      if (latency === undefined) delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
      else process.env.CRUCIBLE_SIMULATED_LATENCY_MS = latency;
    }
    expect(s.problems).toEqual([]);
  }, 180_000);
});
