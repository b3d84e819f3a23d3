import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLog } from '../../core/pipeline/log';
import { replayLog } from '../../core/pipeline/replay';
import { DEFAULT_PIPELINE_SETTINGS, type PipelineSettings } from '../../core/pipeline/steps';

// Replay scripts of the pipeline's decisions: pipeline logs the service wrote (kept as they were
// written, in tests/fixtures/pipeline/), replayed through `decide`. Every step the log says the
// pipeline started or skipped must be the one `decide` picks from the entries before it, for the
// reason the entry gives — so a change to the decisions, or to how a log folds, that would make a
// log already on a researcher's disk go on differently fails here.
//
//   red-team-reevaluation.md  evaluate, red team and classify on, the review gate on, the simulator:
//                             the red team's round is held with 5 CRITICAL challenges, approved, and
//                             one undefended sends the idea back to evaluation once.
//   budget-hold.md            evaluate and classify on, a provider that charges a cent a call: the
//                             evaluation is refused for the day's budget, runs the next day with an
//                             evaluation budget of 18½ calls, is held where that budget ran out (the
//                             gate at a limit), approved, and locks from its figures at no cost.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'pipeline');
const on = (...steps: (keyof PipelineSettings['steps'])[]): PipelineSettings => ({
  ...DEFAULT_PIPELINE_SETTINGS,
  steps: { ...DEFAULT_PIPELINE_SETTINGS.steps, capture: true, ...Object.fromEntries(steps.map((s) => [s, true])) },
});
const replay = (file: string, settings: PipelineSettings) =>
  replayLog(file, parseLog(readFileSync(join(FIXTURES, file), 'utf8'), file), settings);
/** A decision as words: step, kind, and what makes it particular. */
const words = (d: ReturnType<typeof replay>['decisions'][number]['decided']) =>
  d === null
    ? 'nothing'
    : [d.step, d.kind, d.reevaluation ? 're-evaluation' : '', d.approved ? `approved, lock: ${d.lock}` : '']
        .filter(Boolean)
        .join(' ');

describe('replayed pipeline logs', () => {
  it('a red team held in the gate, approved, and an undefended CRITICAL challenge that sends the idea back', () => {
    const { decisions, finished } = replay('red-team-reevaluation.md', on('evaluate', 'redteam', 'classify'));
    expect(decisions.map((d) => words(d.decided))).toEqual([
      'evaluate start',
      'redteam start',
      'redteam resume approved, lock: narrative',
      'evaluate start re-evaluation',
      'classify start',
    ]);
    expect(decisions.filter((d) => !d.agrees)).toEqual([]);
    expect(finished).toBe(true);
  });

  it('a refusal for the day’s budget, then a hold where the evaluation’s budget ran out, approved', () => {
    const { decisions, finished } = replay('budget-hold.md', on('evaluate', 'classify'));
    expect(decisions.map((d) => words(d.decided))).toEqual([
      'evaluate start',
      'evaluate resume approved, lock: figures',
      'classify start',
    ]);
    expect(decisions.filter((d) => !d.agrees)).toEqual([]);
    expect(finished).toBe(true);
  });

  it('says where a log and the decisions part', () => {
    // The same log, read as if the red team had been switched off: its red-team entries no longer
    // follow (the re-evaluation its round asked for still does: the red team's verdict stands).
    const { decisions, finished } = replay('red-team-reevaluation.md', on('evaluate', 'classify'));
    expect(decisions.filter((d) => !d.agrees).map((d) => [d.index, d.entry.step, words(d.decided)])).toEqual([
      [3, 'redteam', 'classify start'],
      [6, 'redteam', 'classify start'],
    ]);
    expect(finished).toBe(true);
  });
});
