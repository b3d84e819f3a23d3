import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDebateLog } from '../../core/engine/log-reader';
import { eventually, start } from '../helpers/cli-process';
import { cli } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// A simulated arena killed with SIGKILL at seeded random moments and resumed each time (`runs
// resume`, the general run service) ends exactly like the same arena run without a break: same
// status, result and transcript, every answer logged once.

const KILLS = Number(process.env.CRUCIBLE_ARENA_KILLS ?? 4);
const LATENCY_MS = 250;
// Seed 3 plays a hollow consensus: the trickster's challenge, its revision round and the re-vote are
// all on the way (32 answers with five agents, room for a dozen kills).
const ARGS = [
  'arena',
  '--idea',
  'solar-coop',
  '--agents',
  'investor,regulator,historian,ethicist,optimist-engineer',
  '--judge',
  'judge',
  '--trickster',
  '--provider',
  'simulated',
  '--seed',
  '3',
  '--json',
];

let reference: { root: string; cleanup: () => void };
let killed: { root: string; cleanup: () => void };
beforeAll(() => {
  const text = readme('A community solar co-op', {}, 'Neighbours pool money for panels on the school roof.');
  reference = tempWorkspace('crucible-arena-ref-');
  killed = tempWorkspace('crucible-arena-kill-');
  for (const ws of [reference, killed]) writeFile(ws.root, 'ideas/solar-coop/README.md', text);
});
afterAll(() => {
  reference.cleanup();
  killed.cleanup();
});

/** A small seeded generator: the kill moments differ from one kill to the next, not between runs. */
function moments(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('a simulated arena', { timeout: 240_000 }, () => {
  it('killed with SIGKILL and resumed, ends equal to an uninterrupted run', async () => {
    const uninterrupted = cli([...ARGS, '--workspace', reference.root]);
    expect(uninterrupted.code).toBe(0);
    const expected = JSON.parse(uninterrupted.stdout);

    const folder = join(killed.root, 'ideas', 'solar-coop', 'arenas');
    const logs = () => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.jsonl')) : []);
    let running = start([...ARGS, '--workspace', killed.root], LATENCY_MS);
    const name = await eventually(() => logs()[0], 'the arena to start its log');
    const id = name.replace('.jsonl', '');
    const records = () => parseDebateLog(readFileSync(join(folder, name), 'utf8')).records;
    const inputs = () => records().filter((r) => r.type === 'input').length;
    const random = moments(11);
    let killedMidway = 0;
    while (killedMidway < KILLS) {
      const from = inputs();
      const more = Math.floor(random() * 3);
      await eventually(() => (inputs() >= from + more || running.child.exitCode !== null ? true : null), 'answers');
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * LATENCY_MS)));
      running.child.kill('SIGKILL');
      // A run that ended before the kill would prove less than this test says.
      expect((await running.exit).code).toBeNull();
      killedMidway++;
      running = start(['runs', 'resume', id, '--workspace', killed.root, '--json'], LATENCY_MS);
    }
    const last = await running.exit;
    const shown = cli(['runs', 'show', id, '--workspace', killed.root, '--json']);
    const final = JSON.parse(shown.stdout);
    // Every answer of the uninterrupted run logged once, no more, no less (the order within a round
    // may differ: its calls answer in their own time).
    const inputsOf = (recs: ReturnType<typeof records>) =>
      recs.flatMap((r) => (r.type === 'input' ? [JSON.stringify(r.input)] : [])).sort();
    const referenceFolder = join(reference.root, 'ideas', 'solar-coop', 'arenas');
    const referenceLog = readdirSync(referenceFolder).find((f) => f.endsWith('.jsonl')) as string;
    const expectedInputs = inputsOf(parseDebateLog(readFileSync(join(referenceFolder, referenceLog), 'utf8')).records);
    const first = records()[0];

    expect({
      killedMidway,
      exit: last.code,
      status: final.status,
      summary: final.summary,
      transcript: final.transcript,
      header: first?.type === 'run_created' ? [first.header.protocol, first.header.version] : null,
      inputs: inputsOf(records()),
      // The shared memory has the arena's episode once, however often the run was resumed.
      episodes: readFileSync(join(killed.root, 'council/memory/episodes.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).key),
    }).toEqual({
      killedMidway: KILLS,
      exit: 0,
      status: 'completed',
      summary: expected.summary,
      transcript: expected.transcript,
      header: ['arena', 1],
      inputs: expectedInputs,
      episodes: [`arena:${id}`],
    });
    // The arena took the path the seed promises: a hollow consensus, challenged and re-voted.
    expect([final.summary.hollow.detected, Boolean(final.summary.firstVote)]).toEqual([true, true]);
  });
});
