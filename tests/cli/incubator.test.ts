import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonView, ImportReportView } from '../../core/contract';
import { cli, cliJson } from '../helpers/run-cli';

// `import DIR` and `compare a,b,c` as a researcher runs them, on a workspace made by `init`.

let root = '';
let ws = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'crucible-incubator-'));
  ws = join(root, 'ws');
  cliJson(['init', ws]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('import', () => {
  it('imports a vault, then skips it the second time; a bad folder is one line naming it', () => {
    const vault = join(root, 'vault');
    cpSync(join(import.meta.dirname, '..', 'fixtures', 'vault'), vault, { recursive: true });
    const first = cliJson<ImportReportView>(['import', vault, '--workspace', ws]);
    const again = cliJson<ImportReportView>(['import', vault, '--workspace', ws]);
    expect([first.created.length, again.created, again.skipped.map((s) => s.slug)]).toEqual([
      4,
      [],
      first.created.map((c) => c.slug),
    ]);
    const text = cli(['import', vault, '--workspace', ws]);
    expect([text.code, text.stdout.split('\n')[0]]).toEqual([
      0,
      `Imported 0 note(s) from ${vault}: 4 already imported, 0 not imported, 2 other file(s) left out.`,
    ]);
    const missing = cli(['import', join(root, 'nowhere'), '--workspace', ws]);
    expect([missing.code, missing.stderr]).toEqual([1, `error: no folder at ${join(root, 'nowhere')}\n`]);
  }, 120_000);
});

describe('compare', () => {
  it('sets three ideas side by side after two simulated evaluations, the third not evaluated', () => {
    const [a, b, c] = ['community-solar-coop', 'dataset-diff-tool', 'soil-moisture-lora'];
    const evaluated = [a, b].map((slug) =>
      cliJson<{ evaluationId: string; composites: { overallScore: number } }>([
        'evaluate',
        slug as string,
        '--mode',
        'quick',
        '--workspace',
        ws,
      ]),
    );
    const view = cliJson<ComparisonView>(['compare', `${a},${b},${c}`, '--workspace', ws]);
    expect(view.ideas.map((i) => [i.slug, i.evaluationId, i.overallScore?.toFixed(4) ?? null])).toEqual([
      [a, evaluated[0]?.evaluationId, evaluated[0]?.composites.overallScore.toFixed(4)],
      [b, evaluated[1]?.evaluationId, evaluated[1]?.composites.overallScore.toFixed(4)],
      [c, null, null],
    ]);
    const text = cli(['compare', `${a},${b},${c}`, '--workspace', ws]);
    expect(text.stdout).toMatch(/^overall\s.*not evaluated/m);
    const unknown = cli(['compare', `${a},nope`, '--workspace', ws]);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'error: no idea "nope" (see: npm run cli -- list)\n']);
    const one = cli(['compare', a as string, '--workspace', ws]);
    expect([one.code, one.stderr]).toEqual([1, 'error: compare takes two to four ideas separated by commas, not 1\n']);
  }, 180_000);
});
