import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalSynthesisDocument } from '../../core/evaluation';
import { cli, cliJson } from '../helpers/run-cli';

// `evaluate --option NAME=VALUE`, repeated, over a config file's options: the locked document runs
// under them and says so; a bad one is one line naming the option.

let root = '';
let ws = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'crucible-eval-options-'));
  ws = join(root, 'ws');
  cliJson(['init', ws]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('evaluate --option', () => {
  it('sets the debate options, a flag winning over the config file option by option', () => {
    const config = join(root, 'evaluation.yaml');
    writeFileSync(config, 'mode: quick\noptions:\n  arbiter: active\n  adjustmentRange: 1\n');
    const doc = cliJson<FinalSynthesisDocument>([
      'evaluate',
      'dataset-diff-tool',
      '--config',
      config,
      '--option',
      'arbiter=passive',
      '--option',
      'minConfidence=0.6',
      '--option',
      'firstPrinciples=strict',
      '--workspace',
      ws,
    ]);
    expect({
      mode: doc.mode,
      arbiter: doc.config.arbiter,
      range: doc.config.scoreAdjustmentRange,
      confidence: doc.config.confidence,
      firstPrinciples: doc.config.firstPrinciples,
      redTeamers: doc.config.redTeamersPerEvaluator,
    }).toEqual({
      mode: 'quick',
      arbiter: 'passive',
      range: 1,
      confidence: { minimum: 0.6, criticalMinimum: 0.7 },
      firstPrinciples: 'strict',
      redTeamers: null,
    });
    const synthesis = readFileSync(join(ws, 'ideas', 'dataset-diff-tool', 'synthesis.md'), 'utf8');
    expect(synthesis).toContain(
      '\noptions:\n  redTeamersPerEvaluator: null\n  firstPrinciples: strict\n  arbiter: passive\n  adjustmentRange: 1\n  minConfidence: 0.6\n',
    );
  }, 120_000);

  it('names the option and what is wrong with it', () => {
    const run = (...pairs: string[]) => {
      const r = cli(['evaluate', 'dataset-diff-tool', ...pairs.flatMap((p) => ['--option', p]), '--workspace', ws]);
      return [r.code, r.stderr];
    };
    expect([run('minConfidence=2'), run('depth=deep'), run('arbiter=sometimes')]).toEqual([
      [1, 'error: evaluate: --option minConfidence: must be at most 0.9\n'],
      [
        1,
        'error: evaluate: --option unknown option "depth" (one of redTeamersPerEvaluator, firstPrinciples, arbiter, adjustmentRange, minConfidence)\n',
      ],
      [1, 'error: evaluate: --option arbiter: must be passive or active\n'],
    ]);
  }, 60_000);
});
