import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, finishedDebate, lockedEvaluation, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/** axe-core's script: a pinned dependency (DEVELOPERS.md), so a missing one is a broken install, not a skip. */
function axeScript(): string {
  try {
    return readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  } catch {
    throw new Error('axe-core is missing from node_modules: run npm ci (it is a pinned dev dependency)');
  }
}
const AXE = axeScript();

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/**
 * Every view, light and dark, checked by axe-core (issue 22): no serious or critical violation.
 * Each view is opened by its route and checked once what says its content is there has appeared.
 */
describe.skipIf(!chromiumPath)('every view passes axe-core, light and dark', () => {
  const { s, go } = sessionPerFile();
  let debate = '';
  let evaluation = '';

  beforeAll(async () => {
    debate = await finishedDebate(s.app, IDEA, 3, 7);
    evaluation = await lockedEvaluation(s.app, IDEA, 'quick');
  }, 180_000);

  const views = (): [string, string, string][] => [
    ['library', '#/library', '.library-row[data-slug]'],
    ['idea', `#/idea/${IDEA}`, '.idea-head h1'],
    ['pipeline', '#/pipeline', '.pipeline-card'],
    ['graph', '#/graph', '.graph-canvas[data-laid-out]'],
    ['matrix', '#/matrix', '[data-testid="matrix-row"]'],
    ['leaderboards', '#/leaderboards', '[data-testid="leaderboard-row"]'],
    ['personas board', '#/leaderboards?tab=personas', '[data-testid="leaderboard-personas"]'],
    ['convergence list', '#/convergence', 'table[aria-label="Evaluations"]'],
    ['convergence', `#/convergence/${evaluation}`, '[data-testid="convergence-chart"]'],
    ['debate course', `#/convergence/debate/${debate}`, '[data-testid="debate-course"]'],
    ['evaluation', `#/evaluation/${evaluation}`, '[data-testid="overall-score"]'],
    ['debate', `#/debate/${debate}`, '[data-testid="debate-status"]'],
    ['crux map', `#/crux-map/${debate}`, '[data-testid="crux-graph"]'],
    ['ledger', '#/ledger', '.ledger-view h1'],
    ['transcripts', '#/transcripts', '[data-testid="transcripts"]'],
    ['debate transcript', `#/transcript/debate/${debate}`, '.transcript-list .virtual-row'],
    ['evaluation transcript', `#/transcript/evaluation/${evaluation}`, '.transcript-view h1'],
    ['export', '#/export', '.view.export h1'],
    ['settings', '#/settings', '.view.settings h1'],
    ['glossary', '#/glossary', 'dl.glossary dt'],
  ];

  for (const theme of ['light', 'dark'] as const) {
    it(`finds no serious or critical violation on any view in the ${theme} theme`, async () => {
      const { page } = s;
      await page.evaluate((t) => localStorage.setItem('crucible.theme', t), theme);
      await page.reload();
      const found: string[] = [];
      for (const [name, hash, ready] of views()) {
        await go(hash);
        await page.locator(ready).first().waitFor({ timeout: 30_000 });
        // Charts and graphs settle a moment after their container appears.
        await page.waitForTimeout(300);
        await page.evaluate(AXE);
        const violations = await page.evaluate(() =>
          (
            globalThis as unknown as {
              axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }> };
            }
          ).axe
            .run(globalThis.document, { resultTypes: ['violations'] })
            .then((r) =>
              r.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                nodes: v.nodes.map((n) => ({ target: n.target })),
              })),
            ),
        );
        for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
          const where = v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join('; ');
          found.push(`${name}: ${v.id} (${v.impact}) × ${v.nodes.length}: ${where}`);
        }
      }
      expect(found).toEqual([]);
    }, 300_000);
  }
});
