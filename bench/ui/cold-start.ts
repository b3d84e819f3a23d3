/**
 * The first look at the lists of evaluations after the app starts: the transcripts list and the
 * convergence list, each opened first thing by a page on a server process started for it, on a
 * workspace of N ideas each with a locked evaluation (the UI benchmark's).
 *
 *   npm run bench:cold-start -- [--ideas N (10000)] [--runs R (3)] [--whole every|last] [--cold] [--json]
 *
 * Two cases, each view R times after a warm-up (medians):
 * - after a start: what the app keeps under `.crucible/` is there (as after any earlier session);
 * - ever: it is removed before each start (a workspace this app has never opened, or copied in).
 * Each is timed from the route change (the library drawn first, as bench:ui does) to the first
 * evaluation on the page (first content) and to the list being whole (every evaluation listed and
 * counted; "ever" reads and counts them in the background meanwhile). Load averages at the start
 * and end go with the figures. Progress goes to stderr; stdout carries only the result.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { HEADLESS_ARGS, findChromium } from '../../core/node/export/chromium';
import { ensureRendererBuilt } from '../../core/node/web/build-renderer';
import { median, round1 } from '../lib/stats';
import { buildUiBenchWorkspace } from './workspace';

const ROOT = resolve(import.meta.dirname, '..', '..');
const TARGET_FIRST_CONTENT_MS = 500;
/** The longest a list may take to become whole (the first look ever at 10,000 replays 10,000 scripts). */
const WHOLE_TIMEOUT_MS = 600_000;

interface Probe {
  name: string;
  hash: string;
  /** A CSS selector that matches once the view shows an evaluation. */
  ready: string;
  /**
   * The list is whole when its table has every row and the page says nothing is left to read or
   * count (no listing note).
   */
  whole: { table: string; rows: number };
}

function probes(ideas: number): Probe[] {
  return [
    {
      name: 'transcripts',
      hash: '#/transcripts',
      ready: '[data-testid="transcripts"] [data-kind="evaluation"]',
      // The evaluations and the one long debate, with the header row.
      whole: { table: 'table[aria-label="Transcripts"]', rows: ideas + 2 },
    },
    {
      name: 'convergence',
      hash: '#/convergence',
      ready: 'table[aria-label="Evaluations"] tbody tr',
      whole: { table: 'table[aria-label="Evaluations"]', rows: ideas + 1 },
    },
  ];
}

function progress(message: string): void {
  process.stderr.write(`[bench:cold-start] ${message}\n`);
}

const load = () => round1(loadavg()[0] ?? 0);

