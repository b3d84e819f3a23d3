// The index mirrors council/ (migration 11): proposals, every protocol's episodes, decisions and
// weights, always read again from the files. Deleting the index loses nothing; a file changed behind
// the app's back shows in the mirror; a line that is no episode is reported by file and line.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { councilMirror } from '../../core/node/council/council-mirror';
import { CouncilRuns } from '../../core/node/council/council-runs';
import { DebateService } from '../../core/node/debates/debate-service';
import { listMemory, searchMemory } from '../../core/node/memory/memory-view';
import { initWorkspace } from '../../core/node/workspace/init-workspace';
import { Workspace } from '../../core/node/workspace/workspace';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: string;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-council-mirror-'));
  ws = join(root, 'lab');
  initWorkspace(ws);
});
afterEach(() => cleanup());

function open<T>(body: (workspace: Workspace) => T | Promise<T>): Promise<T> {
  const workspace = Workspace.open(ws);
  workspace.sync();
  return Promise.resolve()
    .then(() => body(workspace))
    .finally(() => workspace.close());
}

/** Everything the index says of council/, as readers get it. */
const everything = (workspace: Workspace) => ({
  mirror: councilMirror(workspace.root, workspace.db).mirror,
  list: new CouncilRuns(workspace).list(),
  memory: listMemory(workspace),
});

describe("the index's mirror of council/", { timeout: 120_000 }, () => {
  it('is rebuilt from the files: deleting the index loses nothing, and an edit of a file shows', async () => {
    const before = await open(async (workspace) => {
      const council = new CouncilRuns(workspace);
      // A compromise (seed 1) that completes, then an archive that waits for the researcher.
      await council.start({
        task: 'Write down the resume conditions',
        idea: 'soil-moisture-lora',
        provider: 'simulated',
        seed: 1,
      });
      await council.start({ task: 'Archive it', idea: 'reading-tracker-extension', provider: 'simulated', seed: 3 });
      await new DebateService(workspace).start({
        ideaSlug: 'soil-moisture-lora',
        agents: ['ethicist', 'investor'],
        provider: 'simulated',
        seed: 7,
      });
      return everything(workspace);
    });
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(ws, '.crucible', `index.db${suffix}`), { force: true });
    const after = await open((workspace) => ({ rebuilt: workspace.rebuilt, ...everything(workspace) }));

    // A line appended by hand (another tool, a merge) and a torn one.
    appendFileSync(
      join(ws, 'council/memory/episodes.jsonl'),
      `${JSON.stringify({ key: 'crux:by-hand', id: 'by-hand', protocol: 'crux', at: '2000-01-01T00:00:00Z', task: 'Soil moisture by hand', idea: 'soil-moisture-lora', outcome: 'consensus' })}\n{"key": "torn\n`,
    );
    const edited = await open((workspace) => listMemory(workspace, { idea: 'soil-moisture-lora' }));
    const lines = before.memory.episodes.length;

    expect({
      counts: [before.mirror.proposals.length, before.mirror.decisions.length, before.mirror.weights.length > 0],
      protocols: before.memory.episodes.map((e) => e.protocol).sort(),
      rebuilt: after.rebuilt,
      same: { mirror: after.mirror, list: after.list, memory: after.memory },
      edited: {
        keys: edited.episodes.map((e) => e.key),
        problems: edited.problems,
      },
    }).toEqual({
      counts: [2, 1, true],
      protocols: ['council', 'crux'],
      rebuilt: 'missing',
      same: { mirror: before.mirror, list: before.list, memory: before.memory },
      edited: {
        // Newest first: the hand-written line is dated long ago.
        keys: [
          ...before.memory.episodes.filter((e) => e.idea === 'soil-moisture-lora').map((e) => e.key),
          'crux:by-hand',
        ],
        problems: [{ file: 'council/memory/episodes.jsonl', line: lines + 2, reason: 'not JSON (a torn write?)' }],
      },
    });
  });

  it('answers memory list and search on the CLI, for one idea and as JSON, and refuses bad input in words', async () => {
    await open(async (workspace) => {
      await new DebateService(workspace).start({
        ideaSlug: 'soil-moisture-lora',
        agents: ['ethicist', 'investor'],
        provider: 'simulated',
        seed: 7,
      });
      await new DebateService(workspace).start({
        ideaSlug: 'mandarin-through-podcasts',
        agents: ['ethicist', 'investor'],
        provider: 'simulated',
        seed: 7,
      });
    });
    const run = (...args: string[]) => cli(['memory', ...args, '--workspace', ws]);
    const list = JSON.parse(run('list', '--json').stdout);
    const one = JSON.parse(run('list', '--idea', 'soil-moisture-lora', '--json').stdout);
    const search = JSON.parse(run('search', 'soil moisture sensing', '--json').stdout);
    const expected = await open((workspace) => searchMemory(workspace, 'soil moisture sensing'));
    const text = run('list').stdout;
    const bad = [run('search'), run('list', '--idea', 'nope'), run('forget')].map((r) => [
      r.code,
      r.stderr.trim().split('\n')[0],
    ]);
    expect({
      list: list.episodes.map((e: { idea: string }) => e.idea).sort(),
      one: one.episodes.map((e: { idea: string }) => e.idea),
      search: search,
      text: text.split('\n').filter((l: string) => l.startsWith('crux:')).length,
      bad,
    }).toEqual({
      list: ['mandarin-through-podcasts', 'soil-moisture-lora'],
      one: ['soil-moisture-lora'],
      search: expected,
      text: 2,
      bad: [
        [1, 'error: memory search: give the words to look for, e.g. memory search "soil moisture"'],
        [1, 'error: no idea "nope" in this workspace'],
        [1, 'error: memory: unknown subcommand "forget" (list, search)'],
      ],
    });
    expect(search.episodes[0]).toMatchObject({ idea: 'soil-moisture-lora', sameIdea: false });
    expect(search.episodes[0].similarity).toBeGreaterThan(0);
  });
});
