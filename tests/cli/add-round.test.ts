import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalSynthesisDocument } from '../../core/evaluation';
import { cli, cliJson } from '../helpers/run-cli';
import { eventually, runHeldBy, start } from '../helpers/cli-process';
import { tempWorkspace } from '../helpers/temp-workspace';

// `evaluations add-round ID` from a second process, to an evaluation `evaluate` runs in a first:
// asked through run-control like stop and approve, fed to the runner as an input, so the run log
// and the locked document carry it.

let root: string;
let cleanup: () => void;
let ws: string;
const IDEA = 'dataset-diff-tool';

describe('evaluations add-round', { timeout: 240_000 }, () => {
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-cli-add-round-'));
    ws = join(root, 'lab');
    cliJson(['init', ws]);
  });
  afterAll(() => cleanup());

  it('grants a running evaluation one more round, recorded in its log and its document', async () => {
    // Half a second a call: a standard evaluation outlasts a second CLI process starting.
    const run = start(['evaluate', IDEA, '--mode', 'standard', '--workspace', ws, '--json'], 500);
    const id = await eventually(() => runHeldBy(ws, run.child.pid as number), 'the evaluation to start');
    const granted = cliJson<{ id: string; roundLimit: number }>(['evaluations', 'add-round', id, '--workspace', ws]);
    const end = await run.exit;
    expect(end.code).toBe(0);
    const doc = JSON.parse(end.stdout) as FinalSynthesisDocument;
    const log = readFileSync(join(ws, 'ideas', IDEA, 'evaluations', `${id}.run.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; input?: { kind: string } });
    expect({
      granted: granted.roundLimit,
      atLock: doc.convergence.roundLimit,
      logged: log.filter((r) => r.type === 'input' && r.input?.kind === 'add_round').length,
    }).toEqual({ granted: 4, atLock: 4, logged: 1 });

    // Locked now: nothing runs it, so nothing can be granted.
    const late = cli(['evaluations', 'add-round', id, '--workspace', ws]);
    expect([late.code, late.stderr]).toEqual([
      1,
      `error: evaluation ${id} is not running: only a running evaluation can be given another round (resume it first: evaluations resume ${id})\n`,
    ]);
  });
});
