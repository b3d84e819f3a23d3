import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUiBenchWorkspace, type UiBenchWorkspace } from '../../bench/ui/workspace';
import { DRAWN_LIMIT } from '../../renderer/src/views/graph/graph-model';
import { chromiumPath, openSession, ROOT, type Session } from './harness';

/** Ideas in the generated library: past the graph's drawing limit, and past 20 cards a stage. */
const IDEAS = 700;

/** What cytoscape drew in the graph view (its instance hangs on its container). */
async function drawnNodes(session: Session): Promise<string[]> {
  return session.page.evaluate(() => {
    // biome-ignore lint/suspicious/noExplicitAny: cytoscape's own registry on its container
    const element = document.querySelector('.graph-canvas[data-laid-out]') as any;
    // biome-ignore lint/suspicious/noExplicitAny: cytoscape nodes
    return element._cyreg.cy.nodes().map((n: any) => n.id() as string);
  });
}

const hash = (session: Session, to: string) =>
  session.page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, to);

/**
 * A library of 700 generated ideas, each evaluated (issue 22, "at 2,000 ideas"): the graph drawn as
 * groups with a way into each and a search, the matrix and the transcripts list drawing only the
 * rows in view, the pipeline drawing 20 cards a stage with "show more".
 */
describe.skipIf(!chromiumPath)('a library of 700 evaluated ideas', () => {
  let bench: UiBenchWorkspace;
  let s: Session;
  beforeAll(async () => {
    bench = await buildUiBenchWorkspace(IDEAS, 100);
    s = await openSession(bench.root);
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    bench?.dispose();
  });

  it('draws the graph as groups with their links counted, opens a group, and finds one idea’s neighbourhood', async () => {
    const { page } = s;
    await hash(s, '#/graph');
    await page.locator('.graph-canvas[data-laid-out]').waitFor({ timeout: 60_000 });
    const scale = page.getByTestId('graph-scale');
    await expect.poll(() => scale.innerText()).toMatch(/too many to draw one by one/);
    const { stages } = await s.app.client.invoke('taxonomy:get', {});
    const groups = await drawnNodes(s);
    // One node per stage holding a linked idea, never one per idea.
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.length).toBeLessThanOrEqual(stages.length + 1);
    expect(groups.every((id) => id.startsWith('group:'))).toBe(true);
    const table = page.getByRole('table', { name: 'Relationships between groups' });
    const counted = (await table.locator('td.num').allInnerTexts()).reduce((n, t) => n + Number(t), 0);
    // Every relationship shown is counted once: between two groups or inside one.
    const all = Number(/(\d+) relationships/.exec(await page.getByTestId('graph-count').innerText())?.[1]);
    expect(counted).toBe(all);
    await s.screenshot('graph-groups');

    // A group opens from the list (the keyboard's way to the node's click): its ideas, no group.
    await table.getByRole('link').first().click();
    await page.waitForFunction(() => window.location.hash.includes('group='));
    await expect
      .poll(async () => (await drawnNodes(s).catch(() => ['group:x'])).some((id) => id.startsWith('group:')))
      .toBe(false);
    const opened = await drawnNodes(s);
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.length).toBeLessThanOrEqual(DRAWN_LIMIT);
    await expect.poll(() => scale.innerText()).toMatch(/ideas and the links between them|most connected/);

    // Find an idea: it is drawn with the ideas around it.
    const { ideas } = await s.app.client.invoke('ideas:list', {});
    const { relationships } = await s.app.client.invoke('ideas:relationships', {});
    const linked = ideas.find((i) => relationships.some((r) => r.source === i.slug)) ?? ideas[0];
    if (!linked) throw new Error('no idea generated');
    await page.getByRole('searchbox', { name: 'Find an idea in the graph' }).fill(linked.title);
    await page.getByRole('list', { name: 'Ideas found' }).getByRole('link', { name: linked.title }).first().click();
    await page.waitForFunction((slug) => window.location.hash.includes(`focus=${slug}`), linked.slug);
    await expect.poll(async () => (await drawnNodes(s).catch((): string[] => [])).includes(linked.slug)).toBe(true);
    const near = await drawnNodes(s);
    const neighbours = relationships.filter((r) => r.source === linked.slug).map((r) => r.target);
    for (const slug of neighbours) expect(near).toContain(slug);
    expect(await scale.innerText()).toContain(`“${linked.title}” and the ideas within two links of it`);
    expect(s.problems).toEqual([]);
  });

  it('draws only the matrix rows in view, and moves through them from the keyboard', async () => {
    const { page } = s;
    await hash(s, '#/matrix');
    const matrix = page.getByTestId('matrix');
    await page.locator('[data-testid="matrix-row"]').first().waitFor({ timeout: 60_000 });
    expect(await page.getByRole('grid', { name: 'Ideas by criteria' }).getAttribute('aria-rowcount')).toBe(
      String(IDEAS + 2),
    );
    const drawn = await page.locator('[data-testid="matrix-row"]').count();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(80);
    // Every idea is evaluated: each drawn row shows as many gaps as its evaluation left.
    const { ideas: rows } = await s.app.client.invoke('evaluations:matrix', {});
    const slugs = await page
      .locator('[data-testid="matrix-row"]')
      .evaluateAll((rs) => rs.map((r) => r.getAttribute('data-slug')));
    const gaps = slugs.reduce(
      (n, slug) => n + (rows.find((r) => r.slug === slug)?.scores.filter((x) => x === null).length ?? 30),
      0,
    );
    expect(await page.locator('[data-testid="matrix-row"] .heat.gap').count()).toBe(gaps);
    expect(gaps).toBeLessThan(drawn * 30);
    const first = page.locator('[data-cell="0:0"]');
    await first.focus();
    for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-cell'))).toBe('40:29');
    // The rows scrolled with the focus: the first ones are not drawn any more.
    expect(await page.locator('[data-cell="0:0"]').count()).toBe(0);
    // While it scrolls, rows come as strips of their colours; still, they get their cells back.
    const strips = await matrix.evaluate(
      (el) =>
        new Promise<number>((done) => {
          let frames = 0;
          const tick = () => {
            el.scrollTop += 400;
            if (++frames < 10) requestAnimationFrame(tick);
            else
              requestAnimationFrame(() => requestAnimationFrame(() => done(el.querySelectorAll('.heat-strip').length)));
          };
          requestAnimationFrame(tick);
        }),
    );
    expect(strips).toBeGreaterThan(5);
    await expect.poll(() => page.locator('.heat-strip').count()).toBe(0);
    await matrix.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.locator(`[data-cell="${IDEAS - 1}:0"]`).waitFor();
    expect(s.problems).toEqual([]);
  });

  it('draws only the transcript rows in view, every evaluation counted', async () => {
    const { page } = s;
    await hash(s, '#/transcripts');
    const table = page.getByRole('table', { name: 'Transcripts' });
    await table.locator('tr[data-kind]').first().waitFor({ timeout: 120_000 });
    // Every idea's evaluation and the one debate, and the header row.
    expect(await table.getAttribute('aria-rowcount')).toBe(String(IDEAS + 1 + 1));
    expect(await table.locator('tr[data-kind]').count()).toBeLessThan(80);
    // Entries nobody had counted (this app never listed them) are counted in the background: the
    // rows say "counting…" meanwhile, and the page asks again on each push until none does.
    await expect
      .poll(
        async () => (await page.getByTestId('listing-note').count()) + (await table.getByText('counting…').count()),
        {
          timeout: 240_000,
          interval: 250,
        },
      )
      .toBe(0);
    const row = table.locator('tr[data-kind="evaluation"]').first();
    const id = /#\/transcript\/evaluation\/([^/?]+)/.exec(
      (await row.locator('a').first().getAttribute('href')) ?? '',
    )?.[1];
    if (!id) throw new Error('no evaluation row drawn');
    const { entries } = await s.app.client.invoke('transcripts:get', { kind: 'evaluation', id });
    expect(await row.locator('td.num').innerText()).toBe(String(entries.length));
    expect(s.problems).toEqual([]);
  }, 300_000);

  it('draws only the leaderboard rows in view, and the last one once scrolled to', async () => {
    const { page } = s;
    await hash(s, '#/leaderboards');
    const board = page.getByTestId('leaderboard-ideas');
    const rows = board.getByTestId('leaderboard-row');
    await rows.first().waitFor({ timeout: 60_000 });
    // Every idea counts in the table's rows (and the header row), however few are drawn.
    expect(await page.getByRole('table', { name: 'Ideas leaderboard' }).getAttribute('aria-rowcount')).toBe(
      String(IDEAS + 1),
    );
    const drawn = await rows.count();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(80);
    expect(await board.locator(`tr[aria-rowindex="${IDEAS + 1}"]`).count()).toBe(0);
    await board.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    // The last idea is drawn once in view; the first ones are not drawn any more.
    await board.locator(`tr[aria-rowindex="${IDEAS + 1}"]`).waitFor();
    expect(await board.locator('tr[aria-rowindex="2"]').count()).toBe(0);
    expect(await rows.count()).toBeLessThan(80);
    expect(s.problems).toEqual([]);
  });

  it('zooms the graph with the mouse wheel at a usable pace', async () => {
    const { page } = s;
    await hash(s, '#/library');
    await hash(s, '#/graph');
    const canvas = page.locator('.graph-canvas[data-laid-out]');
    await canvas.waitFor({ timeout: 60_000 });
    const zoom = () =>
      canvas.evaluate(
        // biome-ignore lint/suspicious/noExplicitAny: cytoscape's own registry on its container
        (el) => (el as any)._cyreg.cy.zoom() as number,
      );
    // The layout's fit may still be animating: read the zoom once it rests.
    let before = await zoom();
    await expect
      .poll(async () => {
        const now = await zoom();
        const still = now === before;
        before = now;
        return still;
      })
      .toBe(true);
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the graph canvas is not drawn');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    // One turn of the wheel zooms in by a fifth at least (it once barely moved).
    await expect.poll(async () => (await zoom()) / before).toBeGreaterThanOrEqual(1.2);
    // And so on, notch after notch: six of a mouse's 100 px notches out at least halve it (a handler
    // that takes equal notches for an imprecise device would move it by under a fifth).
    const zoomedIn = await zoom();
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 100);
    await expect.poll(async () => zoomedIn / (await zoom())).toBeGreaterThanOrEqual(2);
    expect(s.problems).toEqual([]);
  });

  it('draws only the evaluation rows in view on the convergence list; one evaluation offers its idea’s evaluations', async () => {
    const { page } = s;
    await hash(s, '#/convergence');
    const table = page.getByRole('table', { name: 'Evaluations' });
    await table.locator('tbody tr a').first().waitFor({ timeout: 120_000 });
    // Every idea's evaluation, and the header row; only some drawn.
    expect(await table.getAttribute('aria-rowcount')).toBe(String(IDEAS + 1));
    expect(await table.locator('tbody tr a').count()).toBeLessThan(80);
    // The last row is drawn once scrolled to.
    const { evaluations } = await s.app.client.invoke('evaluations:list', {});
    const last = evaluations[evaluations.length - 1];
    if (!last) throw new Error('no evaluation listed');
    await page.locator('.evaluations-table').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await table.locator(`a[href="#/convergence/${last.id}"]`).waitFor();

    // One evaluation's view: the list beside it holds that idea's evaluations, not the 700.
    await hash(s, `#/convergence/${bench.evaluationId}`);
    await page.locator('[data-testid="convergence-chart"] svg').first().waitFor({ timeout: 60_000 });
    const own = (await s.app.client.invoke('evaluations:get', { id: bench.evaluationId })).slug;
    const ofIdea = (await s.app.client.invoke('evaluations:list', { slug: own })).evaluations.map((e) => e.id);
    const picker = page.getByRole('combobox', { name: 'Show' });
    await expect
      .poll(() =>
        picker
          .locator('optgroup[label^="Evaluations"] option')
          .evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
      )
      .toEqual(ofIdea);
    expect(s.problems).toEqual([]);
  });

  it('draws 20 cards a stage on the pipeline and shows more on request', async () => {
    const { page } = s;
    await hash(s, '#/pipeline');
    await page.locator('.pipeline-card').first().waitFor({ timeout: 60_000 });
    const { ideas } = await s.app.client.invoke('ideas:list', {});
    const counts = new Map<string, number>();
    for (const i of ideas) counts.set(i.stage, (counts.get(i.stage) ?? 0) + 1);
    const [stage, total] = [...counts].sort((a, b) => b[1] - a[1])[0] as [string, number];
    expect(total).toBeGreaterThan(20);
    const column = page.locator(`.pipeline-column[data-stage="${stage}"]`);
    expect(await column.locator('.pipeline-card').count()).toBe(20);
    await expect.poll(() => column.locator('.pipeline-more').innerText()).toContain(`20 of ${total} shown`);
    await column.getByRole('button', { name: /^Show \d+ more$/ }).click();
    await expect.poll(() => column.locator('.pipeline-card').count()).toBe(Math.min(total, 120));
    expect(s.problems).toEqual([]);
  });

  it('writes each score in the ink that reads on its colour, in the dark theme too', async () => {
    const { page } = s;
    const inks = () =>
      page.evaluate(() => {
        const ink: Record<string, string> = {};
        for (const cell of Array.from(document.querySelectorAll('[data-testid="matrix-row"] .heat'))) {
          const level = /\bh(\d+)\b/.exec(cell.className)?.[1];
          if (level) ink[level] = getComputedStyle(cell).color;
        }
        return ink;
      });
    const white = 'rgb(255, 255, 255)';
    const black = 'rgb(0, 0, 0)';
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => localStorage.setItem('crucible.theme', t), theme);
      await page.reload();
      await hash(s, '#/matrix');
      await page.locator('[data-testid="matrix-row"] .heat').first().waitFor({ timeout: 60_000 });
      const seen = await inks();
      expect(Object.keys(seen).length).toBeGreaterThan(3);
      // Light: black on every shade but the darkest; dark: white up to 7, black from 8 (matrix.css).
      for (const [level, colour] of Object.entries(seen)) {
        const n = Number(level);
        expect(colour, `h${n} in the ${theme} theme`).toBe(
          theme === 'light' ? (n === 10 ? white : black) : n >= 8 ? black : white,
        );
      }
      if (theme === 'dark') {
        // By title: the generated library copies forty evaluations, so by score the first screen would
        // be fifty copies of one row.
        await page.getByRole('combobox', { name: 'Order' }).selectOption('title');
        await s.screenshot('matrix-dark');
        await hash(s, '#/graph');
        await page.locator('.graph-canvas[data-laid-out]').waitFor({ timeout: 60_000 });
        await s.screenshot('graph-groups-dark');
      }
    }
    await page.evaluate(() => localStorage.setItem('crucible.theme', 'light'));
    expect(s.problems).toEqual([]);
  });
});

