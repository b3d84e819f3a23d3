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
import { buildUiBenchWorkspace } from './ui/workspace';

const ROOT = resolve(import.meta.dirname, '..');
const TARGETS = { interactiveMs: 1500, transcriptScrollFps: 50, cruxMapLayoutMs500: 1000, leaderboardRenderMs10k: 300 };

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

/**
 * Opens the long transcript, then scrolls it by `step` pixels every frame for `seconds` and counts
 * the frames the page managed (requestAnimationFrame), with the longest gap between two.
 */
async function timeTranscriptScroll(
  page: Page,
  debateId: string,
  messages: number,
): Promise<{ fps: number; worstFrameMs: number }> {
  await page.evaluate((id) => {
    window.location.hash = `#/transcript/debate/${id}`;
  }, debateId);
  await page.waitForSelector('.transcript-list .virtual-row', { timeout: 60_000 });
  return page.evaluate(
    ({ seconds, step, expected }) =>
      new Promise<{ fps: number; worstFrameMs: number }>((done, fail) => {
        const list = document.querySelector<HTMLElement>('.transcript-list');
        if (!list) return fail(new Error('no transcript list'));
        if (list.scrollHeight < expected * 20)
          return fail(new Error(`the transcript is only ${list.scrollHeight}px tall`));
        list.scrollTop = 0;
        let frames = 0;
        let worst = 0;
        let last = performance.now();
        const start = last;
        const tick = (now: number) => {
          frames++;
          worst = Math.max(worst, now - last);
          last = now;
          list.scrollTop = (list.scrollTop + step) % (list.scrollHeight - list.clientHeight);
          if (now - start < seconds * 1000) requestAnimationFrame(tick);
          else done({ fps: frames / ((now - start) / 1000), worstFrameMs: worst });
        };
        requestAnimationFrame(tick);
      }),
    { seconds: 3, step: 400, expected: messages },
  );
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
  const bench = buildUiBenchWorkspace(ideas, messages);
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
      crux: [] as number[],
      longest: [] as number[],
    };
    let layoutKind = '';
    // Run 0 warms up (page cache, the browser's code cache, the database's pages); not counted.
    for (let run = 0; run <= runs; run++) {
      const page = await context.newPage();
      const startup = await timeStartup(page, server.url);
      // The first open also waits for the view's code when the idle prefetch has not brought it yet;
      // the second is the view itself: fetching and drawing 10,000 rows.
      const leaderboardFirst = await timeLeaderboard(page, ideas);
      const leaderboard = await timeLeaderboard(page, ideas);
      const scroll = await timeTranscriptScroll(page, bench.debateId, messages);
      const crux = await timeCruxMap(page, 500);
      await page.close();
      layoutKind = crux.layout;
      progress(
        `${run === 0 ? 'warm-up' : `run ${run}/${runs}`}: first paint ${startup.firstPaintMs.toFixed(0)} ms, interactive ${startup.interactiveMs.toFixed(0)} ms, ` +
          `leaderboard ${leaderboard.toFixed(0)} ms (first open ${leaderboardFirst.toFixed(0)} ms), scroll ${scroll.fps.toFixed(1)} fps (worst frame ${scroll.worstFrameMs.toFixed(0)} ms), ` +
          `crux map ${crux.layoutMs.toFixed(0)} ms (${crux.layout}, longest task ${crux.longestTaskMs.toFixed(0)} ms)`,
      );
      if (run === 0) continue;
      samples.firstPaintMs.push(startup.firstPaintMs);
      samples.interactiveMs.push(startup.interactiveMs);
      samples.leaderboard.push(leaderboard);
      samples.leaderboardFirst.push(leaderboardFirst);
      samples.fps.push(scroll.fps);
      samples.worstFrame.push(scroll.worstFrameMs);
      samples.crux.push(crux.layoutMs);
      samples.longest.push(crux.longestTaskMs);
    }
    const result = {
      firstPaintMs: round1(median(samples.firstPaintMs)),
      interactiveMs: round1(median(samples.interactiveMs)),
      transcriptScrollFps: round1(median(samples.fps)),
      cruxMapLayoutMs500: round1(median(samples.crux)),
      leaderboardRenderMs10k: round1(median(samples.leaderboard)),
      leaderboardFirstOpenMs10k: round1(median(samples.leaderboardFirst)),
      transcriptWorstFrameMs: round1(median(samples.worstFrame)),
      cruxMapLongestTaskMs: round1(median(samples.longest)),
      cruxMapLayout: layoutKind,
      ideas,
      messages: bench.messages,
      runs,
      chromium: context.browser()?.version() ?? executablePath,
      node: process.version,
      cpus: cpus().length,
      targets: TARGETS,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else console.table(result);
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
