import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EPISODES_FILE } from '../../core/memory/episode';
import { chromiumPath, sessionPerFile } from './harness';

// The shared memory and the council's figures in Chromium against browser mode: a simulated council
// task run through the app's channel, then its figures over time in the council view (a chart per
// figure, the dissent target drawn as a band) and the idea page's memory panel showing the idea's
// episodes newest first, each linked to its run. Screenshots: council-figures, idea-memory.

const IDEA = 'soil-moisture-lora';

const episode = (key: string, at: string, idea: string, task: string, lessons: string[]) => {
  const [protocol, id] = key.split(':');
  return JSON.stringify({
    key,
    id,
    protocol,
    at,
    task,
    idea,
    outcome: 'PURSUE 7.2',
    cruxes: [],
    keyLearnings: lessons,
  });
};

describe.skipIf(!chromiumPath)('memory and figures in the window', () => {
  const { s, ws, go } = sessionPerFile();
  beforeAll(() => {
    mkdirSync(join(ws.root, 'council', 'memory'), { recursive: true });
    writeFileSync(
      join(ws.root, EPISODES_FILE),
      `${[
        episode('crux:olddebate', '2026-01-01T09:00:00.000Z', IDEA, 'Is LoRa range enough on farms?', ['Range holds.']),
        episode('evaluation:oldeval', '2026-01-02T09:00:00.000Z', IDEA, 'Evaluate the sensor network', [
          'Battery life decides it.',
        ]),
        episode('arena:otherarena', '2026-01-03T09:00:00.000Z', 'city-lichens-field-guide', 'Lichens', ['Not ours.']),
      ].join('\n')}\n`,
    );
  });

  it('charts the figures of a finished task and lists the idea’s episodes on its page', async () => {
    const { page } = s;
    const started = await s.app.client.invoke('council:run', {
      task: 'Write down the open questions',
      idea: IDEA,
      provider: 'simulated',
      seed: 3,
    });
    // Until the drive stands still (at its end or at the researcher).
    for (let i = 0; i < 300; i++) {
      const task = await s.app.client.invoke('council:get', { id: started.id });
      if (task.run && !task.run.live && task.run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await go('#/council');
    const figures = page.getByTestId('council-figures');
    await figures.locator('.council-figure .recharts-line').first().waitFor({ state: 'attached', timeout: 30_000 });
    await figures.scrollIntoViewIfNeeded();
    const charts = await figures
      .locator('figure.council-figure')
      .evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { testid: string } }).dataset.testid));
    const councilPage = {
      charts,
      band: await figures.getByTestId('figure-dissent').locator('.recharts-reference-area').count(),
      words: await figures.getByTestId('figure-dissent').locator('p.muted').innerText(),
    };
    await s.screenshot('council-figures');

    const listed = await s.app.client.invoke('memory:list', { idea: IDEA });
    await go(`#/idea/${IDEA}`);
    const panel = page.getByTestId('memory-panel');
    await panel.getByTestId('memory-episode').first().waitFor({ timeout: 30_000 });
    await panel.scrollIntoViewIfNeeded();
    const shown = await panel
      .getByTestId('memory-episode')
      .evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { key: string } }).dataset.key));
    const oldest = panel.locator('[data-key="crux:olddebate"]');
    const ideaPage = {
      shown,
      link: await oldest.locator('a').first().getAttribute('href'),
      lesson: await oldest.locator('.memory-lessons li').first().innerText(),
    };
    await s.screenshot('idea-memory');

    expect({ councilPage, ideaPage }).toEqual({
      councilPage: {
        charts: [
          'figure-rounds',
          'figure-dissent',
          'figure-productive',
          'figure-memory',
          'figure-diversity',
          'figure-cost',
          'figure-calls',
        ],
        band: 1,
        words: expect.stringContaining('15%–30%'),
      },
      ideaPage: {
        // Newest first, the other idea's episode left out; what the channel lists, the panel shows.
        shown: listed.episodes.map((e) => e.key),
        link: '#/debate/olddebate',
        lesson: 'Range holds.',
      },
    });
    expect(listed.episodes.slice(-2).map((e) => e.key)).toEqual(['evaluation:oldeval', 'crux:olddebate']);
    expect(s.problems).toEqual([]);
  }, 120_000);
});