/**
 * The sample ideas without a relationship between them: the graph says why it is empty and offers
 * the classify agent, which writes each idea's type, tags and links into its README.
 */
describe.skipIf(!chromiumPath)('a library without relationships', () => {
  let root = '';
  let s: Session;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'crucible-e2e-unlinked-'));
    cpSync(join(ROOT, 'ideas'), join(root, 'ideas'), { recursive: true });
    for (const slug of readdirSync(join(root, 'ideas')).filter((n) => !n.includes('.'))) {
      const path = join(root, 'ideas', slug, 'README.md');
      writeFileSync(path, readFileSync(path, 'utf8').replace(/^relationships:\n(?: {2}.*\n)*/m, ''));
    }
    s = await openSession(root);
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('explains the empty graph and classifies every idea from its button', async () => {
    const { page } = s;
    await hash(s, '#/graph');
    const empty = page.getByTestId('graph-empty');
    await empty.waitFor();
    const { ideas } = await s.app.client.invoke('ideas:list', {});
    expect(await empty.innerText()).toContain(`None of the ${ideas.length} ideas is linked to another yet`);
    expect(await empty.innerText()).toContain('the offline simulator');
    await s.screenshot('graph-empty');
    await empty.getByRole('button', { name: `Classify the ${ideas.length} ideas` }).click();
    await expect
      .poll(() => empty.getByRole('status').innerText(), { timeout: 60_000 })
      .toBe(`${ideas.length} of ${ideas.length} classified`);
    // Each README now carries what the agent said (a type, tags, and its links, none here).
    for (const idea of ideas) {
      const readme = readFileSync(join(root, 'ideas', idea.slug, 'README.md'), 'utf8');
      expect(readme).toMatch(/^relationships: \[\]$/m);
      expect(readme).toMatch(/^tags: \[/m);
    }
    // "Show the ideas anyway" draws them, unlinked.
    await empty.getByRole('button', { name: 'Show the ideas anyway' }).click();
    await empty.waitFor({ state: 'detached' });
    await expect.poll(async () => (await drawnNodes(s)).length).toBe(ideas.length);
    expect(s.problems).toEqual([]);
  });
});
