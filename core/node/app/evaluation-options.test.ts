import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { ContractError } from '../../contract';
import { finalSynthesisDocumentSchema, runEvaluationReplay } from '../../evaluation';
import { appRoot } from '../app-root';
import { loadTaxonomy } from '../taxonomy-loader';
import { type App, createApp } from './create-app';

// The debate options as the evaluate form sends them (`evaluations:start`'s `options`), through a
// real app and the simulator: they reach the protocol's config, the locked record and synthesis.md,
// and the evaluation's own replay script runs under them again to the same document.

const IDEA = 'community-solar-coop';
let root: string;
let cleanup: () => void;
let app: App | null = null;

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-eval-options-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
});
afterEach(async () => {
  await app?.close();
  app = null;
  cleanup();
});

async function locked(app: App, id: string) {
  const until = Date.now() + 30_000;
  for (;;) {
    const detail = await app.client.invoke('evaluations:get', { id });
    if (detail.status === 'completed') return detail;
    if (detail.status === 'failed' || Date.now() > until) throw new Error(`evaluation ${id}: ${detail.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('debate options from the evaluate form', () => {
  it('reach the protocol, the record and synthesis.md, and the kept script replays under them', async () => {
    app = await createApp({ workspaceRoot: root, watch: false });
    const options = {
      redTeamersPerEvaluator: 1,
      firstPrinciples: 'strict',
      arbiter: 'passive',
      adjustmentRange: 3,
      minConfidence: 0.55,
    } as const;
    const { id } = await app.client.invoke('evaluations:start', {
      slug: IDEA,
      mode: 'standard',
      provider: 'simulated',
      options,
    });
    const detail = await locked(app, id);
    const folder = join(root, 'ideas', IDEA);
    const record = finalSynthesisDocumentSchema.parse(
      JSON.parse(readFileSync(join(folder, 'evaluations', `${id}.json`), 'utf8')),
    );
    const synthesis = readFileSync(join(folder, 'synthesis.md'), 'utf8');
    const replayed = runEvaluationReplay(
      readFileSync(join(folder, 'evaluations', `${id}.jsonl`), 'utf8'),
      loadTaxonomy(null),
    );
    expect({
      shown: detail.options,
      config: {
        redTeamersPerEvaluator: record.config.redTeamersPerEvaluator,
        firstPrinciples: record.config.firstPrinciples,
        arbiter: record.config.arbiter,
        range: record.config.scoreAdjustmentRange,
        confidence: record.config.confidence,
      },
      frontmatter: /\noptions:\n((?: {2}.+\n)+)/.exec(synthesis)?.[1],
    }).toEqual({
      shown: {
        ...options,
        words:
          'at most 1 red-teamer per evaluator, strict first principles, passive arbiter, adjustments within ±3, minimum confidence 0.55',
      },
      config: {
        redTeamersPerEvaluator: 1,
        firstPrinciples: 'strict',
        arbiter: 'passive',
        range: 3,
        confidence: { minimum: 0.55, criticalMinimum: 0.65 },
      },
      frontmatter:
        '  redTeamersPerEvaluator: 1\n  firstPrinciples: strict\n  arbiter: passive\n  adjustmentRange: 3\n  minConfidence: 0.55\n',
    });
    // The same answers under the same options give the same document, to the last figure.
    expect(replayed).toEqual(record);
    // A passive arbiter: every challenge on one criterion in one round ends at the same score.
    const ends = new Map<string, Set<number | null>>();
    for (const c of record.auditTrail.conflicts) {
      const key = `${c.round}/${c.criterion}`;
      ends.set(key, new Set([...(ends.get(key) ?? []), c.scoreAfter]));
    }
    expect([...ends.values()].every((s) => s.size === 1)).toBe(true);
  }, 60_000);

  it('refuses an option out of range, naming the field, and starts nothing', async () => {
    app = await createApp({ workspaceRoot: root, watch: false });
    const error = await app.client
      .invoke('evaluations:start', {
        slug: IDEA,
        mode: 'quick',
        provider: 'simulated',
        options: { minConfidence: 0.95 },
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ContractError);
    expect({ code: (error as ContractError).code, field: (error as ContractError).field }).toEqual({
      code: 'bad_input',
      field: 'options.minConfidence',
    });
    expect((await app.client.invoke('evaluations:list', { slug: IDEA })).evaluations).toEqual([]);
  });
});
