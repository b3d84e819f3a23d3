import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { chromiumPath, sessionPerFile } from './harness';

/** The README of the idea folder whose README contains `text`, or null. */
function findReadme(root: string, text: string): { slug: string; content: string } | null {
  for (const slug of readdirSync(join(root, 'ideas'))) {
    try {
      const content = readFileSync(join(root, 'ideas', slug, 'README.md'), 'utf8');
      if (content.includes(text)) return { slug, content };
    } catch {
      // not an idea folder (_index.md …)
    }
  }
  return null;
}

describe.skipIf(!chromiumPath)('library, idea page, pipeline, graph, settings and export in browser mode', () => {
  const { s, ws, go } = sessionPerFile();

  it('captures an idea typed into the capture box: it is listed and its README is in the folder', async () => {
    const { page } = s;
    await page.getByRole('textbox', { name: 'Idea title' }).fill('Tidal kites for river ferries');
    await page
      .getByRole('textbox', { name: 'Idea text' })
      .fill('Kites that pull small ferries across the estuary on the ebb.');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.locator('.library-row[data-slug="tidal-kites-for-river-ferries"]').waitFor();
    const readme = readFileSync(join(ws.root, 'ideas', 'tidal-kites-for-river-ferries', 'README.md'), 'utf8');
    expect(readme).toMatch(/^---\n[\s\S]*title: .*Tidal kites for river ferries/);
    expect(readme).toContain('Kites that pull small ferries across the estuary on the ebb.');
    expect(s.problems).toEqual([]);
  });

  it('captures an idea from a markdown file dropped on the drop zone', async () => {
    const { page } = s;
    // A real DataTransfer holding a real File, built in the page, as a drop from the desktop carries.
    const dataTransfer = await page.evaluateHandle(() => {
      const page = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: string[], name: string, options: { type: string }) => unknown;
      };
      const dt = new page.DataTransfer();
      const text = '# Moss walls for bus shelters\n\nLiving walls of moss that cool bus shelters in summer.\n';
      dt.items.add(new page.File([text], 'moss-walls.md', { type: 'text/markdown' }));
      return dt;
    });
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
    await page.getByRole('link', { name: 'Moss walls for bus shelters' }).waitFor();
    const found = findReadme(ws.root, 'Living walls of moss that cool bus shelters');
    expect(found?.slug).toBe('moss-walls-for-bus-shelters');
    await s.screenshot('library');
    expect(s.problems).toEqual([]);
  });

  it('shows an idea written into the folder by another program without a reload', async () => {
    const { page } = s;
    const before = await page.evaluate(() => performance.timeOrigin);
    mkdirSync(join(ws.root, 'ideas', 'written-elsewhere'));
    const started = Date.now();
    writeFileSync(
      join(ws.root, 'ideas', 'written-elsewhere', 'README.md'),
      '---\ntitle: "Written by another editor"\nstage: SPARK\ntags: [outside]\n---\n# Written by another editor\n\nSaved by a text editor.\n',
    );
    await page.getByRole('link', { name: 'Written by another editor' }).waitFor({ timeout: 5000 });
    const elapsed = Date.now() - started;
    // Same document: no navigation or reload happened.
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(before);
    expect(elapsed).toBeLessThan(2000);
    expect(s.problems).toEqual([]);
  });

  it('cancels the development agent while it asks, and nothing is written', async () => {
    const { page } = s;
    const folder = join(ws.root, 'ideas', 'community-solar-coop');
    const before = readdirSync(folder, { recursive: true });
    const latency = process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    // The simulator answers after 20 s unless the call is cancelled (read at each call).
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '20000';
    try {
      await go('#/idea/community-solar-coop');
      await page.getByRole('button', { name: 'Ask what is missing' }).click();
      await page.getByRole('button', { name: 'Asking…' }).waitFor();
      const started = Date.now();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Cancelled: nothing was asked or written.' }).waitFor();
      expect(Date.now() - started).toBeLessThan(10_000);
      await page.getByRole('button', { name: 'Ask what is missing' }).waitFor();
      expect(await page.locator('#develop .error-notice, #develop [role="alert"]').count()).toBe(0);
    } finally {
      if (latency === undefined) delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
      else process.env.CRUCIBLE_SIMULATED_LATENCY_MS = latency;
    }
    expect(readdirSync(folder, { recursive: true })).toEqual(before);
    // The browser logs the cancelled call's refusal (a user_error answers 422); nothing else.
    expect(s.problems.splice(0)).toEqual([expect.stringMatching(/^console: .*422/)]);
  });

  it('moves an idea to another stage by dragging its card on the pipeline, editing the README frontmatter', async () => {
    const { page } = s;
    await go('#/pipeline');
    const card = page.locator('.pipeline-card[data-slug="community-solar-coop"]');
    const research = page.locator('.pipeline-column[data-stage="RESEARCH"]');
    await card.waitFor();
    expect(
      await page
        .locator('.pipeline-column[data-stage="CLARIFY"] .pipeline-card[data-slug="community-solar-coop"]')
        .count(),
    ).toBe(1);
    await card.dragTo(research);
    await research.locator('.pipeline-card[data-slug="community-solar-coop"]').waitFor();
    const readme = join(ws.root, 'ideas', 'community-solar-coop', 'README.md');
    await expect
      .poll(() => /^stage: (\S+)/m.exec(readFileSync(readme, 'utf8'))?.[1], { timeout: 5000 })
      .toBe('RESEARCH');
    // Only the stage and updated lines changed: the rest of the README is as it was.
    expect(readFileSync(readme, 'utf8')).toContain('reason: "Both would need my savings');
    await s.screenshot('pipeline');
    expect(s.problems).toEqual([]);
  });

  it('hides the empty stages until asked, shows them all while a card is dragged, and takes a card dropped on one', async () => {
    const { page } = s;
    await go('#/pipeline');
    const columns = page.locator('.pipeline-column');
    await page.locator('.pipeline-card').first().waitFor();
    const stages = (await s.app.client.invoke('taxonomy:get', {})).stages.map((st) => st.id);
    const { ideas } = await s.app.client.invoke('ideas:list', {});
    const used = new Set(ideas.map((i) => i.stage));
    const empty = stages.filter((id) => !used.has(id));
    expect(empty.length).toBeGreaterThan(0);
    // Only the stages holding an idea are drawn, and the box says how many are left out.
    expect(await columns.evaluateAll((cs) => cs.map((c) => c.getAttribute('data-stage')))).toEqual(
      stages.filter((id) => used.has(id)),
    );
    const box = page.getByRole('checkbox', { name: new RegExp(`^Show the ${empty.length} empty stages`) });
    await box.check();
    await expect.poll(() => columns.count()).toBe(stages.length);
    await box.uncheck();
    await expect.poll(() => columns.count()).toBe(used.size);

    // Picking a card up shows every stage; it is dropped on an empty one, which then holds it.
    const slug = ideas[0]?.slug as string;
    const target = empty[0] as string;
    const card = page.locator(`.pipeline-card[data-slug="${slug}"]`);
    await card.hover();
    await page.mouse.down();
    const from = await card.boundingBox();
    if (!from) throw new Error('the card is not drawn');
    await page.mouse.move(from.x + from.width / 2 + 30, from.y + from.height / 2 + 30, { steps: 5 });
    const drop = page.locator(`.pipeline-column[data-stage="${target}"]`);
    await drop.waitFor();
    expect(await columns.count()).toBe(stages.length);
    await drop.hover();
    await page.mouse.up();
    await page.locator(`.pipeline-column[data-stage="${target}"] .pipeline-card[data-slug="${slug}"]`).waitFor();
    const readme = join(ws.root, 'ideas', slug, 'README.md');
    await expect.poll(() => /^stage: (\S+)/m.exec(readFileSync(readme, 'utf8'))?.[1], { timeout: 5000 }).toBe(target);
    // Let go, the board hides the empty stages again: the target is one no more.
    await expect.poll(() => columns.count()).toBeLessThan(stages.length);
    expect(await drop.count()).toBe(1);
    expect(s.problems).toEqual([]);
  });

  it('moves a card from the keyboard: its stage list holds every stage once reached', async () => {
    const { page } = s;
    await go('#/pipeline');
    const { ideas } = await s.app.client.invoke('ideas:list', {});
    const stages = (await s.app.client.invoke('taxonomy:get', {})).stages;
    const idea = ideas[0];
    if (!idea) throw new Error('no idea');
    const select = page.getByRole('combobox', { name: `Stage of ${idea.title}` });
    await select.waitFor();
    // Only its own stage until the list is reached (19 lists of 19 stages per column were slow).
    expect(await select.locator('option').allInnerTexts()).toEqual([stages.find((st) => st.id === idea.stage)?.name]);
    await select.focus();
    await expect.poll(() => select.locator('option').count()).toBe(stages.length);
    const target = stages.find((st) => st.id !== idea.stage) as (typeof stages)[number];
    await select.selectOption(target.id);
    const readme = join(ws.root, 'ideas', idea.slug, 'README.md');
    await expect
      .poll(() => /^stage: (\S+)/m.exec(readFileSync(readme, 'utf8'))?.[1], { timeout: 5000 })
      .toBe(target.id);
    expect(s.problems).toEqual([]);
  });

  it('draws the relationship graph, with the same relationships as a list', async () => {
    const { page } = s;
    await go('#/graph');
    await page.locator('.graph-canvas canvas').first().waitFor();
    const rows = page.locator('.graph-table tbody tr');
    await rows.first().waitFor();
    expect(await rows.filter({ hasText: 'conflicts' }).count()).toBeGreaterThan(0);
    await s.screenshot('graph');
    expect(s.problems).toEqual([]);
  });

  it('saves a budget from the settings page into settings.md and shows whether a key is stored, never the key', async () => {
    const { page } = s;
    await go('#/settings');
    await page.getByRole('heading', { name: 'Budgets and concurrency' }).waitFor();
    const form = page.getByRole('form', { name: 'Budgets and concurrency' });
    await form.getByRole('spinbutton', { name: /Budget of one evaluation/ }).fill('4.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Budgets and concurrency saved' }).waitFor();
    expect(readFileSync(join(ws.root, 'settings.md'), 'utf8')).toMatch(/^evaluationBudgetUsd: 4\.5$/m);
    await page.getByText('This mode has no keychain').waitFor();
    await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
    await s.screenshot('settings');
    expect(s.problems).toEqual([]);
  });

  it('exports the synthesis of an evaluated idea as a real PDF download', async () => {
    const { page } = s;
    // A simulated evaluation, run by the service the CLI uses, as another process would.
    const other = Workspace.open(ws.root);
    try {
      await new EvaluationService(other).evaluate('llm-judge-calibration', {
        mode: 'quick',
        provider: 'simulated',
        seed: 1,
      });
    } finally {
      other.close();
    }
    await go('#/idea/llm-judge-calibration');
    await page.getByRole('heading', { name: /LLM|judge/i, level: 1 }).waitFor();
    await page.getByRole('article', { name: 'README' }).waitFor();
    await s.screenshot('idea');

    await go('#/export?source=synthesis&id=llm-judge-calibration&format=pdf');
    const button = page.getByRole('button', { name: 'Export and download' });
    await expect.poll(() => button.isEnabled(), { timeout: 5000 }).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
    expect(download.suggestedFilename()).toBe('llm-judge-calibration-synthesis.pdf');
    const path = await download.path();
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
    await page.getByText('llm-judge-calibration-synthesis.pdf').waitFor();
    // The evaluation was indexed by the other process before the app's watcher looked: the page
    // still hears of it and offers the idea it has just exported, not "no idea is evaluated yet".
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Idea' }).inputValue(), { timeout: 10_000 })
      .toBe('llm-judge-calibration');
    expect(await page.getByTestId('not-exportable').textContent()).not.toContain('has no synthesis yet');
    await s.screenshot('export');
    expect(s.problems).toEqual([]);

    // Cancelled while Chromium prints: the page stops waiting, the main side stops printing, and no
    // file is handed over.
    let downloads = 0;
    page.on('download', () => downloads++);
    await button.click();
    await page.getByRole('button', { name: 'Exporting…' }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Cancelled: nothing was exported.' }).waitFor();
    await expect.poll(() => s.problems.length, { timeout: 30_000 }).toBe(1);
    // The browser logs the cancelled export's refusal (a user_error answers 422); nothing else.
    expect(s.problems.splice(0)).toEqual([expect.stringMatching(/^console: .*422/)]);
    expect(downloads).toBe(0);
    expect(await page.getByRole('button', { name: 'Export and download' }).isEnabled()).toBe(true);
  }, 120_000);
});
