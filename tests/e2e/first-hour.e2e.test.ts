import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, chromiumPath, openSession, sampleWorkspace } from './harness';

const IDEA = 'community-solar-coop';

/**
 * What a researcher meets in the first hour (issue 22): the main actions in sight, outcomes that
 * say what a debate found, protocol words explained, colours that mean one thing, lists that tell
 * the truth.
 */
describe.skipIf(!chromiumPath)('a researcher’s first hour', () => {
  const ws = sampleWorkspace();
  let s: Session;
  /** Moves the page to a route (the tests' tsconfig has no DOM types: the page's globals are typed here). */
  const go = (hash: string) =>
    s.page.evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, hash);

  beforeAll(async () => {
    s = await openSession(ws.root);
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    ws.cleanup();
  });

  it('puts Evaluate and Start a crux debate in the idea header and the palette, each with its cost', async () => {
    const { page } = s;
    await go(`#/idea/${IDEA}`);
    const header = page.locator('header.idea-head');
    await header.getByRole('heading', { level: 1 }).waitFor();
    // Both actions are in the first screen, without scrolling past the README.
    for (const name of ['Evaluate…', 'Start a crux debate…']) {
      const button = header.getByRole('button', { name, exact: true });
      const box = await button.boundingBox();
      expect(box && box.y + box.height).toBeLessThan(900);
    }
    await header.getByRole('button', { name: 'Start a crux debate…', exact: true }).click();
    const opened = page.getByRole('region', { name: 'Start a crux debate (from the header)' });
    await opened.getByRole('combobox', { name: 'Provider' }).selectOption('simulated');
    await opened.getByTestId('estimate').filter({ hasText: 'Likely cost: $0' }).waitFor();
    await header.getByRole('button', { name: 'Evaluate…', exact: true }).click();
    const evaluate = page.getByRole('region', { name: 'Evaluate this idea (from the header)' });
    await evaluate.getByTestId('evaluation-estimate').waitFor();
    expect(await opened.count()).toBe(0);
    await evaluate.getByRole('button', { name: 'Close' }).click();
    expect(await evaluate.count()).toBe(0);

    // The palette offers every action of the idea in view, the debate among them.
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Command' }).fill('crux debate');
    const options = page.getByRole('listbox', { name: 'Commands' }).getByRole('option');
    await options.first().waitFor();
    expect(await options.first().textContent()).toContain('Start a crux debate about');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Start a crux debate (from the header)' }).waitFor();
    await s.screenshot('idea-actions');
    expect(s.problems).toEqual([]);
  }, 60_000);
});
