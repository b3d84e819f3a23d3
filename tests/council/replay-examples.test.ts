import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { councilRecorder, replayCouncil } from '../../core/council';
import { initWorkspace } from '../../core/node/workspace/init-workspace';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';
import { COUNCIL_FIXTURES, councilWorkspace } from './council-workspace';

// Every replay example with its expected result, computed by hand in docs/council-protocol.md. The
// actions really run, on a copy of the sample ideas, through the council's safe-write port.

const examples = readdirSync(COUNCIL_FIXTURES)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.replace(/\.jsonl$/, ''))
  .sort();

const read = (name: string, ext: string) => readFileSync(join(COUNCIL_FIXTURES, `${name}${ext}`), 'utf8');

describe('council replay examples', () => {
  it('covers each stakes level and each ladder level', () => {
    const results = examples.map((name) => JSON.parse(read(name, '.expected.json')));
    const stakes = new Set(results.flatMap((r) => r.proposals.map((p: { stakes: string }) => p.stakes)));
    const ladders = new Set(results.flatMap((r) => r.proposals.map((p: { ladder: number }) => p.ladder)));
    expect([[...stakes].sort(), [...ladders].sort()]).toEqual([
      ['high', 'low', 'medium'],
      [0, 1, 2, 3, 4],
    ]);
  });

  it('holds the shared example as the shared folder has it, where that folder is beside the checkout', () => {
    const shared = join(import.meta.dirname, '..', '..', '..', 'shared', 'examples');
    const names = existsSync(shared) ? readdirSync(shared).filter((f) => f.startsWith('council-')) : [];
    expect(
      names.filter(
        (f) => !existsSync(join(COUNCIL_FIXTURES, f)) || read(f, '') !== readFileSync(join(shared, f), 'utf8'),
      ),
    ).toEqual([]);
  });

  for (const name of examples) {
    it(`${name} gives exactly its expected result`, () => {
      const { files, cleanup } = councilWorkspace();
      try {
        const out = replayCouncil(read(name, '.jsonl'), files, {
          taskId: 'T1',
          observer: councilRecorder(files, 'T1'),
        });
        expect(out.result).toEqual(JSON.parse(read(name, '.expected.json')));
      } finally {
        cleanup();
      }
    });
  }
});

describe('npm run cli -- council --replay', { timeout: 120_000 }, () => {
  let root: string;
  let cleanup: () => void;
  let ws: string;
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-council-cli-'));
    ws = join(root, 'lab');
    initWorkspace(ws);
  });
  afterAll(() => cleanup());

  it('prints exactly the shared example’s expected result, and exits 2 naming the line of a bad script', () => {
    const run = cli([
      'council',
      '--replay',
      join(COUNCIL_FIXTURES, 'council-replay-small.jsonl'),
      '--workspace',
      ws,
      '--json',
    ]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(read('council-replay-small', '.expected.json')));
    expect(readFileSync(join(ws, 'ideas/soil-moisture-lora/notes/resume-checklist.md'), 'utf8')).toContain(
      '- [ ] Loan of the university',
    );

    const lines = read('council-replay-small', '.jsonl').split('\n');
    const bad = join(tmpdir(), `council-bad-${process.pid}.jsonl`);
    // The integrator's review where the verifier's is due.
    writeFileSync(bad, [lines[0], lines[1], lines[3], lines[2]].join('\n'));
    const failed = cli(['council', '--replay', bad, '--workspace', ws, '--json']);
    expect([failed.code, failed.stdout, failed.stderr.trim()]).toEqual([
      2,
      '',
      `error: ${bad}: line 3: expected a review by the verifier of p1, found a review by the integrator`,
    ]);
  });
});
