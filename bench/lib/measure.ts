import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMarkdown } from '../../core/node/markdown';
import { WorkspaceWatcher } from '../../core/node/workspace/watcher';
import { Workspace } from '../../core/node/workspace/workspace';
import type { SyncReport } from '../../core/node/workspace/sync-pass';
import { Prng, seedOf } from './prng';
import { percentile } from './stats';

/** Reads every file once so that every timed figure starts from the same, warm page cache. */
export function warmPageCache(root: string, files: readonly string[]): void {
  for (const rel of files) readFileSync(join(root, rel));
}

/** The floor: what any sync has to do at least, reading and parsing every file. */
export function timeFloor(root: string, files: readonly string[]): number {
  const started = performance.now();
  for (const rel of files) parseMarkdown(readFileSync(join(root, rel), 'utf8'));
  return performance.now() - started;
}

function timeOpenSyncClose(root: string, checkFully = false): { ms: number; report: SyncReport } {
  const started = performance.now();
  const ws = Workspace.open(root);
  try {
    const report = ws.sync();
    if (checkFully && ws.checkFully() !== null) throw new Error('the index was found damaged on a restart');
    return { ms: performance.now() - started, report };
  } finally {
    ws.close();
  }
}

/** Empty index to fully synced: the first launch on an existing folder, or after the index was lost. */
export function timeCold(root: string, expectedIdeas: number): number {
  rmSync(join(root, '.crucible'), { recursive: true, force: true });
  const { ms, report } = timeOpenSyncClose(root);
  // A generator bug would make the figure meaningless (fewer rows is less work), so it fails loudly.
  if (report.ideas !== expectedIdeas || report.errors.length > 0) {
    const first = report.errors[0];
    throw new Error(
      `cold sync indexed ${report.ideas} of ${expectedIdeas} ideas with ${report.errors.length} errors` +
        (first ? ` (first: ${first.file}: ${first.reason})` : ''),
    );
  }
  return ms;
}

/**
 * Restart with nothing changed: the index is complete and every file is as it was. Such a restart
 * waits only for the integrity check of the index's tables; with `checkFully` it also waits for the
 * rest (the full-text index), as a search or the first change would.
 */
export function timeWarm(root: string, options: { checkFully?: boolean } = {}): number {
  const { ms, report } = timeOpenSyncClose(root, options.checkFully === true);
  if (report.added + report.changed + report.removed > 0) {
    throw new Error(
      `warm sync found changes (${report.added} added, ${report.changed} changed, ${report.removed} removed)`,
    );
  }
  return ms;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const EDIT_TIMEOUT_MS = 10_000;
const POLL_MS = 2;
const EDIT_SPACING_MS = 100;
const WARMUP_EDITS = 3;

/** The README with a new title in the frontmatter and the heading; the title's previous edit tag is replaced. */
function retitle(text: string, token: string): { text: string; title: string } {
  const match = /^title: (".*")$/m.exec(text);
  if (!match?.[1]) throw new Error('generated README has no quoted title line');
  const title = `${(JSON.parse(match[1]) as string).replace(/ \(edit \w+\)$/, '')} (edit ${token})`;
  const next = text.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`).replace(/^# .*$/m, `# ${title}`);
  return { text: next, title };
}

/**
 * Resolves once `read()` returns `expected`. It looks every POLL_MS and also right after each
 * watcher pass (through `wake`), so the figure is not inflated by the polling period.
 */
function waitFor(read: () => unknown, expected: string, wake: { fn: (() => void) | null }): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      clearTimeout(timer);
      if (read() === expected) {
        wake.fn = null;
        resolve();
      } else if (performance.now() - started > EDIT_TIMEOUT_MS) {
        wake.fn = null;
        reject(new Error(`edit not indexed after ${EDIT_TIMEOUT_MS} ms (expected title "${expected}")`));
      } else timer = setTimeout(check, POLL_MS);
    };
    wake.fn = check;
    check();
  });
}

export interface EditRun {
  latencies: number[];
  p50: number;
  p95: number;
  /** How long the watcher took to be ready (walking and watching every folder). */
  watchReadyMs: number;
}

/**
 * One edit-to-index run: open the workspace, watch it, then edit READMEs from outside the app and
 * time each write until the index answers with the new title.
 */
export async function timeEdits(root: string, slugs: readonly string[], edits: number, run: number): Promise<EditRun> {
  const ws = Workspace.open(root);
  const wake: { fn: (() => void) | null } = { fn: null };
  const errors: unknown[] = [];
  const watcher = new WorkspaceWatcher(ws, { onPass: () => wake.fn?.(), onError: (e) => errors.push(e) });
  try {
    ws.sync();
    const readyStarted = performance.now();
    await watcher.start();
    const watchReadyMs = performance.now() - readyStarted;
    const titleOf = ws.db.prepare('SELECT title FROM ideas WHERE slug = ?').pluck();
    const rng = new Prng(seedOf(`edits:${run}`));
    const latencies: number[] = [];
    for (let k = 0; k < WARMUP_EDITS + edits; k++) {
      const slug = rng.pick(slugs);
      const abs = join(root, 'ideas', slug, 'README.md');
      const next = retitle(readFileSync(abs, 'utf8'), `r${run}e${k}${rng.int(0, 1e9).toString(36)}`);
      const started = performance.now();
      writeFileSync(abs, next.text);
      await waitFor(() => titleOf.get(slug), next.title, wake);
      if (k >= WARMUP_EDITS) latencies.push(performance.now() - started);
      await sleep(EDIT_SPACING_MS);
    }
    if (errors.length > 0) throw new Error(`watcher reported ${errors.length} errors, first: ${String(errors[0])}`);
    return { latencies, p50: percentile(latencies, 50), p95: percentile(latencies, 95), watchReadyMs };
  } finally {
    await watcher.close();
    ws.close();
  }
}
