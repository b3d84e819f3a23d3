// Goldens: the JSON the CLI prints for every crux replay example, every evaluation replay fixture, a
// seeded simulated debate and a seeded simulated evaluation in each mode, kept byte for byte in
// tests/goldens/data/. Recorded before the engine refactor (issue 18) so the refactor can show it
// changed nothing a user sees.
//
// To rewrite them after a change that is meant to alter the output:
//
//   UPDATE_GOLDENS=1 npx vitest run tests/goldens
//
// and read the diff of tests/goldens/data/ before committing it.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRUX_EXAMPLES, type Golden, recordGoldens, replayFiles } from './record';

const DATA = join(import.meta.dirname, 'data');
/** The shared examples the repository's copy comes from, beside the checkout when it is there. */
const SHARED_EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'shared', 'examples');
const UPDATE = process.env.UPDATE_GOLDENS === '1';

/** Where two texts first part, as a line a reader can find in the file, or null when they are equal. */
function firstDifference(expected: string, actual: string): string | null {
  if (expected === actual) return null;
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((w, i) => w !== got[i]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: expected ${JSON.stringify(want[at] ?? '(end of file)')}, got ${JSON.stringify(got[at] ?? '(end of file)')}`;
}

describe('goldens of the replays and the seeded simulated runs', { timeout: 180_000 }, () => {
  let goldens: Golden[] = [];
  beforeAll(() => {
    goldens = recordGoldens();
    if (UPDATE) {
      rmSync(DATA, { recursive: true, force: true });
      mkdirSync(DATA, { recursive: true });
      for (const g of goldens) writeFileSync(join(DATA, g.name), g.text);
    }
  }, 180_000);

  it('covers every crux example of the shared folder, copied unchanged into the repository', () => {
    // The shared folder is not part of a clone; where it is present, the copy must still be whole.
    const shared = existsSync(SHARED_EXAMPLES) ? replayFiles(SHARED_EXAMPLES, /^crux-.*\.jsonl$/) : [];
    const stale = shared.filter(
      (f) =>
        !existsSync(join(CRUX_EXAMPLES, f)) ||
        readFileSync(join(CRUX_EXAMPLES, f), 'utf8') !== readFileSync(join(SHARED_EXAMPLES, f), 'utf8'),
    );
    expect(stale).toEqual([]);
  });

  it('prints byte for byte what was recorded, and there is a golden for each output and no other', () => {
    const files = existsSync(DATA) ? readdirSync(DATA).sort() : [];
    const differences = goldens.flatMap((g) => {
      const path = join(DATA, g.name);
      if (!existsSync(path)) return [`${g.name}: no golden (record with UPDATE_GOLDENS=1)`];
      const difference = firstDifference(readFileSync(path, 'utf8'), g.text);
      return difference ? [`${g.name}: ${difference}`] : [];
    });
    expect({ files, differences }).toEqual({ files: goldens.map((g) => g.name).sort(), differences: [] });
  });
});
