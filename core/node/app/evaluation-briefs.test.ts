import {
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PushPayload } from '../../contract';
import { appPerTest, IDEA } from '../../../tests/helpers/app-harness';
import { sha256 } from '../hasher';
import { BRIEFS_FILE } from './evaluation-briefs';
import type { App } from './create-app';

// What the lists need of each locked record (its summary, its scores, its count of transcript
// entries) is kept in `.crucible/evaluation-briefs.json`, so the first look after a start reads one
// file instead of every record, and an evaluation nobody has read yet is read (and its entries
// counted) in the background. Real workspace, real files, through the handlers.
//
// "Without reading a record" is shown two ways: an app given no time to read (`listingBudgetMs: 0`)
// lists only what it knows without reading, and records overwritten with junk of the same size and
// time (so the index's key of them does not change) still list as they were.

const f = appPerTest('crucible-eval-briefs-', new Set());
const folder = () => join(f.root, 'ideas', IDEA, 'evaluations');
/** A whole second, so a file's time can be set back exactly (a time with a fraction cannot). */
const T = 1_800_000_000;
/** Time enough to read and count everything while answering (as the CLI does): a reference. */
const WHOLE = Number.POSITIVE_INFINITY;

/** A quick simulated evaluation of IDEA, run to its lock by `app`; answers its id. */
async function evaluate(app: App, seed = 5): Promise<string> {
  const { id } = await f.call(app, 'evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated', seed });
  const until = Date.now() + 30_000;
  while ((await f.call(app, 'evaluations:get', { id })).status === 'running') {
    if (Date.now() > until) throw new Error('the simulated evaluation did not lock');
    await new Promise((r) => setTimeout(r, 20));
  }
  return id;
}

/** Copies evaluation `from` under the id `to` (record and script), as another program would, at time T. */
function copyEvaluation(from: string, to: string, title?: string): void {
  const doc = JSON.parse(readFileSync(join(folder(), `${from}.json`), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(folder(), `${to}.json`),
    `${JSON.stringify({ ...doc, evaluationId: to, ...(title ? { ideaTitle: title } : {}) }, null, 2)}\n`,
  );
  const [head, ...rest] = readFileSync(join(folder(), `${from}.jsonl`), 'utf8').split('\n');
  const header = JSON.parse(head ?? '{}') as Record<string, unknown>;
  writeFileSync(join(folder(), `${to}.jsonl`), [JSON.stringify({ ...header, evaluationId: to }), ...rest].join('\n'));
  for (const ext of ['json', 'jsonl']) utimesSync(join(folder(), `${to}.${ext}`), T, T);
}

/** Overwrites a record and its script with junk of the same size, at the same (whole-second) time. */
function junk(id: string): void {
  for (const ext of ['json', 'jsonl']) {
    const path = join(folder(), `${id}.${ext}`);
    const { size } = statSync(path);
    writeFileSync(path, 'x'.repeat(size));
    utimesSync(path, T, T);
  }
}

/** Both lists, asked one right after the other (no background slice runs between them). */
async function lists(app: App) {
  const [e, t] = await Promise.all([f.call(app, 'evaluations:list', {}), f.call(app, 'transcripts:list', {})]);
  return {
    evaluations: e.evaluations.map((x) => [x.id, x.ideaTitle, x.overallScore, x.provider, x.current]),
    transcripts: t.transcripts.filter((x) => x.kind === 'evaluation').map((x) => [x.id, x.title, x.messages]),
    reading: [e.reading, t.reading],
  };
}

/** The entries of each evaluation as a replay of its script gives them. */
async function replayedCounts(app: App, ids: readonly string[]): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for (const id of ids)
    out.push([id, (await f.call(app, 'transcripts:get', { kind: 'evaluation', id })).entries.length]);
  return out;
}

/** Resolves on the push that says the background work is done. */
function backgroundDone(app: App): Promise<void> {
  return new Promise((resolve) => {
    const off = app.events.on('evaluation:listed', (p: PushPayload<'evaluation:listed'>) => {
      if (p.reading === 0 && p.counting === 0) {
        off();
        resolve();
      }
    });
  });
}

