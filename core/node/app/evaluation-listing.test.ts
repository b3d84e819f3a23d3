import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA } from '../../../tests/helpers/app-harness';
import type { App } from './create-app';

// Every evaluation, as `evaluations:list` and `transcripts:list` show them, is listed from the
// index (not from 10,000 idea folders) and the locked ones' summaries are kept while the index
// stays as it is. What is written beside an idea by another program (another process, a copy, a
// deletion) shows once a sync pass has seen it: this pins that on a real workspace (real SQLite,
// real files), through the handlers.

const f = appPerTest('crucible-eval-listing-', new Set());

/** A quick simulated evaluation of IDEA, run to its lock by `app`; answers its id. */
async function evaluate(app: App): Promise<string> {
  const { id } = await f.call(app, 'evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated', seed: 5 });
  const until = Date.now() + 30_000;
  while ((await f.call(app, 'evaluations:get', { id })).status === 'running') {
    if (Date.now() > until) throw new Error('the simulated evaluation did not lock');
    await new Promise((r) => setTimeout(r, 20));
  }
  return id;
}

/** Copies evaluation `from` of IDEA under the id `to` (record and script), as another program would write one. */
function copyEvaluation(root: string, from: string, to: string, title?: string): void {
  const folder = join(root, 'ideas', IDEA, 'evaluations');
  const doc = JSON.parse(readFileSync(join(folder, `${from}.json`), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(folder, `${to}.json`),
    `${JSON.stringify({ ...doc, evaluationId: to, ...(title ? { ideaTitle: title } : {}) }, null, 2)}\n`,
  );
  const [head, ...rest] = readFileSync(join(folder, `${from}.jsonl`), 'utf8').split('\n');
  const header = JSON.parse(head ?? '{}') as Record<string, unknown>;
  writeFileSync(join(folder, `${to}.jsonl`), [JSON.stringify({ ...header, evaluationId: to }), ...rest].join('\n'));
}

describe('the list of every evaluation', () => {
  it('shows an evaluation added, changed or removed by another program once a sync pass has seen it', async () => {
    const first = await evaluate(await f.boot());
    // A new app: nothing evaluated by it, so every evaluation is listed from the index.
    const app = await f.boot();
    const lists = async () => {
      const { evaluations } = await f.call(app, 'evaluations:list', {});
      const { transcripts } = await f.call(app, 'transcripts:list', {});
      return {
        evaluations: evaluations.map((e) => [e.id, e.ideaTitle]),
        transcripts: transcripts.filter((t) => t.kind === 'evaluation').map((t) => [t.id, t.title, t.messages]),
      };
    };
    const before = await lists();
    const { ideaTitle } = await f.call(app, 'evaluations:get', { id: first });
    const { entries } = await f.call(app, 'transcripts:get', { kind: 'evaluation', id: first });
    const row = (id: string, title: string) => [id, `Evaluation of ${title} (quick)`, entries.length];
    expect(before).toEqual({ evaluations: [[first, ideaTitle]], transcripts: [row(first, ideaTitle)] });
    // Nothing changed: the same answer, checked once.
    expect(await f.call(app, 'evaluations:list', {})).toBe(await f.call(app, 'evaluations:list', {}));
    expect(await f.call(app, 'transcripts:list', {})).toBe(await f.call(app, 'transcripts:list', {}));

    // Added (ids sort after the first's, which started at the same moment: newest first by id).
    copyEvaluation(f.root, first, 'zz-copied');
    await f.call(app, 'workspace:sync', {});
    const added = await lists();
    // Changed: the record rewritten with another title.
    copyEvaluation(f.root, first, 'zz-copied', 'Renamed by hand');
    await f.call(app, 'workspace:sync', {});
    const changed = await lists();
    // Removed.
    for (const ext of ['json', 'jsonl']) rmSync(join(f.root, 'ideas', IDEA, 'evaluations', `zz-copied.${ext}`));
    await f.call(app, 'workspace:sync', {});
    const removed = await lists();

    expect({ added, changed, removed }).toEqual({
      added: {
        evaluations: [
          ['zz-copied', ideaTitle],
          [first, ideaTitle],
        ],
        transcripts: [row('zz-copied', ideaTitle), row(first, ideaTitle)],
      },
      changed: {
        evaluations: [
          ['zz-copied', 'Renamed by hand'],
          [first, ideaTitle],
        ],
        transcripts: [row('zz-copied', 'Renamed by hand'), row(first, ideaTitle)],
      },
      removed: before,
    });
  });

  it('shows the app’s own new evaluation at once, and to the next app', async () => {
    const app = await f.boot();
    const own = await evaluate(app);
    // Listed from its folder before any sync pass: the app ran it.
    expect((await f.call(app, 'evaluations:list', {})).evaluations.map((e) => e.id)).toEqual([own]);
    const again = await f.boot();
    expect((await f.call(again, 'evaluations:list', {})).evaluations.map((e) => e.id)).toEqual([own]);
  });
});
