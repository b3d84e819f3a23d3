import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../../core/crux';
import { mismatches } from './expected-match';

// Replay examples of the mechanics added after the design page (issue 19): the cross-thread analysis
// with a structured steelman and a crux challenged into NEEDS_CLARIFICATION, a debate kept honest
// by a devil's advocate and ended by a stop rule, and two debates reaching the same consensus, one
// after evidence aimed at the dissenter and one by following the majority (only that one labelled
// possibly conformity). Their expected results are computed by hand in docs/crux-protocol.md
// ("Worked examples of the later mechanics"); like the shared example's, an expected file lists the
// fields it checks.

const DIR = join(import.meta.dirname, 'scripts');

describe.each(['crux-cross-thread', 'crux-honest', 'crux-conformity-argued', 'crux-conformity-majority'])('%s', (name) => {
  it('matches every field of its hand-computed expected result', () => {
    const result = runReplay(readFileSync(join(DIR, `${name}.jsonl`), 'utf8'));
    const expected: unknown = JSON.parse(readFileSync(join(DIR, `${name}.expected.json`), 'utf8'));
    expect(mismatches(result, expected)).toEqual([]);
  });
});
