/**
 * UI benchmark: the renderer in headless Chromium against browser mode, on a workspace of N ideas
 * (each with a locked evaluation) and a debate of M messages.
 *
 *   npm run bench:ui -- [--ideas N (10000)] [--messages M (10000)] [--runs R (3)] [--json]
 *
 * Progress goes to stderr; stdout carries only the result. See docs/performance.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { createApp } from '../core/node/app/create-app';
import { HEADLESS_ARGS, findChromium } from '../core/node/export/chromium';
import { ensureRendererBuilt } from '../core/node/web/build-renderer';
import { startWebServer } from '../core/node/web/server';
import { median, round1 } from './lib/stats';
import { scrollFps, timeView, type ViewProbe, type ViewTiming } from './ui/view-timing';
import { buildUiBenchWorkspace } from './ui/workspace';

const ROOT = resolve(import.meta.dirname, '..');
const TARGETS = {
  interactiveMs: 1500,
  transcriptScrollFps: 50,
  matrixScrollFps: 50,
  leaderboardScrollFps: 50,
  cruxMapLayoutMs500: 1000,
  leaderboardRenderMs10k: 300,
  pipelineFirstContentMs: 500,
  transcriptsFirstContentMs: 500,
};

/** Every view of the app, with what says its content is on the page. */
function probes(bench: { slugs: string[]; debateId: string; evaluationId: string }): ViewProbe[] {
  const slug = bench.slugs[0] as string;
  return [
    { name: 'pipeline', hash: '#/pipeline', ready: '.pipeline-card' },
    { name: 'graph', hash: '#/graph', ready: '.graph-canvas[data-laid-out]' },
    { name: 'matrix', hash: '#/matrix', ready: '[data-testid="matrix-row"]' },
    { name: 'leaderboards', hash: '#/leaderboards', ready: '[data-testid="leaderboard-row"]' },
    { name: 'convergence', hash: '#/convergence', ready: 'table[aria-label="Evaluations"] tbody tr' },
    { name: 'ledger', hash: '#/ledger', ready: '.ledger-view table' },
    { name: 'transcripts', hash: '#/transcripts', ready: '[data-testid="transcripts"] [data-kind]' },
    { name: 'export', hash: '#/export', ready: '.view.export select option[value]:not([value=""])' },
    { name: 'settings', hash: '#/settings', ready: '.view.settings table' },
    { name: 'glossary', hash: '#/glossary', ready: 'dl.glossary dt' },
    { name: 'idea', hash: `#/idea/${slug}`, ready: '.idea-head h1' },
    { name: 'evaluation', hash: `#/evaluation/${bench.evaluationId}`, ready: '[data-testid="overall-score"]' },
    {
      name: 'convergenceOfOne',
      hash: `#/convergence/${bench.evaluationId}`,
      ready: '[data-testid="convergence-chart"] svg',
    },
    { name: 'debate', hash: `#/debate/${bench.debateId}`, ready: '[data-testid="debate-status"]' },
    { name: 'transcript', hash: `#/transcript/debate/${bench.debateId}`, ready: '.transcript-list .virtual-row' },
  ];
}

function progress(message: string): void {
  process.stderr.write(`[bench:ui] ${message}\n`);
}

/**
 * A fresh page on the app's address (the token in it), timed from navigation start: first
 * contentful paint, and the moment the library shows its first ideas with the capture box ready.
 */