/** One evaluation run by an app, and four copies of it written by another program (ids after it). */
async function workspaceOfFive(): Promise<{ ids: string[]; first: string }> {
  const app = await f.boot();
  const first = await evaluate(app);
  const ids = ['zz-copy-1', 'zz-copy-2', 'zz-copy-3', 'zz-copy-4'];
  for (const id of ids) copyEvaluation(first, id);
  for (const ext of ['json', 'jsonl']) utimesSync(join(folder(), `${first}.${ext}`), T, T);
  await f.call(app, 'workspace:sync', {});
  await app.close();
  return { ids: [...ids].reverse().concat(first), first };
}

describe('the briefs of locked records, kept between starts', () => {
  it('lets a fresh app list every evaluation without reading a record or replaying a script', async () => {
    const { ids } = await workspaceOfFive();
    // An app that reads them (it has the time), and keeps their briefs when it closes.
    const reader = await f.boot({ listingBudgetMs: WHOLE });
    const seen = await lists(reader);
    expect(seen.evaluations.map(([id]) => id)).toEqual(ids);
    expect(seen.transcripts.map(([id, , n]) => [id, n])).toEqual(await replayedCounts(reader, ids));
    await reader.close();
    expect(existsSync(join(f.root, BRIEFS_FILE))).toBe(true);

    // A fresh app given no time to read lists them all the same, at once: from the briefs alone.
    const quick = await f.boot({ listingBudgetMs: 0 });
    expect(await lists(quick)).toEqual(seen);
    await quick.close();

    // Every record and script made junk (same size, same time: the index's key does not change).
    for (const id of ids) junk(id);
    const after = await f.boot();
    expect(await lists(after)).toEqual(seen);
    // Opening one does read it, and finds it damaged.
    await expect(f.call(after, 'evaluations:get', { id: ids[0] as string })).rejects.toThrow(/could not be read/);
  });

  it('keeps the brief and the entries of an evaluation this app locks, so no later list reads or replays it', async () => {
    const app = await f.boot();
    const id = await evaluate(app, 7);
    await app.close();
    const next = await f.boot({ listingBudgetMs: 0 });
    const listed = await lists(next);
    expect(listed.reading).toEqual([0, 0]);
    expect(listed.evaluations.map(([x]) => x)).toEqual([id]);
    // Its count, kept from the run, is the count a replay of its script gives.
    rmSync(join(f.root, '.crucible', 'evaluation-entries'), { recursive: true, force: true });
    expect(listed.transcripts.map(([x, , n]) => [x, n])).toEqual(await replayedCounts(next, [id]));
  });

  it('reads a record again when its files change', async () => {
    const { ids } = await workspaceOfFive();
    const reader = await f.boot({ listingBudgetMs: WHOLE });
    const before = await lists(reader);
    await reader.close();
    // Another program rewrites one record (another size and time): its brief no longer fits.
    copyEvaluation(ids[4] as string, 'zz-copy-2', 'Renamed by hand');
    utimesSync(join(folder(), 'zz-copy-2.json'), T + 60, T + 60);
    const app = await f.boot({ listingBudgetMs: 0 });
    // The others are listed from their briefs at once; the changed one is read in the background.
    const first = await lists(app);
    expect(first.evaluations.map(([id]) => id)).toEqual(ids.filter((id) => id !== 'zz-copy-2'));
    expect(first.reading).toEqual([1, 1]);
    const done = backgroundDone(app);
    await done;
    const after = await lists(app);
    expect(after.evaluations.find(([id]) => id === 'zz-copy-2')?.[1]).toBe('Renamed by hand');
    expect(after.evaluations.filter(([id]) => id !== 'zz-copy-2')).toEqual(
      before.evaluations.filter(([id]) => id !== 'zz-copy-2'),
    );
    expect(after.reading).toEqual([0, 0]);
  });

  it('rebuilds a deleted or damaged file of briefs, and uses the rebuilt one', async () => {
    const { ids } = await workspaceOfFive();
    const first = await f.boot({ listingBudgetMs: WHOLE });
    const seen = await lists(first);
    await first.close();
    const path = join(f.root, BRIEFS_FILE);
    const damages: [string, () => void][] = [
      ['deleted', () => rmSync(path)],
      ['cut short', () => writeFileSync(path, readFileSync(path, 'utf8').slice(0, 200))],
      [
        'edited (a title changed, the hash not)',
        () => writeFileSync(path, readFileSync(path, 'utf8').replace('"zz-copy-1"', '"zz-copy-9"')),
      ],
      ['not JSON', () => writeFileSync(path, '\u0000\u0001 garbage')],
    ];
    for (const [what, damage] of damages) {
      damage();
      const app = await f.boot({ listingBudgetMs: WHOLE });
      expect({ what, lists: await lists(app) }).toEqual({ what, lists: seen });
      await app.close();
      // Rewritten whole: its hash fits its body again.
      const text = readFileSync(path, 'utf8');
      const cut = text.indexOf('\n');
      expect({ what, fits: JSON.parse(text.slice(0, cut)).sha256 === sha256(text.slice(cut + 1)) }).toEqual({
        what,
        fits: true,
      });
    }
    // And the rebuilt file is what the next app lists from: the records are junk now.
    for (const id of ids) junk(id);
    expect(await lists(await f.boot({ listingBudgetMs: 0 }))).toEqual(seen);
  });

  it('still refuses a record replaced by a link, though its brief was kept', async () => {
    const { ids } = await workspaceOfFive();
    const app = await f.boot({ listingBudgetMs: WHOLE });
    const seen = await lists(app);
    await app.close();
    // The record moved out of the workspace and linked back in its place.
    const record = join(folder(), 'zz-copy-3.json');
    const outside = join(f.root, '..', `outside-${Date.now()}.json`);
    renameSync(record, outside);
    symlinkSync(outside, record);
    try {
      const next = await f.boot();
      const listed = await lists(next);
      expect(listed.evaluations.map(([id]) => id)).toEqual(ids.filter((id) => id !== 'zz-copy-3'));
      expect(listed.transcripts.map(([id]) => id)).toEqual(ids.filter((id) => id !== 'zz-copy-3'));
      expect(listed.evaluations).toEqual(seen.evaluations.filter(([id]) => id !== 'zz-copy-3'));
      await expect(f.call(next, 'evaluations:get', { id: 'zz-copy-3' })).rejects.toThrow(/no evaluation/);
      const errors = (await f.call(next, 'workspace:errors', {})).errors.map((e) => e.file);
      expect(errors).toContain(`ideas/${IDEA}/evaluations/zz-copy-3.json`);
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it('lists in the background right after a start when the host asks (warmLists), before any look', async () => {
    const { ids } = await workspaceOfFive();
    rmSync(join(f.root, BRIEFS_FILE), { force: true });
    // No call at all: the records are read, and said to be, all the same.
    const app = await f.boot({ listingBudgetMs: 0, warmLists: true });
    await backgroundDone(app);
    // (Only the evaluations: a look at the transcripts would start the counting.)
    const listed = await f.call(app, 'evaluations:list', {});
    expect(listed.evaluations.map((e) => e.id)).toEqual(ids);
    expect(listed.reading).toBe(0);
    // It reads, but leaves the counting (a replay of every script) to a look at the transcripts.
    await app.close();
    const next = await f.boot({ listingBudgetMs: 0, warmLists: true });
    await new Promise((r) => setTimeout(r, 200));
    expect((await lists(next)).transcripts.map(([id, , n]) => [id, n])).toEqual(ids.map((id) => [id, null]));
  });

  it('reads and counts what nobody has read in the background, then lists the true counts', async () => {
    const { ids } = await workspaceOfFive();
    rmSync(join(f.root, BRIEFS_FILE), { force: true });
    rmSync(join(f.root, '.crucible', 'evaluation-entries'), { recursive: true, force: true });
    const app = await f.boot({ listingBudgetMs: 0 });
    const done = backgroundDone(app);
    // Nothing read yet: the lists say so, at once.
    const first = await lists(app);
    expect(first).toEqual({ evaluations: [], transcripts: [], reading: [5, 5] });
    await done;
    // Read now, and not counted yet: shown as being counted, and counted in the background.
    const read = await lists(app);
    expect(read.evaluations.map(([id]) => id)).toEqual(ids);
    expect(read.transcripts.map(([id, , n]) => [id, n])).toEqual(ids.map((id) => [id, null]));
    await backgroundDone(app);
    const counted = await lists(app);
    expect(counted.reading).toEqual([0, 0]);
    // The counts a full replay gives: an app that reads and replays everything at once, from nothing.
    await app.close();
    rmSync(join(f.root, BRIEFS_FILE), { force: true });
    rmSync(join(f.root, '.crucible', 'evaluation-entries'), { recursive: true, force: true });
    const whole = await f.boot({ listingBudgetMs: WHOLE });
    expect(counted).toEqual(await lists(whole));
    expect(counted.transcripts.map(([id, , n]) => [id, n])).toEqual(await replayedCounts(whole, ids));
  });
});
