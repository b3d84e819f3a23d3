import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonView } from '../../core/contract';
import type { FinalSynthesisDocument } from '../../core/evaluation';
import { cli, cliJson } from '../helpers/run-cli';

// `compare a,b,c --json` for three ideas each evaluated by the CLI itself: every number the
// comparison gives is the one the evaluation's own document locked.

let root = '';
let ws = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'crucible-compare-'));
  ws = join(root, 'ws');
  cliJson(['init', ws]);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('compare a,b,c', () => {
  it('sets three evaluated ideas side by side with the scores, narratives and staleness their documents hold', () => {
    const slugs = ['community-solar-coop', 'dataset-diff-tool', 'soil-moisture-lora'];
    const documents = slugs.map((slug, i) =>
      cliJson<FinalSynthesisDocument>([
        'evaluate',
        slug,
        '--mode',
        'quick',
        '--seed',
        String(i + 1),
        '--workspace',
        ws,
      ]),
    );
    const view = cliJson<ComparisonView>(['compare', slugs.join(','), '--workspace', ws]);
    const fromDocument = (slug: string, d: FinalSynthesisDocument) => ({
      slug,
      evaluationId: d.evaluationId,
      overallScore: d.composites.overallScore,
      confidence: d.composites.overallConfidence,
      recommendation: d.narrative.recommendation,
      categories: Object.fromEntries(d.categories.map((c) => [c.category, c.finalScore])),
      criteria: Object.fromEntries(d.scores.map((c) => [c.criterion, c.finalScore])),
      strengths: d.narrative.keyStrengths,
      weaknesses: d.narrative.keyWeaknesses,
      stale: false,
      staleReasons: [],
    });
    const round = (n: number | null) => (n === null ? null : Math.round(n * 10_000) / 10_000);
    const shown = view.ideas.map((i) => ({
      slug: i.slug,
      evaluationId: i.evaluationId,
      overallScore: round(i.overallScore),
      confidence: round(i.confidence),
      recommendation: i.recommendation,
      categories: Object.fromEntries(Object.entries(i.categories).map(([k, v]) => [k, round(v)])),
      criteria: i.criteria,
      strengths: i.strengths,
      weaknesses: i.weaknesses,
      stale: i.stale,
      staleReasons: i.staleReasons,
    }));
    expect(shown).toEqual(slugs.map((slug, i) => fromDocument(slug, documents[i] as FinalSynthesisDocument)));
    // Three different seeds: three different evaluations, and the columns are not one copied thrice.
    expect(new Set(view.ideas.map((i) => i.overallScore)).size).toBe(3);
    expect(Object.keys(view.ideas[0]?.criteria ?? {})).toHaveLength(30);

    const text = cli(['compare', slugs.join(','), '--workspace', ws]);
    const overall = text.stdout.split('\n').find((l) => l.startsWith('overall')) ?? '';
    expect(
      overall
        .trimEnd()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(documents.map((d) => d.composites.overallScore.toFixed(1)));
  }, 240_000);
});