/** Starts browser mode on `root` in a process of its own; answers its address and a way to stop it. */
async function serve(root: string, warm: boolean): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'bench', 'ui', 'serve.ts'),
      root,
      join(ROOT, 'out', 'renderer'),
      ...(warm ? [] : ['cold']),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const first = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`the server process ended (${code}) before it served`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    stop: async () => {
      // Closing the app writes what it keeps; the next start must find it written.
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * From the route change to `probe`'s view (the library drawn first, as bench:ui does) to its first
 * evaluation on the page, and to the list being whole (both on the page's clock, polled every
 * animation frame, then every 100 ms).
 */
async function timeLook(
  page: Page,
  probe: Probe,
  waitWhole: boolean,
): Promise<{ libraryMs: number; firstContentMs: number; wholeMs: number | null }> {
  await page.evaluate(() => {
    window.location.hash = '#/library';
  });
  await page.waitForSelector('.library-row[data-slug]', { timeout: 120_000 });
  // The page's start to its library (what the warm-up after a start might slow down).
  const libraryMs = await page.evaluate(() => performance.now());
  await page.evaluate((hash) => {
    (window as unknown as { __t0: number }).__t0 = performance.now();
    window.location.hash = hash;
  }, probe.hash);
  const first = await page.waitForFunction(
    (ready) =>
      document.querySelector(ready) ? performance.now() - (window as unknown as { __t0: number }).__t0 : null,
    probe.ready,
    { polling: 'raf', timeout: WHOLE_TIMEOUT_MS },
  );
  const firstContentMs = (await first.jsonValue()) as number;
  if (!waitWhole) return { libraryMs, firstContentMs, wholeMs: null };
  const whole = await page.waitForFunction(
    ({ table, rows }) =>
      !document.querySelector('[data-testid="listing-note"]') &&
      document.querySelector(table)?.getAttribute('aria-rowcount') === String(rows)
        ? performance.now() - (window as unknown as { __t0: number }).__t0
        : null,
    probe.whole,
    { polling: 100, timeout: WHOLE_TIMEOUT_MS },
  );
  return { libraryMs, firstContentMs, wholeMs: (await whole.jsonValue()) as number };
}

/** One look: a fresh server process (after `before`), a fresh page, the view opened first. */
async function look(
  context: BrowserContext,
  root: string,
  probe: Probe,
  before: () => void,
  waitWhole: boolean,
  warm: boolean,
): Promise<{ libraryMs: number; firstContentMs: number; wholeMs: number | null }> {
  before();
  const server = await serve(root, warm);
  const page = await context.newPage();
  try {
    await page.goto(server.url, { waitUntil: 'commit' });
    return await timeLook(page, probe, waitWhole);
  } finally {
    await page.close();
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ideas: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '3' },
      json: { type: 'boolean', default: false },
      // The first look ever at 10,000 takes minutes to be whole (10,000 scripts replayed): `last`
      // waits for it in the last run only (which leaves everything kept for "after a start").
      whole: { type: 'string', default: 'every' },
      // Browser mode lists the evaluations in the background right after its start (warmLists);
      // --cold starts the server without that, to see what it saves and what it costs.
      cold: { type: 'boolean', default: false },
    },
  });
  const ideas = Number(values.ideas);
  const runs = Number(values.runs);
  for (const [name, v] of Object.entries({ ideas, runs })) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} wants a whole number ≥ 1`);
  }
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error('bench:cold-start needs Chromium or Chrome (apt-get install chromium, or set CRUCIBLE_CHROMIUM)');

  progress('building the renderer if stale');
  await ensureRendererBuilt(ROOT);
  progress(`generating ${ideas} ideas, each with a locked evaluation`);
  const bench = await buildUiBenchWorkspace(ideas, 200);
  const kept = (...path: string[]) => join(bench.root, '.crucible', ...path);
  const forget = () => {
    rmSync(kept('evaluation-briefs.json'), { force: true });
    rmSync(kept('evaluation-entries'), { recursive: true, force: true });
  };
  const profile = mkdtempSync(join(tmpdir(), 'crucible-bench-cold-profile-'));
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: HEADLESS_ARGS,
    headless: true,
    viewport: { width: 1400, height: 900 },
  });
  await context.addInitScript('window.__name = (fn) => fn;');
  const loadAtStart = load();
  try {
    const cases = { ever: forget, afterStart: () => {} } as const;
    if (values.whole !== 'every' && values.whole !== 'last') throw new Error('--whole is every or last');
    const result: Record<
      string,
      Record<string, { libraryMs: number; firstContentMs: number; wholeMs: number | null; wholeRuns: number }>
    > = {};
    for (const probe of probes(ideas)) {
      for (const [name, before] of Object.entries(cases)) {
        const samples: { libraryMs: number; firstContentMs: number; wholeMs: number | null }[] = [];
        // Run 0 warms up (the page cache, the browser's code cache); not counted. "After a start"
        // follows "ever", whose whole list left everything kept.
        for (let run = 0; run <= runs; run++) {
          const t = await look(
            context,
            bench.root,
            probe,
            before,
            values.whole === 'every' || run === runs,
            !values.cold,
          );
          progress(
            `${probe.name}, ${name}, ${run === 0 ? 'warm-up' : `run ${run}/${runs}`}: library ${t.libraryMs.toFixed(0)} ms, first content ${t.firstContentMs.toFixed(0)} ms, ` +
              `whole ${t.wholeMs === null ? 'not waited for' : `${t.wholeMs.toFixed(0)} ms`} (load ${load()})`,
          );
          if (run > 0) samples.push(t);
        }
        const wholes = samples.flatMap((s) => (s.wholeMs === null ? [] : [s.wholeMs]));
        result[probe.name] ??= {};
        (result[probe.name] as Record<string, unknown>)[name] = {
          libraryMs: round1(median(samples.map((s) => s.libraryMs))),
          firstContentMs: round1(median(samples.map((s) => s.firstContentMs))),
          wholeMs: wholes.length > 0 ? round1(median(wholes)) : null,
          wholeRuns: wholes.length,
        };
      }
    }
    const out = {
      views: result,
      ideas,
      runs,
      warm: !values.cold,
      loadAverage: { start: loadAtStart, end: load() },
      target: { firstContentMs: TARGET_FIRST_CONTENT_MS },
      chromium: context.browser()?.version() ?? executablePath,
      node: process.version,
      cpus: cpus().length,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(out)}\n`);
    else {
      for (const [view, byCase] of Object.entries(result)) {
        progress(view);
        console.table(byCase);
      }
      console.table(out.loadAverage);
    }
  } finally {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    bench.dispose();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:cold-start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
