import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { debateSubject, evaluationSubject } from '../../scripts/kill-resume/subjects';
import { firstDifference, killResume } from '../../scripts/kill-resume/trials';
import { normalise } from '../goldens/normalise';
import { cli, cliJson } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// `npm run kill-resume -- --times 20` at a size CI can afford: a seeded simulated debate and a
// seeded simulated (standard) evaluation, each killed -9 at random moments as a CLI process and
// resumed, must show what an uninterrupted run shows. The uninterrupted runs are the ones the
// goldens record (paced here to be killable), so they must equal those goldens as well: the pacing
// changes nothing, and what is compared is the whole shown result.

const GOLDENS = join(import.meta.dirname, '..', 'goldens', 'data');
const golden = (name: string) => readFileSync(join(GOLDENS, name), 'utf8');

describe('kill -9 at a random moment, then resume', { timeout: 240_000 }, () => {
  it('ends a simulated debate and a simulated evaluation exactly as an uninterrupted run does', async () => {
    const references: Record<string, string> = {};
    const report = await killResume({
      times: 3,
      seed: 11,
      subjects: [debateSubject, evaluationSubject],
      onReference: (kind, text) => {
        references[kind] = text;
      },
    });
    const summary = Object.fromEntries(
      Object.entries(report).map(([kind, f]) => [
        kind,
        { killedMidway: f.killedMidway, unequal: f.runs - f.equal, differences: f.differences },
      ]),
    );
    expect({
      summary,
      // Where a reference first parts from its golden, or null: the line to look at when it fails.
      debateReference: firstDifference(golden('debate-simulated-4-agents-seed-7.show.json'), references.debate ?? ''),
      evaluationReference: firstDifference(
        golden('evaluate-simulated-standard-seed-3.show.json'),
        references.evaluation ?? '',
      ),
    }).toEqual({
      summary: {
        debate: { killedMidway: 3, unequal: 0, differences: [] },
        evaluation: { killedMidway: 3, unequal: 0, differences: [] },
      },
      debateReference: null,
      evaluationReference: null,
    });
  });
});

describe('a debate killed between its header and its first thread', () => {
  const { root, cleanup } = tempWorkspace('crucible-kill-header-');
  afterAll(() => cleanup());

  it('is resumed into the whole debate, not ended at once with nothing said', () => {
    // The moment is too short to hit at will (the random kills found it): its log is cut back to
    // what such a kill leaves, the header alone.
    const ws = join(root, 'lab');
    cliJson(['init', ws]);
    const run = cliJson<{ id: string; log: string }>(debateSubject.start(ws).slice(0, -1));
    const log = join(ws, run.log);
    writeFileSync(log, `${readFileSync(log, 'utf8').split('\n')[0]}\n`);
    const resumed = cli(debateSubject.resume(ws, run.id));
    const shown = cli(['debates', 'show', run.id, '--workspace', ws, '--json']);
    const text = normalise(shown.stdout, { [ws]: '<workspace>', [run.id]: '<debate-id>' });
    expect({
      resumed: resumed.code,
      difference: firstDifference(golden('debate-simulated-4-agents-seed-7.show.json'), text),
    }).toEqual({ resumed: 0, difference: null });
  });
});
