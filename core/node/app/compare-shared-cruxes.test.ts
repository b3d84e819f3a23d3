import { describe, expect, it } from 'vitest';
import { appPerTest } from '../../../tests/helpers/app-harness';
import { readme, writeFile } from '../../../tests/helpers/temp-workspace';
import type { Channel } from '../../contract';
import type { App } from './create-app';

// "Cruxes they share" through a real app: two variants of one idea (the north roofs, the south
// roofs) and an unrelated one (a diff tool for datasets), each debated by the simulator. Its crux
// questions are worded from each idea's title, so the variants' cruxes differ by a word and the
// unrelated idea's by several: the global crux graph holds the variants' to be one question each,
// and the comparison names those for the variants, in the first one's words — and none for the
// unrelated idea.

const answered = new Set<Channel>();
const NORTH = 'solar-north-roofs';
const SOUTH = 'solar-south-roofs';
const UNRELATED = 'dataset-diff-tool';
const t = appPerTest('crucible-compare-cruxes-', answered, [UNRELATED]);
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];

async function finished(app: App, id: string, get: 'debates:get' | 'evaluations:get'): Promise<void> {
  const until = Date.now() + 30_000;
  while ((await app.handlers[get]({ id })).status === 'running') {
    if (Date.now() > until) throw new Error(`${id} did not finish`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the cruxes a comparison shows', () => {
  it('are the crux graph’s nodes reached by the debates of two or more of the compared ideas', async () => {
    for (const [slug, side] of [
      [NORTH, 'North'],
      [SOUTH, 'South'],
    ])
      writeFile(
        t.root,
        `ideas/${slug}/README.md`,
        readme(`${side} roofs: community-owned solar panels`, { type: 'business' }, 'Neighbours share the output.'),
      );
    const app = await t.boot();
    for (const slug of [NORTH, SOUTH, UNRELATED]) {
      const { id } = await t.call(app, 'debates:start', {
        ideaSlug: slug,
        agents: AGENTS,
        provider: 'simulated',
        seed: 3,
      });
      await finished(app, id, 'debates:get');
      const { id: evaluation } = await t.call(app, 'evaluations:start', { slug, mode: 'quick', provider: 'simulated' });
      await finished(app, evaluation, 'evaluations:get');
    }
    const graph = await t.call(app, 'cruxes:graph', {});
    const wordings = (n: (typeof graph.nodes)[number], slug: string) =>
      n.members.filter((m) => m.ideaSlug === slug).map((m) => m.question);
    const variants = graph.nodes.filter((n) => n.ideas.includes(NORTH) && n.ideas.includes(SOUTH));
    // The graph's own reading first: nodes across the two debates, worded apart, none with the unrelated idea.
    expect(variants.length).toBeGreaterThan(0);
    expect(variants.every((n) => !n.ideas.includes(UNRELATED))).toBe(true);
    for (const n of variants) expect(wordings(n, NORTH)).not.toEqual(wordings(n, SOUTH));

    const view = await t.call(app, 'ideas:compare', { slugs: [NORTH, UNRELATED, SOUTH] });
    expect(view.sharedCruxes).toEqual(
      variants.map((n) => ({ question: wordings(n, NORTH)[0], slugs: [NORTH, SOUTH] })),
    );
    // Each idea lists every crux its debate reached, in its own words.
    for (const idea of view.ideas) expect(idea.cruxes).toEqual(graph.nodes.flatMap((n) => wordings(n, idea.slug)));
  }, 120_000);
});
