import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayCapture } from '../../core/capture/replay';
import { appRoot } from '../../core/node/app-root';
import { CaptureService } from '../../core/node/capture/capture-service';
import { nodeHasher } from '../../core/node/hasher';
import { Workspace } from '../../core/node/workspace/workspace';
import { ScriptError } from '../../core/text/script-lines';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// Every capture replay script with its expected result (docs/capture.md works the small one out by
// hand). A script without a library of its own is placed against the sample ideas.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'capture');
const examples = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.replace(/\.jsonl$/, ''))
  .sort();
const read = (name: string, ext: string) => readFileSync(join(FIXTURES, `${name}${ext}`), 'utf8');

let root = '';
let cleanup = () => {};
let ws: Workspace;
beforeAll(() => {
  ({ root, cleanup } = tempWorkspace('crucible-capture-replay-'));
  cpSync(join(appRoot(), 'ideas'), join(root, 'ideas'), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
});
afterAll(() => {
  ws.close();
  cleanup();
});

describe('capture replay scripts', () => {
  it('cover each decision, each way of deciding, a choice and a wait', () => {
    const results = examples.map((name) => JSON.parse(read(name, '.expected.json')));
    expect({
      decisions: [...new Set(results.map((r) => r.decision))].sort(),
      by: [...new Set(results.map((r) => r.by))].sort(),
      placed: [...new Set(results.map((r) => r.placed?.split(':')[0] ?? null))].sort(),
    }).toEqual({
      decisions: ['AMBIGUOUS', 'EXISTING', 'NEW'],
      by: ['identity', 'lexical', 'model'],
      placed: ['existing', 'inspired', 'new', null],
    });
  });

  for (const name of examples) {
    it(`${name} gives exactly its expected result`, () => {
      const library = new CaptureService(ws).library();
      expect(replayCapture(read(name, '.jsonl'), { hasher: nodeHasher, library })).toEqual(
        JSON.parse(read(name, '.expected.json')),
      );
    });
  }

  it('names the line of a script it cannot run', () => {
    const lines = read('capture-replay-small', '.jsonl').split('\n');
    const fail = (script: string) => {
      try {
        replayCapture(script, { hasher: nodeHasher });
        return null;
      } catch (error) {
        if (!(error instanceof ScriptError)) throw error;
        return error.message;
      }
    };
    const answer = JSON.parse(lines[1] as string);
    const elsewhere = JSON.stringify({ ...answer, output: { ...answer.output, candidates: ['lichens-of-mars'] } });
    expect([
      fail(''),
      fail('{"type": "capture", "text": "Solar roofs", "library": [{"slug": "a"}]}'),
      fail('{"type": "capture", "text": "Solar roofs for everyone"}'),
      fail([lines[0], elsewhere].join('\n')),
      fail([lines[0], lines[2], lines[1]].join('\n')),
      fail([lines[0], '{"type": "choice", "as": "existing:nowhere"}'].join('\n')),
      fail([lines[0], '{"type": "choice", "as": "later"}'].join('\n')),
    ]).toEqual([
      'line 1: the script is empty: it starts with a "capture" line',
      'line 1: schema violation at library[0].title: Invalid input: expected string, received undefined',
      'line 1: schema violation at library: no library, and no workspace to place it in',
      'line 2: the answer is refused: candidates[0]: "lichens-of-mars" is not one of the ideas listed (solar-coop, kiln, lichens)',
      'line 3: a placement comes once, before the choice',
      'line 2: schema violation at as: no idea "nowhere" in the library',
      'line 2: schema violation at as: "later" is not new, existing:SLUG or inspired:SLUG',
    ]);
  });
});

describe('npm run cli -- capture --replay', { timeout: 120_000 }, () => {
  it('prints exactly the expected result, and exits 2 naming the line of a bad script', () => {
    const run = cli(['capture', '--replay', join(FIXTURES, 'sample-existing.jsonl'), '--workspace', root, '--json']);
    expect([run.code, run.stderr, JSON.parse(run.stdout)]).toEqual([
      0,
      '',
      JSON.parse(read('sample-existing', '.expected.json')),
    ]);
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, `${read('sample-existing', '.jsonl').split('\n')[0]}\n{"type": "choice", "as": "maybe"}\n`);
    const failed = cli(['capture', '--replay', bad, '--workspace', root]);
    expect([failed.code, failed.stderr]).toEqual([
      2,
      `error: ${bad}: line 2: schema violation at as: "maybe" is not new, existing:SLUG or inspired:SLUG\n`,
    ]);
  });
});
