import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../../core/crux';
import { cli } from '../helpers/run-cli';
import { mismatches } from './expected-match';

// The shared example: its expected file is the contract an independent implementation must meet.

// A copy of the shared example lives in the repository so a clean clone can run it anywhere.
const EXAMPLES = join(import.meta.dirname, '..', 'fixtures', 'crux');
const scriptText = readFileSync(`${EXAMPLES}/crux-replay-small.jsonl`, 'utf8');
const expected: unknown = JSON.parse(readFileSync(`${EXAMPLES}/crux-replay-small.expected.json`, 'utf8'));

describe('crux-replay-small example', () => {
  it('matches every field of the expected result', () => {
    expect(mismatches(runReplay(scriptText), expected)).toEqual([]);
  });

  it('is the shared folder’s example byte for byte, where that folder is beside the checkout', () => {
    const shared = join(import.meta.dirname, '..', '..', '..', 'shared', 'examples');
    const names = existsSync(shared) ? readdirSync(shared).filter((f) => f.startsWith('crux-')) : [];
    const differ = names.filter(
      (f) => !existsSync(join(EXAMPLES, f)) || readFileSync(join(EXAMPLES, f), 'utf8') !== readFileSync(join(shared, f), 'utf8'),
    );
    expect(differ).toEqual([]);
  });

  it('is compared strictly enough to notice a wrong value', () => {
    const result = runReplay(scriptText);
    const wrong = structuredClone(result);
    const thread = wrong.threads[0];
    if (!thread?.crux) throw new Error('the example should crystallize t1');
    thread.lockFailures = [...thread.lockFailures].reverse(); // order is free
    thread.crux.dcg.score = 0.71;
    wrong.systemMetrics.steelmanAccuracyRate = 0.667;
    wrong.systemMetrics.moderatorInterventions.COMMIT_REQUEST = 1;
    expect(mismatches(wrong, expected)).toEqual([
      '$.threads[0].crux.dcg.score: expected 0.7, got 0.71',
      '$.systemMetrics.moderatorInterventions.COMMIT_REQUEST: expected no count, got 1',
      '$.systemMetrics.steelmanAccuracyRate: expected 0.6667, got 0.667',
    ]);
  });
});

describe('npm run cli -- replay', () => {
  it('prints the same result for the example, and exits 2 naming the line of a bad script', () => {
    const run = cli(['replay', join(EXAMPLES, 'crux-replay-small.jsonl'), '--json']);
    expect(run.code).toBe(0);
    expect(mismatches(JSON.parse(run.stdout), expected)).toEqual([]);

    const bad = join(tmpdir(), `crux-bad-${process.pid}.jsonl`);
    writeFileSync(bad, `${scriptText.split('\n')[0]}\n{"type":"message","thread":"t1","agent":"zed","move":"CLAIM","content":"x"}\n`);
    const failed = cli(['replay', bad, '--json']);
    expect([failed.code, failed.stdout, failed.stderr.trim()]).toEqual([2, '', `error: ${bad}: line 2: unknown thread id "t1"`]);
  });
});
