import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainWords } from '../../renderer/src/ui/glossary';
import { type Session, chromiumPath, openSession, sampleWorkspace } from './harness';

// A simulated evaluation started from an idea's page, followed live, then read back in the
// leaderboard, the convergence chart and the matrix, in Chromium against browser mode. The
// simulator is slowed down so the run can be watched (and the open tabs seen to update).

const IDEA = 'community-solar-coop';

describe.skipIf(!chromiumPath)('evaluations in the window', () => {
  const ws = sampleWorkspace();
  let s: Session;
  const latency = process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
  beforeAll(async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '800';
    s = await openSession(ws.root);
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    if (latency === undefined) delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    else process.env.CRUCIBLE_SIMULATED_LATENCY_MS = latency;
    ws.cleanup();
  });

  /** Another tab on the same session, its console errors counted with the main page's. */
  async function tab(hash: string): Promise<Page> {
    const context = s.page.context();
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') s.problems.push(`console (${hash}): ${m.text()}`);
    });
    page.on('pageerror', (e) => s.problems.push(`page error (${hash}): ${e.message}`));
    await page.goto(`${s.server.url}${hash}`);
    return page;
  }

  const hashOf = (page: Page) => new URL(page.url()).hash;

  it('starts an evaluation from the idea page, follows it live, and the leaderboard, convergence chart and matrix update', async () => {
    const { page } = s;
    // A leaderboard open in another tab before the evaluation: the idea has no score yet.
    const board = await tab('#/leaderboards');
    const boardRow = board.locator(`[data-testid="leaderboard-row"][data-slug="${IDEA}"]`);
    await boardRow.waitFor();
    expect(await boardRow.locator('td').nth(2).innerText()).toBe('—');

    // The idea page: not evaluated yet, so the evaluate form is open, with its estimate.
    await page.goto(`${s.server.url}#/idea/${IDEA}`);
    const form = page.getByRole('form', { name: 'Evaluate this idea' });
    await form.waitFor();
    await form.getByLabel('Mode').selectOption('standard');
    // Anthropic without a key: priced from the model table, one error with the way to Settings, no Start.
    const key = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    await form.getByLabel('Provider').selectOption('anthropic');
    await page.getByTestId('provider-notice').waitFor();
    expect({
      estimate: await page.getByTestId('evaluation-estimate').innerText(),
      errors: await form.getByRole('alert').count(),
      settings: await page.getByTestId('provider-notice').getByRole('link', { name: 'Settings' }).count(),
      start: await form.getByRole('button', { name: 'Evaluate' }).isDisabled(),
    }).toEqual({
      estimate: expect.stringMatching(/Likely \$[1-9]\.\d\d, at worst \$/),
      errors: 1,
      settings: 1,
      start: true,
    });
    if (key !== undefined) process.env.ANTHROPIC_API_KEY = key;
    await form.getByLabel('Provider').selectOption('simulated');
    await page
      .getByTestId('evaluation-estimate')
      .getByText(/Likely \$0(?!\.)/)
      .waitFor();
    expect(await page.getByTestId('evaluation-estimate').innerText()).toMatch(/the simulator costs nothing/);
    await form.getByRole('button', { name: 'Evaluate' }).click();

    // The live view: running, its columns filling as the events arrive.
    await page.waitForURL(/#\/evaluation\/[a-z0-9]+$/);
    const id = hashOf(page).split('/')[2] as string;
    await page.getByTestId('evaluation-status').getByText('running').waitFor();
    const redTeam = page.getByRole('region', { name: 'Red team' });
    const evaluators = page.getByRole('region', { name: 'Evaluators' });
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await redTeam.locator('li.entry').first().waitFor({ timeout: 20_000 });
    // Still running while the red team speaks: the columns stream, they were not filled at the end.
    expect(await page.getByTestId('evaluation-status').innerText()).toBe('running');
    expect(await evaluators.locator('li.entry[data-type="initial_scores"]').count()).toBe(6);
    // The phase in words, its code kept for the tooltip, and a (?) to the glossary.
    const phase = page.getByTestId('evaluation-phase');
    expect({ words: await phase.innerText(), code: await phase.getAttribute('data-code') }).toEqual({
      words: expect.stringMatching(/^(red team debating|summing up the round)$/),
      code: expect.stringMatching(/^(DEBATING|SYNTHESIZING)$/),
    });
    expect(await page.locator('header.eval-head [data-testid="help"]').first().getAttribute('href')).toMatch(
      /^#\/glossary\?term=(DEBATING|SYNTHESIZING)$/,
    );
    // What it waits for says whose answer about which criterion, never a bare "defence r1c1".
    const awaiting = page.getByTestId('evaluation-awaiting');
    await awaiting
      .filter({ hasText: /evaluator’s defence of “[^”]+” against the [a-z-]+ red-teamer’s challenge \d+ of round \d+/ })
      .waitFor({ timeout: 20_000 });
    expect(await awaiting.innerText()).not.toMatch(/\br\d+c\d+\b/);
    // The first phase change of the transcript: words with a (?), not PENDING → EVALUATING and "nucleation: …".
    const first = transcript.locator('li.entry[data-type="phase_changed"]').first();
    // The (?) marks stay out of the words: each is a link to the glossary, checked below.
    const words = (text: string) => text.replace(/\?/g, '').replace(/\s+/g, ' ').trim();
    expect(words(await first.innerText())).toBe(
      'about to start → first scoring first scores: 6 evaluators score in parallel',
    );
    expect(
      await first.locator('[data-testid="help"]').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual(['#/glossary?term=PENDING', '#/glossary?term=EVALUATING', '#/glossary?term=nucleation']);
    await page.getByRole('progressbar', { name: 'Progress' }).waitFor();

    // A convergence chart opened mid-way follows the rounds as they finish.
    const chart = await tab(`#/convergence/${id}`);
    await chart
      .getByText(/No scores yet|Scores by round/)
      .first()
      .waitFor();
    const early = chart.getByTestId('convergence-chart');
    const roundsEarly = (await early.count()) === 0 ? 0 : Number(await early.getAttribute('data-rounds'));

    await s.screenshot('evaluation-live');

    await page.getByTestId('evaluation-status').getByText('locked').waitFor({ timeout: 60_000 });
    // Locked, the header says so once: no phase badge saying "locked" again beside it.
    expect(await page.getByTestId('evaluation-phase').count()).toBe(0);
    const overall = (await page.getByTestId('overall-score').innerText()).trim();
    expect(overall).toMatch(/^\d+\.\d\d$/);
    expect(await transcript.locator('li.entry[data-type="ruling"]').count()).toBeGreaterThan(0);
    expect(await transcript.locator('li.entry[data-type="evaluation_locked"]').count()).toBe(1);

    // The outcome card: the advice in words, the figures with their ranges, whether it converged,
    // the strongest and weakest criteria as the record has them, and the ways on.
    const done = await s.app.client.invoke('evaluations:get', { id });
    const card = page.getByTestId('eval-outcome');
    const byScore = done.criteria
      .filter((c) => c.score !== null)
      .sort((a, b) => (b.score as number) - (a.score as number) || a.name.localeCompare(b.name));
    const listed = (name: string) => card.getByTestId(name).locator('li').allInnerTexts();
    const outcome = {
      recommendation: await card.getByTestId('recommendation').innerText(),
      code: await card.getByTestId('recommendation').getAttribute('data-code'),
      overall: await card.getByTestId('overall-score').innerText(),
      labels: await card.locator('dt').allInnerTexts(),
      confidence: await card.getByTestId('outcome-confidence').innerText(),
      converged: await card.getByTestId('outcome-converged').innerText(),
      lock: await card.getByTestId('lock-badge').getAttribute('class'),
      strongest: await listed('strongest'),
      weakest: await listed('weakest'),
      links: await card
        .getByRole('navigation', { name: 'More on this evaluation' })
        .getByRole('link')
        .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')])),
    };
    const converged = done.lockReason === 'CONVERGENCE';
    expect(outcome).toEqual({
      recommendation: plainWords(done.recommendation as string),
      code: done.recommendation,
      overall,
      labels: ['Overall score (0–10)?', 'Confidence (0–1)?', 'Red-team survival (0–100%)?'],
      confidence: expect.stringMatching(
        new RegExp(
          `^${(done.confidence as number).toFixed(2)} of 1, (at or above|below) the 0\\.70 an evaluation needs`,
        ),
      ),
      converged: converged ? expect.stringMatching(/converged/) : expect.stringMatching(/read them as provisional/),
      lock: converged ? 'badge ok' : 'badge warn',
      strongest: byScore.slice(0, 3).map((c) => `${c.name} ${c.score}`),
      weakest: byScore
        .slice(-3)
        .reverse()
        .map((c) => `${c.name} ${c.score}`),
      links: [
        ['Convergence charts', `#/convergence/${id}`],
        ['Transcript', `#/transcript/evaluation/${id}`],
        ['Export the synthesis', `#/export?source=synthesis&id=${IDEA}`],
        ['Leaderboards', '#/leaderboards'],
      ],
    });
    await s.screenshot('evaluation-outcome');

    // The leaderboard tab updated by itself: the idea's row has its score, ranked first.
    await expect.poll(() => boardRow.locator('td').nth(2).innerText(), { timeout: 10_000 }).toBe(overall);
    expect(await boardRow.locator('td').first().innerText()).toBe('1');
    // Sorting from the keyboard: the title column's header, then Enter.
    await board.getByRole('button', { name: /^Idea/ }).focus();
    await board.keyboard.press('Enter');
    const titles = await board.locator('[data-testid="leaderboard-row"] td:nth-child(2)').allInnerTexts();
    expect(titles).toEqual(
      [...titles].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true })),
    );
    expect(await board.getByRole('columnheader', { name: /^Idea/ }).getAttribute('aria-sort')).toBe('ascending');
    await board.close();

    // The convergence tab: more rounds than when it opened, a line per criterion plus the overall,
    // the ±0.5 band, the four conditions and the lock reason.
    await chart.getByTestId('lock-reason').waitFor({ timeout: 10_000 });
    const rounds = Number(await chart.getByTestId('convergence-chart').getAttribute('data-rounds'));
    expect(rounds).toBeGreaterThan(roundsEarly);
    expect(await chart.locator('[data-testid="convergence-chart"] .recharts-line').count()).toBe(31);
    expect(
      await chart.locator('[data-testid="convergence-chart"] .recharts-line-dots circle').count(),
    ).toBeGreaterThanOrEqual(31 * rounds);
    expect(await chart.locator('[data-testid="convergence-chart"] .recharts-reference-area').count()).toBe(1);
    expect(await chart.locator('[data-testid="confidence-chart"] .recharts-line').count()).toBe(2);
    expect(await chart.locator('li.check').count()).toBe(4);
    expect(await chart.getByTestId('lock-reason').innerText()).toMatch(
      /^locked: (scores settled|round limit reached \(not converged\))$/,
    );
    await chart.close();

    // The same chart in the main window, for its picture.
    await page.goto(`${s.server.url}#/convergence/${id}`);
    await page.locator('[data-testid="convergence-chart"] .recharts-line').first().waitFor({ state: 'attached' });
    await s.screenshot('convergence');

    await page.goto(`${s.server.url}#/leaderboards`);
    await page.locator(`[data-testid="leaderboard-row"][data-slug="${IDEA}"]`).waitFor();
    await s.screenshot('leaderboards');

    // The matrix: the idea's 30 cells scored, the others' gaps; a cell opens its idea.
    await page.goto(`${s.server.url}#/matrix`);
    const row = page.locator(`[data-testid="matrix-row"][data-slug="${IDEA}"]`);
    await row.waitFor();
    const cells = row.locator('[role="gridcell"].heat');
    expect(await cells.count()).toBe(30);
    expect(await row.locator('.heat.gap').count()).toBe(0);
    const other = page.locator('[data-testid="matrix-row"]').nth(1);
    expect(await other.locator('.heat.gap').count()).toBe(30);
    await s.screenshot('matrix');
    await cells.first().click();
    await page.waitForURL(new RegExp(`#/idea/${IDEA}$`));

    // Back on the idea page, the panel shows the locked evaluation.
    const summary = page.getByTestId('evaluation-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain(overall);
    expect(await summary.innerText()).toMatch(/locked: (scores settled|round limit reached)/);
    // The advice in words with its code in the tooltip; each category's weight labelled, with a (?).
    expect({
      advice: await summary.getByTestId('recommendation').innerText(),
      code: await summary.getByTestId('recommendation').getAttribute('data-code'),
      weights: await page.getByTestId('weight').allInnerTexts(),
    }).toEqual({
      advice: plainWords(done.recommendation as string),
      code: done.recommendation,
      weights: done.categories.map((c) => `weight ×${c.weight}?`),
    });
    expect(await page.getByRole('table', { name: 'Red-team challenges' }).locator('tbody tr').count()).toBeGreaterThan(
      0,
    );

    expect(s.problems).toEqual([]);
  }, 180_000);

  it('shows a lock on the round limit in amber, in words, on the convergence view and its list', async () => {
    const { page } = s;
    // One round, and a confidence no first round reaches: it locks on the round limit, unconverged.
    const { id } = await s.app.client.invoke('evaluations:start', {
      slug: 'city-lichens-field-guide',
      mode: 'quick',
      provider: 'simulated',
      options: { minConfidence: 0.9 },
    });
    await expect
      .poll(async () => (await s.app.client.invoke('evaluations:get', { id })).status, { timeout: 60_000 })
      .toBe('completed');
    expect((await s.app.client.invoke('evaluations:get', { id })).lockReason).toBe('MAX_ROUNDS');

    await page.goto(`${s.server.url}#/convergence/${id}`);
    const badge = page.getByTestId('lock-reason');
    await badge.waitFor();
    const decision = page.getByTestId('convergence-decision');
    const view = {
      text: await badge.innerText(),
      tone: await badge.getAttribute('class'),
      code: await badge.getAttribute('data-code'),
      colour: await badge.evaluate((el) => getComputedStyle(el).color),
      decision: await decision.innerText(),
      codes: await page.locator('main').evaluate((m) => /MAX_ROUNDS/.test((m as HTMLElement).innerText)),
    };
    const tone = (name: string) =>
      page.evaluate((n) => {
        const probe = document.createElement('span');
        probe.className = `badge ${n}`;
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      }, name);
    expect(view).toEqual({
      text: 'locked: round limit reached (not converged)',
      tone: 'badge warn',
      code: 'MAX_ROUNDS',
      colour: await tone('warn'),
      decision: 'not converged → lock (round limit reached?)',
      codes: false,
    });
    expect(view.colour).not.toBe(await tone('ok'));

    // The list of every evaluation: the same amber badge on its row.
    await page.goto(`${s.server.url}#/convergence`);
    const row = page.getByRole('row').filter({ has: page.locator(`a[href="#/convergence/${id}"]`) });
    await row.waitFor();
    expect({
      text: await row.getByTestId('row-lock').innerText(),
      tone: await row.getByTestId('row-lock').getAttribute('class'),
    }).toEqual({ text: 'locked: round limit reached (not converged)', tone: 'badge warn' });
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('says about how many more rounds while it runs, and Add round, with its cost, grants one more', async () => {
    const { page } = s;
    const slug = 'ebike-repair-workshop';
    const { id } = await s.app.client.invoke('evaluations:start', { slug, mode: 'standard', provider: 'simulated' });
    await page.goto(`${s.server.url}#/evaluation/${id}`);
    await page.getByTestId('evaluation-status').getByText('running').waitFor();
    const get = () => s.app.client.invoke('evaluations:get', { id });
    // The header's prediction is the one evaluations:get gives (the live view follows it as rounds end).
    const prediction = page.getByTestId('evaluation-prediction');
    await prediction.waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await prediction.innerText()).startsWith(`Prediction: ${(await get()).prediction?.text}`), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(await prediction.innerText()).toMatch(/^Prediction: about \d+ more rounds? /);

    // Add round says what the round would cost before it is granted.
    const add = page.getByRole('button', { name: /^Add round/ });
    await add.waitFor();
    const preview = (await get()).addRoundPreview;
    expect(preview?.worstCalls).toBeGreaterThan(0);
    expect(await add.getByTestId('add-round-preview').innerText()).toBe(' (~$0, ≤ $0)');
    expect(await add.getAttribute('title')).toContain(preview?.basis as string);
    await add.click();
    await page.getByText('round', { exact: false }).filter({ hasText: /of 4$/ }).first().waitFor();
    expect((await get()).roundLimit).toBe(4);
    await s.screenshot('evaluation-add-round');
    // The idea page's link to it says the phase in words, the code on hover.
    await page.goto(`${s.server.url}#/idea/${slug}`);
    const follow = page.getByRole('link', { name: /^Follow the standard evaluation live/ });
    await follow.waitFor();
    const phaseNow = (await follow.getAttribute('title'))?.replace(/^phase: /, '') ?? '';
    expect(phaseNow).toMatch(/^[A-Z]+$/);
    expect(await follow.innerText()).toMatch(/^Follow the standard evaluation live \([a-z ]+, round \d+\)$/);
    await page.goto(`${s.server.url}#/evaluation/${id}`);
    await page.getByTestId('evaluation-status').getByText('running').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(async () => (await get()).status, { timeout: 30_000 }).toBe('paused');
    // Why it stopped, in words; the log's code on hover.
    const why = page.getByTestId('stop-reason');
    await why.waitFor();
    expect({ text: await why.innerText(), code: await why.getAttribute('data-code') }).toEqual({
      text: '(you stopped it)',
      code: 'cancelled',
    });
    expect(s.problems).toEqual([]);
  }, 120_000);
});
