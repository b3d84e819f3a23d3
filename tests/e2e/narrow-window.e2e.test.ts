import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, finishedDebate, lockedEvaluation, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/**
 * The app at 1,024 × 700 (issue 22): the evaluation's three columns as tabs instead of ~60 px
 * strips, Convergence's pickers inside their cards, the library's capture area folded so the list
 * gets the height.
 */
describe.skipIf(!chromiumPath)('a 1,024 × 700 window', () => {
  const { s, go } = sessionPerFile({ viewport: { width: 1024, height: 700 } });
  let evaluation = '';

  beforeAll(async () => {
    // Standard mode runs more than one round, so the checklist's "After round" picker is there too.
    evaluation = await lockedEvaluation(s.app, IDEA, 'standard');
  }, 180_000);

  it('shows the evaluation’s columns as tabs, one at a time at full width and height', async () => {
    const { page } = s;
    await go(`#/evaluation/${evaluation}`);
    const tabs = page.getByRole('tablist', { name: 'Columns' }).getByRole('tab');
    await tabs.first().waitFor();
    expect(await tabs.count()).toBe(3);
    const columns = page.getByTestId('eval-columns');
    for (const name of ['Evaluators', 'Transcript', 'Red team']) {
      await tabs.filter({ hasText: name }).click();
      const shown = page.getByRole('tabpanel', { name });
      await shown.waitFor();
      expect(await columns.locator('.eval-column:visible').count()).toBe(1);
      const [panel, row] = await Promise.all([shown.boundingBox(), columns.boundingBox()]);
      expect(panel?.width).toBeGreaterThan((row?.width ?? 0) - 4);
      expect(panel?.height).toBeGreaterThan(300);
      // Its entries have room: more than one in sight, not a strip showing one.
      const entries = await shown.locator('.entries').boundingBox();
      expect(entries?.height).toBeGreaterThan(200);
    }
    await s.screenshot('evaluation-1024');
    expect(s.problems).toEqual([]);
  }, 60_000);

  /** Every select of the convergence view ends inside its card and the view; nothing scrolls sideways. */
  async function selectsFit() {
    const { page } = s;
    const view = await page.locator('section.view.convergence').boundingBox();
    if (!view) throw new Error('no convergence view');
    for (const select of await page.locator('section.view.convergence select').all()) {
      const box = await select.boundingBox();
      if (!box) continue;
      expect(box.x + box.width).toBeLessThanOrEqual(view.x + view.width + 1);
      const card = await select.evaluate((el) => el.closest('.card')?.getBoundingClientRect().right ?? null);
      if (card !== null) expect(box.x + box.width).toBeLessThanOrEqual(card);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  }

  it('keeps Convergence’s pickers inside their cards', async () => {
    const { page } = s;
    await go(`#/convergence/${evaluation}`);
    await page.getByTestId('convergence-chart').waitFor();
    expect(await page.locator('section.view.convergence select').count()).toBe(3);
    await selectsFit();
    await s.screenshot('convergence-1024');

    // A debate's thread picker names its cruxes in full: long questions once pushed it past its card.
    const id = await finishedDebate(s.app, IDEA, 4);
    await go(`#/convergence/debate/${id}`);
    await page.getByTestId('positions-chart').waitFor();
    await selectsFit();
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('folds the library’s capture area so more rows show, and opens it on use', async () => {
    const { page } = s;
    await go('#/library');
    const capture = page.getByRole('form', { name: 'Capture an idea' });
    await capture.waitFor();
    const text = capture.getByRole('textbox', { name: 'Idea text' });
    expect(await text.isVisible()).toBe(false);
    const box = await page.locator('.library-capture').boundingBox();
    expect(box?.height).toBeLessThan(120);
    await capture.getByRole('textbox', { name: 'Idea title' }).fill('A folded capture box');
    expect(await text.isVisible()).toBe(true);
    await capture.getByRole('textbox', { name: 'Idea title' }).fill('');
    await page.getByRole('searchbox', { name: 'Search ideas' }).focus();
    expect(await text.isVisible()).toBe(false);
    await s.screenshot('library-1024');
    expect(s.problems).toEqual([]);
  }, 60_000);
});