async function timeStartup(page: Page, url: string): Promise<{ firstPaintMs: number; interactiveMs: number }> {
  await page.bringToFront();
  await page.goto(url, { waitUntil: 'commit' });
  const interactiveMs = await page.waitForFunction(
    () => {
      const row = document.querySelector('.library-row[data-slug]');
      const title = document.querySelector<HTMLInputElement>('input[aria-label="Idea title"]');
      return row && title && !title.disabled ? performance.now() : null;
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  const ms = (await interactiveMs.jsonValue()) as number;
  const paint = await page.evaluate(
    () =>
      (performance.getEntriesByName('first-contentful-paint')[0] ?? performance.getEntriesByName('first-paint')[0])
        ?.startTime ?? Number.NaN,
  );
  return { firstPaintMs: paint, interactiveMs: ms };
}

/** From a route change to `rows` leaderboard rows on screen (fetching the 10,000 included). */
async function timeLeaderboard(page: Page, ideas: number): Promise<number> {
  await page.evaluate(() => {
    window.location.hash = '#/library';
  });
  await page.waitForSelector('.library-row[data-slug]');
  const handle = await page.waitForFunction(
    (expected) => {
      const w = window as unknown as { __t0?: number };
      if (w.__t0 === undefined) {
        w.__t0 = performance.now();
        window.location.hash = '#/leaderboards';
        return null;
      }
      const table = document.querySelector('[data-testid="leaderboard-ideas"] table');
      const rows = document.querySelectorAll('[data-testid="leaderboard-row"]').length;
      if (!table || rows === 0 || table.getAttribute('aria-rowcount') !== String(expected + 1)) return null;
      const ms = performance.now() - w.__t0;
      w.__t0 = undefined;
      return ms;
    },
    ideas,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/** Opens the long transcript and scrolls it (see scrollFps). */
async function timeTranscriptScroll(
  page: Page,
  debateId: string,
  messages: number,
): Promise<{ fps: number; worstFrameMs: number }> {
  await page.evaluate((id) => {
    window.location.hash = `#/transcript/debate/${id}`;
  }, debateId);
  await page.waitForSelector('.transcript-list .virtual-row', { timeout: 60_000 });
  return scrollFps(page, '.transcript-list', messages * 20);
}

/** Opens a windowed table's view and scrolls it (see scrollFps). */
async function timeTableScroll(
  page: Page,
  hash: string,
  row: string,
  scroller: string,
  rows: number,
): Promise<{ fps: number; worstFrameMs: number }> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
  await page.waitForSelector(row, { timeout: 120_000 });
  return scrollFps(page, scroller, rows * 25);
}

/**
 * The crux map's layout of `nodes` nodes (the map's own timing of its layout), and the longest task
 * that blocked the page meanwhile (Long Tasks API): input is only frozen for that long.
 */
async function timeCruxMap(
  page: Page,
  nodes: number,
): Promise<{ layoutMs: number; longestTaskMs: number; layout: string }> {
  await page.evaluate(() => {
    window.location.hash = '#/library';
  });
  await page.waitForSelector('.library-row[data-slug]');
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
    }).observe({ type: 'longtask' });
  });
  await page.evaluate((n) => {
    window.location.hash = `#/crux-map/__bench?nodes=${n}`;
  }, nodes);
  const status = page.locator('[data-testid="crux-map-bench"][data-layout-ms]');
  await status.waitFor({ timeout: 60_000 });
  const layoutMs = Number(await status.getAttribute('data-layout-ms'));
  const layout = (await status.getAttribute('data-layout')) ?? '';
  const laidOut = Number(await status.getAttribute('data-nodes'));
  if (laidOut < nodes) throw new Error(`the crux map laid out ${laidOut} nodes of ${nodes}`);
  await page.waitForTimeout(200);
  const longestTaskMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  return { layoutMs, longestTaskMs, layout };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ideas: { type: 'string', default: '10000' },
      messages: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '3' },
      json: { type: 'boolean', default: false },
    },
  });
  const ideas = Number(values.ideas);
  const messages = Number(values.messages);
  const runs = Number(values.runs);
  for (const [name, v] of Object.entries({ ideas, messages, runs })) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} wants a whole number ≥ 1`);
  }
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error('bench:ui needs Chromium or Chrome (apt-get install chromium, or set CRUCIBLE_CHROMIUM)');

  progress('building the renderer if stale');
  await ensureRendererBuilt(ROOT);
  progress(`generating ${ideas} ideas and a ${messages}-message debate`);
  const bench = await buildUiBenchWorkspace(ideas, messages);
  const profile = mkdtempSync(join(tmpdir(), 'crucible-bench-ui-profile-'));
  const app = await createApp({ workspaceRoot: bench.root, watch: false });
  const server = await startWebServer({ app, port: 0, staticDir: join(ROOT, 'out', 'renderer') });
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: HEADLESS_ARGS,
    headless: true,
    viewport: { width: 1400, height: 900 },
  });
  // tsx compiles this file keeping function names through a `__name` helper, which the functions
  // sent to the page refer to; give the page a no-op one.
  await context.addInitScript('window.__name = (fn) => fn;');
  try {
    const samples = {
      firstPaintMs: [] as number[],
      interactiveMs: [] as number[],
      leaderboard: [] as number[],
      leaderboardFirst: [] as number[],
      fps: [] as number[],
      worstFrame: [] as number[],
      matrixFps: [] as number[],
      matrixWorstFrame: [] as number[],
      leaderboardFps: [] as number[],
      leaderboardWorstFrame: [] as number[],
      crux: [] as number[],
      longest: [] as number[],
    };
    const views = probes(bench);
    const failed: Record<string, string> = {};
    const viewSamples = new Map<string, ViewTiming[]>(views.map((v) => [v.name, []]));
    let layoutKind = '';
    // Run 0 warms up (page cache, the browser's code cache, the database's pages, the main side's
    // caches of evaluation entries); not counted.
    for (let run = 0; run <= runs; run++) {
      const page = await context.newPage();
      const startup = await timeStartup(page, server.url);
      // The first open also waits for the view's code when the idle prefetch has not brought it yet;
      // the second is the view itself: fetching and drawing every row.
      const leaderboardFirst = await timeLeaderboard(page, ideas);
      const leaderboard = await timeLeaderboard(page, ideas);
      // Scrolling first, on a page that has drawn only the library and the leaderboard so far.
      const matrix = await timeTableScroll(
        page,
        '#/matrix',
        '[data-testid="matrix-row"]',
        '[data-testid="matrix"]',
        ideas,
      );
      const board = await timeTableScroll(
        page,
        '#/leaderboards',
        '[data-testid="leaderboard-row"]',
        '[data-testid="leaderboard-ideas"]',
        ideas,
      );
      const timings: string[] = [];
      for (const probe of views) {
        try {
          const t = await timeView(page, probe);
          viewSamples.get(probe.name)?.push(...(run === 0 ? [] : [t]));
          timings.push(`${probe.name} ${t.firstContentMs.toFixed(0)}/${t.interactiveMs.toFixed(0)}`);
        } catch (error) {
          // A view that never shows its content is a finding, said in the result, not a crash.
          const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
          failed[probe.name] = `${run === 0 ? 'in the warm-up: ' : `in run ${run}: `}${message}`;
          timings.push(`${probe.name} FAILED`);
        }
      }
      const scroll = await timeTranscriptScroll(page, bench.debateId, messages);
      const crux = await timeCruxMap(page, 500);
      await page.close();
      layoutKind = crux.layout;
      progress(
        `${run === 0 ? 'warm-up' : `run ${run}/${runs}`}: first paint ${startup.firstPaintMs.toFixed(0)} ms, interactive ${startup.interactiveMs.toFixed(0)} ms, ` +
          `leaderboard ${leaderboard.toFixed(0)} ms (first open ${leaderboardFirst.toFixed(0)} ms), ` +
          `scroll: transcript ${scroll.fps.toFixed(1)} fps (worst frame ${scroll.worstFrameMs.toFixed(0)} ms), ` +
          `matrix ${matrix.fps.toFixed(1)} fps (${matrix.worstFrameMs.toFixed(0)} ms), leaderboard ${board.fps.toFixed(1)} fps (${board.worstFrameMs.toFixed(0)} ms), ` +
          `crux map ${crux.layoutMs.toFixed(0)} ms (${crux.layout}, longest task ${crux.longestTaskMs.toFixed(0)} ms); ` +
          `views (first content/interactive ms): ${timings.join(', ')}`,
      );
      if (run === 0) continue;
      samples.firstPaintMs.push(startup.firstPaintMs);
      samples.interactiveMs.push(startup.interactiveMs);
      samples.leaderboard.push(leaderboard);
      samples.leaderboardFirst.push(leaderboardFirst);
      samples.fps.push(scroll.fps);
      samples.worstFrame.push(scroll.worstFrameMs);
      samples.matrixFps.push(matrix.fps);
      samples.matrixWorstFrame.push(matrix.worstFrameMs);
      samples.leaderboardFps.push(board.fps);
      samples.leaderboardWorstFrame.push(board.worstFrameMs);
      samples.crux.push(crux.layoutMs);
      samples.longest.push(crux.longestTaskMs);
    }
    const result = {
      firstPaintMs: round1(median(samples.firstPaintMs)),
      interactiveMs: round1(median(samples.interactiveMs)),
      transcriptScrollFps: round1(median(samples.fps)),
      matrixScrollFps: round1(median(samples.matrixFps)),
      leaderboardScrollFps: round1(median(samples.leaderboardFps)),
      cruxMapLayoutMs500: round1(median(samples.crux)),
      leaderboardRenderMs10k: round1(median(samples.leaderboard)),
      leaderboardFirstOpenMs10k: round1(median(samples.leaderboardFirst)),
      transcriptWorstFrameMs: round1(median(samples.worstFrame)),
      matrixWorstFrameMs: round1(median(samples.matrixWorstFrame)),
      leaderboardWorstFrameMs: round1(median(samples.leaderboardWorstFrame)),
      cruxMapLongestTaskMs: round1(median(samples.longest)),
      cruxMapLayout: layoutKind,
      views: Object.fromEntries(
        [...viewSamples]
          .filter(([, list]) => list.length > 0)
          .map(([name, list]) => [
            name,
            {
              firstContentMs: round1(median(list.map((t) => t.firstContentMs))),
              interactiveMs: round1(median(list.map((t) => t.interactiveMs))),
            },
          ]),
      ),
      failedViews: failed,
      ideas,
      messages: bench.messages,
      runs,
      chromium: context.browser()?.version() ?? executablePath,
      node: process.version,
      cpus: cpus().length,
      targets: TARGETS,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      const { views: perView, targets: _t, failedViews, ...figures } = result;
      if (Object.keys(failedViews).length > 0) console.table(failedViews);
      console.table(figures);
      console.table(perView);
    }
  } finally {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    await server.close();
    await app.close();
    bench.dispose();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:ui failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
