import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDebateLog } from '../../core/engine/log-reader';
import { DebateService } from '../../core/node/debates/debate-service';
import { RunService } from '../../core/node/runs/run-service';
import { runRow } from '../../core/node/sqlite/run-queries';
import { Workspace } from '../../core/node/workspace/workspace';
import { protocols } from '../../core/protocols';
import { eventually, start } from '../helpers/cli-process';
import { nodeEntry } from '../helpers/node-entry';
import { tempWorkspace, writeFile, readme } from '../helpers/temp-workspace';
import { tallyEntry } from './tally/protocol';

// A protocol that lives only in tests/ (tests/protocols/tally) runs through the one runner, the one
// log, one writer per run, kill -9 and resume, and the simulator, with nothing in crux or evaluation
// code knowing it exists: its folder and one `protocols.register` line are all it adds.

const CLI = join(import.meta.dirname, 'tally', 'cli.ts');
/** Kills per run; CRUCIBLE_TALLY_KILLS raises it (the acceptance run uses 20). */
const KILLS = Number(process.env.CRUCIBLE_TALLY_KILLS ?? 6);
// Long enough for every kill to land mid-run (about 0.8 s a round, and a zero tolerance is never met).
const SETUP = JSON.stringify({
  agents: ['ada', 'bo', 'cy', 'di', 'ed', 'fay'],
  rounds: Math.max(16, 2 * KILLS),
  tolerance: 0,
});
const LATENCY_MS = 400;

if (!protocols.get('tally')) protocols.register(tallyEntry);

let root: string;
let cleanup: () => void;
beforeAll(() => {
  ({ root, cleanup } = tempWorkspace('crucible-tally-'));
  writeFile(root, 'ideas/solar-coop/README.md', readme('A community solar co-op'));
  writeFile(root, 'setup.json', SETUP);
});
afterAll(() => cleanup());

const cli = (args: string[]) => start([...args, '--workspace', root], LATENCY_MS, CLI);

function cliNow(args: string[]) {
  const run = spawnSync(process.execPath, [...nodeEntry(CLI), ...args, '--workspace', root], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const logsIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.jsonl')) : []);
const recordsOf = (rel: string) => parseDebateLog(readFileSync(join(root, rel), 'utf8')).records;

/** What a second writer in this process is told while the CLI's process holds run `id`. */
async function secondWriter(id: string): Promise<string> {
  const ws = Workspace.open(root);
  try {
    await new RunService(ws, protocols).resume(id);
    return 'resumed';
  } catch (error) {
    return (error as Error).message;
  } finally {
    ws.close();
  }
}

/** A small seeded generator, so the kill moments differ from one kill to the next but not between runs. */
function moments(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('a protocol that lives only in the tests', { timeout: 240_000 }, () => {
  it('runs through the runner and the log, is refused a second writer, and after kill -9 at random moments resumes to the uninterrupted result', async () => {
    // The reference: the same run, uninterrupted, in this process.
    const ws = Workspace.open(root);
    ws.sync();
    let reference: Awaited<ReturnType<RunService['start']>>;
    try {
      reference = await new RunService(ws, protocols).start({
        protocol: 'tally',
        ideaSlug: 'solar-coop',
        topic: 'A community solar co-op',
        provider: 'simulated',
        seed: 5,
        setup: JSON.parse(SETUP),
      });
    } finally {
      ws.close();
    }
    expect(reference.status).toBe('completed');
    const folder = join(root, 'ideas', 'solar-coop', 'tallies');
    const before = new Set(logsIn(folder));

    const first = cli([
      'run',
      'tally',
      '--idea',
      'solar-coop',
      '--setup',
      join(root, 'setup.json'),
      '--seed',
      '5',
      '--json',
    ]);
    const name = await eventually(() => logsIn(folder).find((f) => !before.has(f)), 'the run to start its log');
    const id = name.replace('.jsonl', '');
    const rel = `ideas/solar-coop/tallies/${name}`;
    // A second writer, while the first holds the run, is refused and writes nothing.
    await eventually(() => (recordsOf(rel).some((r) => r.type === 'input') ? true : null), 'its first answers');
    const second = await secondWriter(id);
    // Another process pauses and resumes it through its control file, as it would a debate.
    const paused = cliNow(['runs', 'pause', id, '--json']);
    const resumed = cliNow(['runs', 'resume', id, '--json']);
    const random = moments(7);
    let killedMidway = 0;
    let running = first;
    const inputs = () => recordsOf(rel).filter((r) => r.type === 'input').length;
    while (killedMidway < KILLS) {
      // Somewhere in the next few answers: before a round, mid-round, or between two records.
      const from = inputs();
      const more = Math.floor(random() * 3);
      await eventually(
        () => (inputs() >= from + more || running.child.exitCode !== null ? true : null),
        'the run to go on',
      );
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * LATENCY_MS)));
      running.child.kill('SIGKILL');
      // A run that ended before the kill would make this test prove less than it says.
      expect((await running.exit).code).toBeNull();
      killedMidway++;
      running = cli(['runs', 'resume', id, '--json']);
    }
    const last = await running.exit;
    const shown = cliNow(['runs', 'show', id, '--json']);
    const final = JSON.parse(shown.stdout) as typeof reference;
    const records = recordsOf(rel);
    // A rebuilt index takes the run back from its log, like a debate's or an evaluation's.
    rmSync(join(root, '.crucible', 'index.db'), { force: true });
    const rebuilt = Workspace.open(root);
    let indexed: ReturnType<typeof runRow>;
    try {
      rebuilt.sync();
      new DebateService(rebuilt);
      indexed = runRow(rebuilt.db, id);
    } finally {
      rebuilt.close();
    }

    expect({
      second,
      control: [paused.code, JSON.parse(paused.stdout).status, resumed.code, JSON.parse(resumed.stdout).status],
      killedMidway,
      exit: last.code,
      status: final.status,
      summary: final.summary,
      transcript: final.transcript,
      header: records[0]?.type === 'run_created' ? [records[0].header.protocol, records[0].header.version] : null,
      indexed: indexed ? [indexed.protocol, indexed.status, indexed.logPath] : null,
      answeredOnce:
        new Set(records.filter((r) => r.type === 'input').map((r) => JSON.stringify(r.input))).size ===
        records.filter((r) => r.type === 'input').length,
    }).toEqual({
      second: expect.stringMatching(
        new RegExp(`^run ${id} is running in process \\d+ .*\`runs pause\\|stop ${id}\`$`),
      ),
      control: [0, 'paused', 0, 'running'],
      killedMidway: KILLS,
      exit: 0,
      status: 'completed',
      summary: reference.summary,
      transcript: reference.transcript,
      header: ['tally', 1],
      indexed: ['tally', 'completed', rel],
      answeredOnce: true,
    });
  });

  it('says which protocols exist when asked for one that does not, and checks the setup against its schema', () => {
    const unknown = cliNow(['run', 'tallies', '--topic', 'x']);
    const bad = cliNow(['run', 'tally', '--topic', 'x', '--setup', join(root, 'bad.json')]);
    writeFile(root, 'bad.json', JSON.stringify({ agents: ['ada'], rounds: 0 }));
    const badAgain = cliNow(['run', 'tally', '--topic', 'x', '--setup', join(root, 'bad.json')]);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'error: no protocol "tallies" (registered: crux, evaluation, arena, council, tally)\n',
    ]);
    expect(bad.code).toBe(1);
    expect([badAgain.code, badAgain.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: the tally setup: setup: agents: .*; setup: rounds: .*\n$/),
    ]);
  });
});
