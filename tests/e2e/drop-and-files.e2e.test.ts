import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSHandle } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/**
 * The library takes a drop anywhere on it (issue 22), a dropped `.txt` is titled from its first line,
 * the idea's file list leaves out the app's own run records, and browser mode shows no key fields
 * it would only refuse.
 */
describe.skipIf(!chromiumPath)('drops, file lists and browser mode', () => {
  const { s, ws, go } = sessionPerFile();
  /** A real DataTransfer holding one real File, built in the page, as a drop from the desktop carries. */
  const fileDrop = (name: string, text: string, type: string): Promise<JSHandle> =>
    s.page.evaluateHandle(
      ({ name, text, type }) => {
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add(file: unknown): void } };
          File: new (parts: string[], name: string, options: { type: string }) => unknown;
        };
        const dt = new page.DataTransfer();
        dt.items.add(new page.File([text], name, { type }));
        return dt;
      },
      { name, text, type },
    );

  it('takes a .txt dropped anywhere on the library, highlighted while dragged, titled from its first line', async () => {
    const { page } = s;
    const library = page.getByTestId('library');
    const filters = page.locator('.library-filters');
    await filters.waitFor();
    const count = async () => (await s.app.client.invoke('ideas:list', {})).ideas.length;
    const before = await count();
    const dataTransfer = await fileDrop(
      'notes-2024-03.txt',
      'Rooftop beehives for the office block\n\nTwo hives on the flat roof, tended by volunteers.\n',
      'text/plain',
    );
    // Dragged over the filter bar, far from the drop zone: the whole library lights up and says what a drop does.
    await filters.dispatchEvent('dragover', { dataTransfer });
    await page.locator('.library-drop-hint').waitFor();
    expect(await library.getAttribute('class')).toContain('over');
    await s.screenshot('library-drop');
    await filters.dispatchEvent('drop', { dataTransfer });
    await page.getByRole('link', { name: 'Rooftop beehives for the office block' }).waitFor();
    expect(await page.locator('.library-drop-hint').count()).toBe(0);
    const readme = readFileSync(join(ws.root, 'ideas', 'rooftop-beehives-for-the-office-block', 'README.md'), 'utf8');
    expect(readme).toMatch(/^title: "?Rooftop beehives for the office block"?$/m);

    // Onto a row it attaches to that idea and captures nothing (the library around it stays out).
    const photo = await fileDrop('roof-plan.png', 'not really a png', 'image/png');
    await page.locator(`.library-row[data-slug="${IDEA}"]`).dispatchEvent('drop', { dataTransfer: photo });
    await page
      .getByRole('status')
      .filter({ hasText: `Attached to ${IDEA}` })
      .waitFor();
    expect(await count()).toBe(before + 1);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('leaves the app’s run records out of an idea’s file list, and says how many', async () => {
    const { page } = s;
    const { personas } = await s.app.client.invoke('personas:list', { role: 'debater' });
    const { id } = await s.app.client.invoke('debates:start', {
      ideaSlug: IDEA,
      agents: personas.slice(0, 3).map((p) => p.id),
      provider: 'simulated',
    });
    const until = Date.now() + 90_000;
    while ((await s.app.client.invoke('debates:get', { id })).status === 'running') {
      if (Date.now() > until) throw new Error('the simulated debate did not end');
      await new Promise((r) => setTimeout(r, 200));
    }
    await s.app.client.invoke('debates:saveCruxLayout', { id, positions: { t1: { x: 10, y: 20 } } });
    const evaluation = await s.app.client.invoke('evaluations:start', {
      slug: IDEA,
      mode: 'quick',
      provider: 'simulated',
    });
    while ((await s.app.client.invoke('evaluations:get', { id: evaluation.id })).status !== 'completed') {
      if (Date.now() > until) throw new Error('the simulated evaluation did not lock');
      await new Promise((r) => setTimeout(r, 200));
    }
    const files = (await s.app.client.invoke('ideas:get', { slug: IDEA })).files.map((f) => f.path);
    const internal = files.filter((f) => /\/(debates|evaluations)\/[^/]+\.(jsonl|json)$/.test(f));
    // The folder holds the debate's log and layout, and the evaluation's record, script and run log.
    expect(internal.map((f) => f.replace(/^.*\/(debates|evaluations)\/[^.]+/, '$1/<id>')).sort()).toEqual([
      'debates/<id>.jsonl',
      'debates/<id>.layout.json',
      'evaluations/<id>.json',
      'evaluations/<id>.jsonl',
      'evaluations/<id>.run.jsonl',
    ]);

    await go(`#/idea/${IDEA}`);
    const list = page.locator('section[aria-labelledby="files-title"]');
    await list.getByTestId('internal-files').waitFor();
    const listed = (await list.locator('.file-list li').allTextContents()).join('\n');
    expect(listed).toContain(`${id}.md`);
    expect(listed).not.toMatch(/\.jsonl|\.layout\.json|\.json\b/);
    expect(await list.getByTestId('internal-files').textContent()).toContain(`Not listed: ${internal.length} records`);
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('shows no key fields in browser mode, only where keys come from, and offers the simulator’s pace', async () => {
    const { page } = s;
    await go('#/settings');
    const keys = page.locator('section[aria-labelledby="keys"]');
    await keys.getByTestId('keys-from-environment').waitFor();
    expect(await keys.locator('input, button').count()).toBe(0);
    expect(await keys.locator('code').allTextContents()).toEqual(['ANTHROPIC_API_KEY', 'CRUCIBLE_OPENAI_API_KEY']);

    const pace = page.getByRole('group', { name: 'Pace of the offline simulator' });
    expect(await pace.getByRole('radio', { name: /Watchable/ }).isChecked()).toBe(true);
    // A click, not check(): the radio follows the saved setting, so it turns on once the save has answered.
    await pace.getByRole('radio', { name: /Instant/ }).click();
    await page.getByRole('status').filter({ hasText: 'Simulator pace saved' }).waitFor();
    expect(readFileSync(join(ws.root, 'settings.md'), 'utf8')).toMatch(/^simulatedPace: instant$/m);
    expect((await s.app.client.invoke('settings:get', {})).simulatedPace).toBe('instant');
    expect(s.problems).toEqual([]);
  }, 60_000);
});
