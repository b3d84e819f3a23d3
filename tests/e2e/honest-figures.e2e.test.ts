import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, chromiumPath, openSession, sampleWorkspace } from './harness';

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
  const ws = sampleWorkspace();
  let s: Session;
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

  /** Runs a quick simulated evaluation of the idea until it locks and answers its id. */
  async function lockedEvaluation(): Promise<string> {
    const { id } = await s.app.client.invoke('evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' });
    const until = Date.now() + 90_000;
    while ((await s.app.client.invoke('evaluations:get', { id })).status !== 'locked') {
      if (Date.now() > until) throw new Error('the simulated evaluation did not lock');
      await new Promise((r) => setTimeout(r, 200));
    }
    return id;
  }

  it('draws scores as steps, the criteria as small multiples per category, and labels that can be read', async () => {
    const { page } = s;
    const id = await lockedEvaluation();
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
});
