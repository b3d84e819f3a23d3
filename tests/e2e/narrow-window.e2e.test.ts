import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, finishedDebate, lockedEvaluation, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/**
 * The app at 1,024 × 700 (issue 22): the evaluation's three columns as tabs instead of ~60 px
 * strips, Convergence's pickers inside their cards, the library's capture area folded so the list
 * gets the height, the leaderboard's and the library's columns inside their tables.
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

  /** The right edge of everything `cells` finds, with what it is, against the right edge of `inside`. */
  async function rightEdges(cells: ReturnType<typeof s.page.locator>, inside: ReturnType<typeof s.page.locator>) {
    const box = await inside.boundingBox();
    if (!box) throw new Error('the container is not drawn');
    const out: { text: string; over: number }[] = [];
    for (const cell of await cells.all()) {
      const b = await cell.boundingBox();
      if (b) out.push({ text: (await cell.innerText()).trim(), over: Math.round(b.x + b.width - (box.x + box.width)) });
    }
    return out;
  }

  it('keeps every leaderboard column inside the board: rank and title pinned, the others in two groups', async () => {
    const { page } = s;
    await go('#/leaderboards');
    const board = page.getByTestId('leaderboard-ideas');
    await board.getByTestId('leaderboard-row').first().waitFor();
    const { categories } = await s.app.client.invoke('evaluations:leaderboard', {});
    // The board decides it is too narrow once it has been laid out with its categories.
    await page.getByRole('group', { name: 'Columns shown' }).waitFor();
    const groups = page.getByRole('group', { name: 'Columns shown' }).getByRole('button');
    expect(await groups.count()).toBe(2);
    const seen = new Set<string>();
    for (const group of await groups.all()) {
      await group.click();
      expect(await group.getAttribute('aria-pressed')).toBe('true');
      const headers = await rightEdges(board.locator('thead th'), board);
      // Nothing ends past the board's right edge (nothing scrolls sideways).
      expect(headers.filter((h) => h.over > 0)).toEqual([]);
      expect(await board.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      const cells = await rightEdges(board.getByTestId('leaderboard-row').first().locator('td'), board);
      expect(cells.filter((c) => c.over > 0)).toEqual([]);
      for (const h of headers) seen.add(h.text.replace(/ [▲▼]$/, ''));
      // Rank, title and overall stay; the title keeps room to be read (it was cut to 14 characters).
      const title = await board.locator('thead th.col-title').evaluate((th) => th.getBoundingClientRect().width);
      expect(title).toBeGreaterThanOrEqual(220);
      if (headers.some((h) => h.text.startsWith(categories[0]?.name ?? '-'))) await s.screenshot('leaderboards-1024');
    }
    // Between the two groups, every column of the board is shown.
    expect([...seen].sort()).toEqual(
      [
        '#',
        'Idea',
        'Overall',
        ...categories.map((c) => c.name),
        'Confidence',
        'Survival',
        'Stage',
        'Stale',
        'Evaluated',
      ].sort(),
    );
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('ends every column of the library inside its table, the last debate too', async () => {
    const { page } = s;
    // A debate of its own, so a row has a last debate to show.
    await finishedDebate(s.app, IDEA, 2);
    await go('#/library');
    const table = page.locator('.library-table');
    const header = table.locator('.library-header');
    await header.waitFor();
    const headers = await rightEdges(header.locator(':scope > div'), table);
    expect(headers.map((h) => h.text)).toContain('Last debate');
    expect(headers.filter((h) => h.over > 0)).toEqual([]);
    // A row with a debate: its date and status end inside too.
    const row = table.locator(`.library-row[data-slug="${IDEA}"]`);
    await row.locator('.c-debate a').waitFor();
    const cells = await rightEdges(row.locator(':scope > div'), table);
    expect(cells.filter((c) => c.over > 0)).toEqual([]);
    // …and are not cut: the date and the status in full.
    const debate = row.locator('.c-debate');
    expect(await debate.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(s.problems).toEqual([]);
  }, 60_000);
});
