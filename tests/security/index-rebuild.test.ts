import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appRoot } from '../../core/node/app-root';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// Issue 16, item 8: after `.crucible/index.db` was deleted, the next `evaluate` had no record of its
// last write, took all three unedited generated files for edited ones, wrote conflict copies of each
// and left the old synthesis.md in place.

const IDEA = 'llm-judge-calibration';
let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-rebuild-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
});
afterEach(() => cleanup());

const folder = () => join(root, 'ideas', IDEA);
const read = (name: string) => readFileSync(join(folder(), name), 'utf8');
/** Evaluates the idea in a real CLI process; returns the new evaluation's id and what it printed. */
function evaluate(seed: number): { id: string; stdout: string } {
  const run = cli(['evaluate', IDEA, '--workspace', root, '--seed', String(seed), '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { id: (JSON.parse(run.stdout) as { evaluationId: string }).evaluationId, stdout: run.stdout };
}
/** What the folder shows after a run: conflict copies, and which evaluation each generated file is of. */
function state(first: string, second: string) {
  const of = (name: string) => {
    const text = read(name);
    return text.includes(second) ? 'second' : text.includes(first) ? 'first' : 'neither';
  };
  return {
    conflicts: readdirSync(folder()).filter((n) => n.includes('.conflict-')),
    synthesis: of('synthesis.md'),
    evaluation: of('evaluation.md'),
    redteam: of('redteam.md'),
  };
}

describe('an index rebuilt from the folder still knows which generated files are the app’s', {
  timeout: 300_000,
}, () => {
  it('unedited files are replaced without conflict copies', () => {
    const first = evaluate(1);
    rmSync(join(root, '.crucible', 'index.db'));
    const second = evaluate(2);
    expect(state(first.id, second.id)).toEqual({
      conflicts: [],
      synthesis: 'second',
      evaluation: 'second',
      redteam: 'second',
    });
  });

  it('a file the researcher edited is kept, and only its new version goes beside it', () => {
    const first = evaluate(1);
    appendFileSync(join(folder(), 'evaluation.md'), '\nMy own note on this evaluation.\n');
    const edited = read('evaluation.md');
    rmSync(join(root, '.crucible', 'index.db'));
    const second = evaluate(2);
    const after = state(first.id, second.id);
    expect({ ...after, evaluationText: read('evaluation.md') === edited }).toEqual({
      conflicts: [expect.stringMatching(/^evaluation\.conflict-\d{8}T\d{6}Z\.md$/)],
      synthesis: 'second',
      evaluation: 'first',
      redteam: 'second',
      evaluationText: true,
    });
    expect(read(after.conflicts[0] as string)).toContain(second.id);
  });
});
