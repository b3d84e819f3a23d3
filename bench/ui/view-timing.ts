import type { Page } from 'playwright-core';

/** A view the benchmark opens: its route and what on the page says its content is there. */
export interface ViewProbe {
  name: string;
  hash: string;
  /** A CSS selector that matches once the view shows its content (not its "Loading…"). */
  ready: string;
}

export interface ViewTiming {
  /** Route change → the view's content in the page (polled every animation frame). */
  firstContentMs: number;
  /**
   * Route change → the first moment after the content from which the page answered every task
   * posted to it within 50 ms for 100 ms on end: a click then would have been handled at once.
   */
  interactiveMs: number;
}

/** Posting a task that waits longer than this means the page was busy: input would have lagged. */
const BUSY_MS = 50;
/** The quiet stretch that makes a page interactive. */
const QUIET_MS = 100;

/**
 * Opens `probe`'s route from the library (whose rows are drawn first, so every view starts from the
 * same place) and times its content and its interactivity.
 */
export async function timeView(page: Page, probe: ViewProbe): Promise<ViewTiming> {
  await page.evaluate(() => {
    window.location.hash = '#/library';
  });
  await page.waitForSelector('.library-row[data-slug]', { timeout: 120_000 });
  return page.evaluate(
    ({ hash, ready, busyMs, quietMs }) =>
      new Promise<ViewTiming>((done, fail) => {
        const t0 = performance.now();
        window.location.hash = hash;
        const deadline = t0 + 120_000;
        const afterContent = (firstContentMs: number) => {
          // Tasks posted one after another; a stretch of quiet ones long enough ends the wait.
          let quietSince = performance.now();
          const probeTask = () => {
            const posted = performance.now();
            setTimeout(() => {
              const ran = performance.now();
              if (ran - posted > busyMs) quietSince = ran;
              if (ran - quietSince >= quietMs) done({ firstContentMs, interactiveMs: quietSince - t0 });
              else if (ran > deadline) fail(new Error(`${hash} never went quiet`));
              else probeTask();
            }, 0);
          };
          probeTask();
        };
        const poll = () => {
          if (document.querySelector(ready)) return afterContent(performance.now() - t0);
          if (performance.now() > deadline) return fail(new Error(`${hash}: nothing matched ${ready}`));
          requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
      }),
    { hash: probe.hash, ready: probe.ready, busyMs: BUSY_MS, quietMs: QUIET_MS },
  );
}

/**
 * Scrolls the element `scroller` by `step` pixels every animation frame for `seconds` (wrapping at
 * the end) and counts the frames the page managed, with the longest gap between two.
 */
export async function scrollFps(
  page: Page,
  scroller: string,
  minHeight: number,
  seconds = 3,
  step = 400,
): Promise<{ fps: number; worstFrameMs: number }> {
  return page.evaluate(
    ({ scroller, minHeight, seconds, step }) =>
      new Promise<{ fps: number; worstFrameMs: number }>((done, fail) => {
        const list = document.querySelector<HTMLElement>(scroller);
        if (!list) return fail(new Error(`nothing matched ${scroller}`));
        if (list.scrollHeight < minHeight)
          return fail(new Error(`${scroller} is only ${list.scrollHeight}px tall (want ${minHeight})`));
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
    { scroller, minHeight, seconds, step },
  );
}
