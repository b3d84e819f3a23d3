import { beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonView } from '../../core/contract';
import { plainWords } from '../../renderer/src/ui/glossary';
import { readme, writeFile } from '../helpers/temp-workspace';
import { chromiumPath, finishedDebate, lockedEvaluation, sessionPerFile } from './harness';

// Three evaluated ideas set side by side: reached from an idea page's "Compare with…" and from the
// palette, every score the page shows checked against what `ideas:compare` answers, and the view
// at 1,024 px wide without the page scrolling sideways.

const IDEAS = ['community-solar-coop', 'dataset-diff-tool', 'soil-moisture-lora'] as const;

/** How the view writes a score and a share (evaluation/format.ts): the test states it again. */
const two = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const percent = (n: number | null) => (n === null ? '—' : `${Math.round(n * 100)}%`);

describe.skipIf(!chromiumPath)('the comparison view', () => {
  const { s, ws, go } = sessionPerFile({ viewport: { width: 1400, height: 900 } });
  let expected: ComparisonView;

  beforeAll(async () => {
    for (const slug of IDEAS) await lockedEvaluation(s.app, slug, 'quick');
    expected = await s.app.client.invoke('ideas:compare', { slugs: [...IDEAS] });
  }, 180_000);

  /** Every cell of the score table as `row → slug → text`, read off the page. */
  async function shownCells(): Promise<Record<string, Record<string, string>>> {
    return s.page.getByTestId('compare-cell').evaluateAll((cells) => {
      const out: Record<string, Record<string, string>> = {};
      for (const cell of cells as unknown as {
        dataset: Record<string, string>;
        querySelector(q: string): { textContent: string | null } | null;
        textContent: string | null;
      }[]) {
        const row = cell.dataset.row as string;
        const value = cell.querySelector('.value')?.textContent ?? cell.textContent ?? '';
        out[row] = { ...(out[row] ?? {}), [cell.dataset.slug as string]: value.trim() };
      }
      return out;
    });
  }

  it('opens from an idea page’s “Compare with…” and shows the scores the compare channel gives', async () => {
    const { page } = s;
    await go(`#/idea/${IDEAS[0]}`);
    await page.getByRole('button', { name: 'Compare with…' }).click();
    const picker = page.getByRole('form', { name: 'Ideas to compare with this one' });
    await picker.waitFor();
    for (const slug of IDEAS.slice(1)) {
      const title = expected.ideas.find((i) => i.slug === slug)?.title as string;
      await picker.getByRole('checkbox', { name: new RegExp(title) }).check();
    }
    await picker.getByRole('button', { name: 'Compare 3 ideas' }).click();
    await page.waitForURL(/#\/compare\?ideas=/);
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/compare?ideas=${IDEAS.join(',')}`);

    await page.getByTestId('compare-idea').first().waitFor();
    await page.getByRole('button', { name: 'Show every criterion' }).click();
    const want: Record<string, Record<string, string>> = {
      overall: {},
      confidence: {},
      recommendation: {},
      staleness: {},
    };
    for (const idea of expected.ideas) {
      want.overall = { ...want.overall, [idea.slug]: two(idea.overallScore) };
      want.confidence = { ...want.confidence, [idea.slug]: percent(idea.confidence) };
      // The advice in words ("refine"); its code (REFINE) is kept for the tooltip, checked below.
      want.recommendation = {
        ...want.recommendation,
        [idea.slug]: idea.recommendation ? plainWords(idea.recommendation) : '—',
      };
      want.staleness = {
        ...want.staleness,
        [idea.slug]: `${idea.staleReasons.length > 0 ? ['may be stale', ...idea.staleReasons].join('') : 'current'}${(idea.evaluatedAt ?? '').slice(0, 10)}`,
      };
      for (const c of expected.categories)
        want[`category:${c.id}`] = { ...want[`category:${c.id}`], [idea.slug]: two(idea.categories[c.id] ?? null) };
      for (const c of expected.criteria)
        want[`criterion:${c.id}`] = {
          ...want[`criterion:${c.id}`],
          [idea.slug]: String(idea.criteria[c.id] ?? '—'),
        };
    }
    // Every idea evaluated, so every one of the 30 criteria has a number in every column.
    expect(Object.keys(want)).toHaveLength(4 + expected.categories.length + expected.criteria.length);
    expect(expected.ideas.every((i) => i.evaluationId !== null)).toBe(true);
    expect(await shownCells()).toEqual(want);

    // Each advice keeps its code in the tooltip and a (?) to its glossary entry; each category's
    // weight is labelled as one, with its (?).
    const advice = page.locator('[data-testid="compare-cell"][data-row="recommendation"]');
    expect(
      await advice.evaluateAll((cells) =>
        cells.map((c) => [
          c.querySelector('[data-testid="recommendation"]')?.getAttribute('data-code'),
          c.querySelector('[data-testid="help"]')?.getAttribute('href'),
        ]),
      ),
    ).toEqual(expected.ideas.map((i) => [i.recommendation, `#/glossary?term=${i.recommendation}`]));
    const weights = page.getByTestId('weight');
    expect(await weights.evaluateAll((els) => els.map((e) => e.firstChild?.textContent))).toEqual(
      expected.categories.map((c) => `weight ×${c.weight}`),
    );
    expect(await weights.first().getByTestId('help').getAttribute('href')).toBe('#/glossary?term=weight');

    // The highest overall score is the one marked.
    const best = [...expected.ideas].sort((a, b) => (b.overallScore ?? 0) - (a.overallScore ?? 0))[0];
    const marked = await page
      .locator('[data-testid="compare-cell"][data-row="overall"].best')
      .evaluateAll((cells) => cells.map((c) => (c as unknown as { dataset: { slug: string } }).dataset.slug));
    expect(marked).toEqual([best?.slug]);

    // Strengths and weaknesses as the evaluations' narratives give them, in each idea's column.
    const narratives = await page.getByTestId('compare-narrative').evaluateAll((sections) =>
      sections.map((el) => {
        const section = el as unknown as {
          dataset: { slug: string };
          querySelectorAll(q: string): ArrayLike<{ textContent: string | null }>;
        };
        const texts = (q: string) => Array.from(section.querySelectorAll(q)).map((li) => li.textContent ?? '');
        return { slug: section.dataset.slug, strengths: texts('.strengths li'), weaknesses: texts('.weaknesses li') };
      }),
    );
    expect(narratives).toEqual(
      expected.ideas.map((i) => ({ slug: i.slug, strengths: i.strengths, weaknesses: i.weaknesses })),
    );
    expect(expected.ideas.every((i) => i.strengths.length > 0 && i.weaknesses.length > 0)).toBe(true);
    const cruxes = page.getByRole('region', { name: 'Cruxes they share' });
    expect(await cruxes.getByRole('listitem').count()).toBe(expected.sharedCruxes.length);
    await s.screenshot('compare');
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('opens from the palette, asks which ideas, and removes one from the comparison', async () => {
    const { page } = s;
    await go('#/library');
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Command', exact: true }).fill('compare ideas side');
    await page.keyboard.press('Enter');
    const picker = page.getByRole('form', { name: 'Ideas to compare' });
    await picker.waitFor();
    expect(await picker.getByRole('button', { name: /^Compare/ }).isDisabled()).toBe(true);
    for (const slug of IDEAS.slice(0, 2)) {
      const title = expected.ideas.find((i) => i.slug === slug)?.title as string;
      await picker.getByRole('checkbox', { name: new RegExp(title) }).check();
    }
    await picker.getByRole('button', { name: 'Compare 2 ideas' }).click();
    await page.getByTestId('compare-idea').nth(1).waitFor();
    expect(
      await page
        .getByTestId('compare-idea')
        .evaluateAll((th) => th.map((t) => (t as unknown as { dataset: { slug: string } }).dataset.slug)),
    ).toEqual(IDEAS.slice(0, 2));
    // Two is the fewest: no idea can be removed now; with three, one can.
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await go(`#/compare?ideas=${IDEAS.join(',')}`);
    await page.getByTestId('compare-idea').nth(2).waitFor();
    const second = expected.ideas[1]?.title as string;
    await page.getByRole('button', { name: `Remove ${second} from the comparison` }).click();
    await page.waitForURL((url) => !decodeURIComponent(url.hash).includes(IDEAS[1]));
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/compare?ideas=${IDEAS[0]},${IDEAS[2]}`);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('says “may be stale” with the reason once a related idea is re-evaluated with a material move', async () => {
    const { page } = s;
    // The diff tool was inspired by the soil sensors (strength 0.6). Their first evaluation, after
    // the diff tool's, had nothing to compare; seed 2 moves their score by more than a point.
    const [diffTool, soil] = [IDEAS[1], IDEAS[2]];
    const diffId = expected.ideas.find((i) => i.slug === diffTool)?.evaluationId as string;
    const { id: again } = await s.app.client.invoke('evaluations:start', {
      slug: soil,
      mode: 'quick',
      provider: 'simulated',
      seed: 2,
    });
    for (let i = 0; (await s.app.client.invoke('evaluations:get', { id: again })).status !== 'completed'; i++) {
      if (i > 600) throw new Error('the second evaluation did not lock');
      await new Promise((r) => setTimeout(r, 100));
    }
    const detail = await s.app.client.invoke('evaluations:get', { id: diffId });
    const soilTitle = expected.ideas.find((i) => i.slug === soil)?.title as string;
    expect(detail.staleReasons).toHaveLength(1);
    expect(detail.staleReasons[0]).toMatch(
      new RegExp(
        `^“${soilTitle}”, which this idea was inspired by, was re-evaluated on \\d{4}-\\d\\d-\\d\\d: overall \\d\\.\\d\\d → \\d\\.\\d\\d`,
      ),
    );
    const reason = detail.staleReasons[0] as string;

    // The comparison, the idea page and the evaluation view all say so, with the reason.
    await go(`#/compare?ideas=${IDEAS.join(',')}`);
    const cell = page.locator(`[data-testid="compare-cell"][data-row="staleness"][data-slug="${diffTool}"]`);
    await cell.getByText('may be stale').waitFor();
    expect(await cell.locator('.stale-reason').allInnerTexts()).toEqual([reason]);
    await go(`#/idea/${diffTool}`);
    const note = page.getByRole('note', { name: 'May be stale' });
    await note.waitFor();
    expect(await note.locator('li').allInnerTexts()).toEqual([reason]);
    await go(`#/evaluation/${diffId}`);
    const onView = page.getByRole('note', { name: 'May be stale' });
    await onView.waitFor();
    expect(await onView.locator('li').allInnerTexts()).toEqual([reason]);
    await onView.scrollIntoViewIfNeeded();
    await s.screenshot('evaluation-may-be-stale');
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('sets debate options in the evaluate form: a bad one is named and blocks Evaluate; set ones reach the run', async () => {
    const { page } = s;
    const idea = 'mandarin-through-podcasts';
    await go(`#/idea/${idea}`);
    const form = page.getByRole('form', { name: 'Evaluate this idea' }).first();
    await form.waitFor();
    await form.getByLabel('Mode').selectOption('quick');
    await form.getByText('Debate options').click();
    await form.getByLabel('Minimum confidence').fill('0.95');
    await form.getByRole('alert').getByText('Minimum confidence: must be at most 0.9').waitFor();
    expect(await form.getByRole('button', { name: 'Evaluate' }).isDisabled()).toBe(true);
    await form.getByLabel('Minimum confidence').fill('0.6');
    await form.getByLabel('Arbiter').selectOption('passive');
    await form.getByLabel('Red-teamers per evaluator').selectOption('1');
    await page
      .getByTestId('evaluation-estimate')
      .getByText(/Likely/)
      .waitFor();
    await form.getByRole('button', { name: 'Evaluate' }).click();
    await page.waitForURL(/#\/evaluation\/[a-z0-9]+$/);
    const id = new URL(page.url()).hash.split('/')[2] as string;
    await page
      .getByTestId('evaluation-options')
      .getByText(/passive arbiter/)
      .waitFor();
    expect({
      shown: await page.getByTestId('evaluation-options').innerText(),
      sent: (await s.app.client.invoke('evaluations:get', { id })).options,
    }).toEqual({
      shown:
        'Debate options: at most 1 red-teamer per evaluator, moderate first principles, passive arbiter, adjustments within ±2, minimum confidence 0.6',
      sent: {
        redTeamersPerEvaluator: 1,
        firstPrinciples: 'moderate',
        arbiter: 'passive',
        adjustmentRange: 2,
        minConfidence: 0.6,
        words:
          'at most 1 red-teamer per evaluator, moderate first principles, passive arbiter, adjustments within ±2, minimum confidence 0.6',
      },
    });
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('names the cruxes two variants of one idea share, though their debates word them apart', async () => {
    const { page } = s;
    // The simulator words its cruxes from each idea's title: the variants' differ by a word, and the
    // crux graph holds each pair to be one question.
    const variants = [
      ['solar-north-roofs', 'North roofs: community-owned solar panels'],
      ['solar-south-roofs', 'South roofs: community-owned solar panels'],
    ] as const;
    for (const [slug, title] of variants)
      writeFile(
        ws.root,
        `ideas/${slug}/README.md`,
        readme(title, { type: 'business' }, 'Neighbours share the output.'),
      );
    for (const [slug] of variants) {
      for (let i = 0; ; i++) {
        const listed = (await s.app.client.invoke('ideas:list', {})).ideas.some((idea) => idea.slug === slug);
        if (listed) break;
        if (i > 100) throw new Error(`${slug} was not indexed`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await finishedDebate(s.app, slug, 5, 3);
      await lockedEvaluation(s.app, slug, 'quick');
    }
    const slugs = [variants[0][0], IDEAS[1], variants[1][0]];
    const view = await s.app.client.invoke('ideas:compare', { slugs });
    expect(view.sharedCruxes.length).toBeGreaterThan(0);
    expect(view.sharedCruxes.every((c) => c.slugs.join() === `${variants[0][0]},${variants[1][0]}`)).toBe(true);
    await go(`#/compare?ideas=${slugs.join(',')}`);
    const shared = page.getByRole('region', { name: 'Cruxes they share' }).getByRole('listitem');
    await shared.first().waitFor();
    expect(await shared.allInnerTexts()).toEqual(
      view.sharedCruxes.map((c) => `${c.question} — ${variants[0][1]}, ${variants[1][1]}`),
    );
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('fits a 1,024 px window: four columns of scores, nothing scrolls the page sideways', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 1024, height: 700 });
    const four = [...IDEAS, 'ebike-repair-workshop'];
    await go(`#/compare?ideas=${four.join(',')}`);
    await page.getByTestId('compare-idea').nth(3).waitFor();
    // The fourth idea is not evaluated: shown as such beside the three that are.
    expect(
      await page.locator(`[data-testid="compare-cell"][data-row="overall"][data-slug="${four[3]}"]`).innerText(),
    ).toBe('—');
    const widths = await page.evaluate(() => {
      const main = document.getElementById('main') as HTMLElement;
      const table = document.querySelector('.compare-scroll') as HTMLElement;
      return {
        page: document.documentElement.scrollWidth,
        main: main.scrollWidth - main.clientWidth,
        table: table.scrollWidth - table.clientWidth,
      };
    });
    expect(widths).toEqual({ page: 1024, main: 0, table: 0 });
    // Every idea's column is wide enough to read a title, not a strip.
    for (const th of await page.getByTestId('compare-idea').all())
      expect((await th.boundingBox())?.width).toBeGreaterThan(120);
    await s.screenshot('compare-1024');
    expect(s.problems).toEqual([]);
  }, 60_000);
});
