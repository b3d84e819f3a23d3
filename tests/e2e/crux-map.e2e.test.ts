import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainWords } from '../../renderer/src/ui/glossary';
import { ROOFTOP_SHARE, runRelatedDebates, TARIFF } from '../helpers/related-debates';
import { chromiumPath, openSession, type Session, sampleWorkspace, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/** What the test reads of the graph cytoscape drew (its instance hangs on its container). */
interface Drawn {
  layout: string | undefined;
  canvas: { w: number; h: number };
  box: { x1: number; x2: number; y1: number; y2: number };
  nodes: { id: string; type: string; lean: string | null; x: number; y: number; label: string; colour: string }[];
  edges: { source: string; target: string; side: string | null; label: string; colour: string }[];
  selected: string[];
}

/** The graph cytoscape drew on the page. */
const drawnOn = (page: Page): Promise<Drawn> =>
  page.evaluate(() => {
    // biome-ignore lint/suspicious/noExplicitAny: cytoscape's own registry on its container
    const element = document.querySelector('[data-testid="crux-graph"]') as any;
    const cy = element._cyreg.cy;
    const bb = cy.elements().renderedBoundingBox({ includeLabels: true });
    return {
      layout: element.dataset.layout,
      canvas: { w: cy.width(), h: cy.height() },
      box: { x1: bb.x1, x2: bb.x2, y1: bb.y1, y2: bb.y2 },
      // biome-ignore lint/suspicious/noExplicitAny: cytoscape elements
      nodes: cy.nodes().map((n: any) => ({
        id: n.id(),
        type: n.data('type'),
        lean: n.data('lean') ?? null,
        x: n.renderedPosition().x,
        y: n.renderedPosition().y,
        label: n.style('label'),
        colour: n.style('background-color'),
      })),
      // biome-ignore lint/suspicious/noExplicitAny: cytoscape elements
      edges: cy.edges().map((e: any) => ({
        source: e.source().id(),
        target: e.target().id(),
        side: e.data('side') ?? null,
        label: e.style('label'),
        colour: e.style('line-color'),
      })),
      // biome-ignore lint/suspicious/noExplicitAny: cytoscape elements
      selected: cy.$(':selected').map((n: any) => n.id()),
    };
  });

/**
 * The crux map of issue 22: laid out by side (YES agents left, NO right, the undecided below),
 * every line labelled, the full question on hover and selection, fitted to its canvas, and a
 * legend; colours that mean one thing (green/red are YES/NO lines only, agents in their persona's).
 */
describe.skipIf(!chromiumPath)('the crux map', () => {
  const { s, ws, go } = sessionPerFile();
  let debateId = '';
  const drawn = () => drawnOn(s.page);
  /** Colours compared without spaces: cytoscape writes `rgb(1,2,3)`, the page `rgb(1, 2, 3)`. */
  const flat = (colour: string | undefined) => (colour ?? '').replace(/\s+/g, '');
  /** A theme colour as the canvas gets it (`rgb(…)`). */
  const colourOf = (css: string) =>
    s.page.evaluate((value) => {
      const probe = document.createElement('span');
      probe.style.color = value;
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour.replace(/\s+/g, '');
    }, css);

  beforeAll(async () => {
    const { personas } = await s.app.client.invoke('personas:list', { role: 'debater' });
    // Five agents, seed 3: a crux with YES, NO and undecided agents.
    ({ id: debateId } = await s.app.client.invoke('debates:start', {
      ideaSlug: IDEA,
      agents: personas.slice(0, 5).map((p) => p.id),
      provider: 'simulated',
      seed: 3,
    }));
    const until = Date.now() + 90_000;
    while ((await s.app.client.invoke('debates:get', { id: debateId })).status === 'running') {
      if (Date.now() > until) throw new Error('the simulated debate did not end');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);

  it('lays the map out by side, labels every line, fits it to the canvas and explains it in a legend', async () => {
    const { page } = s;
    const map = await s.app.client.invoke('debates:cruxMap', { id: debateId });
    await go(`#/crux-map/${debateId}`);
    await page.locator('[data-testid="crux-graph"][data-layout="sides"]').waitFor();
    const d = await drawn();
    const node = (id: string) => d.nodes.find((n) => n.id === id);
    const cruxes = d.nodes.filter((n) => n.type === 'crux');
    const agents = d.nodes.filter((n) => n.type === 'agent');
    const leans = new Set(agents.map((a) => a.lean));
    // The debate has agents on each side (else the test proves nothing).
    expect([...leans].sort()).toEqual(['NO', 'UNCERTAIN', 'YES']);
    const left = Math.min(...cruxes.map((c) => c.x));
    const right = Math.max(...cruxes.map((c) => c.x));
    const lowest = Math.max(...cruxes.map((c) => c.y));
    for (const a of agents) {
      if (a.lean === 'YES') expect(a.x).toBeLessThan(left);
      else if (a.lean === 'NO') expect(a.x).toBeGreaterThan(right);
      else expect(a.y).toBeGreaterThan(lowest);
    }

    // Every line says what it is: the side and confidence the agent gave it.
    const sides = map.cruxes.flatMap((c) => c.positions.map((p) => ({ crux: c.id, ...p })));
    expect(d.edges.filter((e) => e.side !== null)).toHaveLength(sides.length);
    for (const p of sides) {
      const edge = d.edges.find((e) => e.source === `agent:${p.agent}` && e.target === p.crux);
      const word = p.side === 'UNCERTAIN' ? 'unsure' : p.side;
      expect(edge?.label).toBe(p.confidence === null ? word : `${word} ${Math.round(p.confidence * 100)}%`);
    }
    // Crux labels carry the whole question (these are short enough).
    for (const c of map.cruxes) expect(node(c.id)?.label).toBe(c.question);

    // Fitted: the drawing lies inside the canvas and fills most of its width or height.
    const { box, canvas } = d;
    expect(box.x1 >= 0 && box.y1 >= 0 && box.x2 <= canvas.w + 1 && box.y2 <= canvas.h + 1).toBe(true);
    expect(Math.max((box.x2 - box.x1) / canvas.w, (box.y2 - box.y1) / canvas.h)).toBeGreaterThan(0.8);

    // Colours: green and red only on YES and NO lines; a crux is never filled with either; an
    // agent wears its persona's colour, as in the list beside the graph.
    const [ok, danger] = [await colourOf('var(--ok)'), await colourOf('var(--danger)')];
    for (const e of d.edges.filter((e) => e.side === 'YES')) expect(flat(e.colour)).toBe(ok);
    for (const e of d.edges.filter((e) => e.side === 'NO')) expect(flat(e.colour)).toBe(danger);
    for (const c of cruxes) expect([ok, danger]).not.toContain(flat(c.colour));
    const list = page.getByRole('navigation', { name: 'Cruxes and agents' });
    for (const a of map.agents) {
      const listed = await list
        .getByRole('button', { name: a.name, exact: true })
        .evaluate((el) => getComputedStyle(el).color);
      expect(flat(node(`agent:${a.id}`)?.colour)).toBe(flat(listed));
      expect([ok, danger]).not.toContain(flat(listed));
    }

    const legend = page.getByTestId('crux-legend');
    const words = (await legend.textContent()) ?? '';
    for (const w of [
      'primary',
      'validated',
      'not validated',
      'open',
      'size: DCG',
      'YES',
      'NO',
      'unsure',
      'rests on',
      'contradicts',
    ]) {
      expect(words).toContain(w);
    }
    await s.screenshot('crux-map-sides');
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('shows a node’s full text on hover and on selection, and keeps the whole map in view beside the panel', async () => {
    const { page } = s;
    const map = await s.app.client.invoke('debates:cruxMap', { id: debateId });
    const crux = map.cruxes[0];
    if (!crux) throw new Error('the debate has no crux');
    const graph = page.getByTestId('crux-graph');
    const frame = await graph.boundingBox();
    const at = (await drawn()).nodes.find((n) => n.id === crux.id);
    if (!frame || !at) throw new Error('the graph or its crux is not drawn');
    await page.mouse.move(frame.x + at.x, frame.y + at.y);
    const tip = page.getByTestId('crux-tooltip');
    await tip.waitFor();
    expect(await tip.textContent()).toBe(crux.question);
    await page.mouse.move(frame.x + 2, frame.y + 2);
    await tip.waitFor({ state: 'detached' });

    await page.mouse.click(frame.x + at.x, frame.y + at.y);
    await page.getByTestId('crux-detail').getByRole('heading', { name: crux.question }).waitFor();
    // The panel narrows the canvas: the map is laid out again for it, all of it in view.
    await page.waitForFunction(
      (w) => (document.querySelector('[data-testid="crux-graph"]')?.clientWidth ?? w) < w,
      frame.width,
    );
    await page.waitForTimeout(300);
    const d = await drawn();
    expect(d.selected).toEqual([crux.id]);
    expect(d.nodes.find((n) => n.id === crux.id)?.label).toBe(crux.question);
    expect(d.box.x1 >= 0 && d.box.x2 <= d.canvas.w + 1 && d.box.y1 >= 0 && d.box.y2 <= d.canvas.h + 1).toBe(true);

    // The panel says the thread's state and the DCG in words, each with its (?), and a horizon
    // that agrees with the question's own time frame.
    const panel = page.getByTestId('crux-detail');
    const state = panel.getByTestId('thread-status');
    expect(await state.getAttribute('data-code')).toBe(crux.threadStatus);
    expect(await state.getAttribute('title')).toBe(crux.threadStatus);
    expect(await state.textContent()).toBe(plainWords(crux.threadStatus));
    expect(await state.textContent()).not.toBe(crux.threadStatus);
    if (crux.dcg === null) throw new Error('the first crux has no DCG');
    const dcg = panel.getByTestId('crux-dcg');
    expect(await dcg.textContent()).toContain(`(DCG, 0–1): ${crux.dcg.toFixed(2)}`);
    expect(await dcg.getByRole('link', { name: 'What “DCG” means' }).count()).toBe(1);
    expect(crux.question).toMatch(/within 18 months\?$/);
    expect(crux.dominantHorizon).toBe('12-18mo');
    expect(await panel.textContent()).toContain('horizon 12-18mo');
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('keeps the positions of a node the researcher moved beside the debate’s log, and only then', async () => {
    const { page } = s;
    const file = join(ws.root, 'ideas', IDEA, 'debates', `${debateId}.layout.json`);
    expect(existsSync(file)).toBe(false);
    const graph = page.getByTestId('crux-graph');
    const frame = await graph.boundingBox();
    const agent = (await drawn()).nodes.find((n) => n.type === 'agent');
    if (!frame || !agent) throw new Error('no agent drawn');
    await page.mouse.move(frame.x + agent.x, frame.y + agent.y);
    await page.mouse.down();
    await page.mouse.move(frame.x + agent.x + 40, frame.y + agent.y + 30, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => document.body.textContent?.includes('layout saved'));
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).positions)).toContain(agent.id);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('shows every debate’s cruxes together at #/crux-map, reached from the ledger, each leading back to its debate', async () => {
    const { page } = s;
    const graph = await s.app.client.invoke('cruxes:graph', {});
    // The debate crystallized at least one crux, or there is nothing to show.
    expect(graph.nodes.length).toBeGreaterThan(0);
    await go('#/ledger');
    await page.getByRole('link', { name: 'crux map of the workspace' }).click();
    const view = page.getByTestId('workspace-crux-map');
    await view.waitFor();
    await page.locator('[data-testid="crux-graph"][data-layout]').waitFor();
    // The list and the drawing hold the graph's nodes, and its dependencies as "rests on" lines.
    const listed = await page.getByTestId('workspace-cruxes').getByRole('button').allTextContents();
    expect(listed).toEqual(graph.nodes.map((n) => n.question));
    const d = await drawn();
    expect(d.nodes.map((n) => n.id).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    expect(d.edges.map((e) => [e.source, e.target]).sort()).toEqual(graph.edges.map((e) => [e.from, e.to]).sort());
    expect(await page.getByTestId('recommended').locator('li').count()).toBe(graph.recommended.length);

    // A crux's detail names the debate it came from and links into that debate's own map.
    const first = graph.nodes[0] as (typeof graph.nodes)[number];
    await page.getByTestId('workspace-cruxes').getByRole('button', { name: first.question, exact: true }).click();
    const detail = page.getByTestId('workspace-crux-detail');
    await detail.getByRole('heading', { name: first.question }).waitFor();
    const member = first.members[0] as (typeof first.members)[number];
    await s.screenshot('crux-map-workspace');
    await detail.getByRole('link').first().click();
    await page.waitForFunction((id) => window.location.hash.startsWith(`#/crux-map/${id}`), member.debateId);
    await page.getByTestId('crux-detail').getByRole('heading', { name: member.question }).waitFor();
    expect(s.problems).toEqual([]);
  }, 60_000);
});

/**
 * The workspace crux map over three simulated debates on related ideas whose cruxes meet
 * (tests/helpers/related-debates.ts): within the solar co-op's debate a duplicate confirmed by a
 * second call, across the three ideas the same tariff question in other words, and a dependency (the
 * bike workshop's rooftop question, which the tariff question rests on). Through the handlers, then
 * in the browser.
 */
describe.skipIf(!chromiumPath)('the workspace crux map over three debates on related ideas', () => {
  const ws = sampleWorkspace();
  let session: Session | null = null;
  const s = () => session as Session;
  beforeAll(async () => {
    // The debates run before the app opens the workspace, which takes them from their logs.
    expect(await runRelatedDebates(ws.root)).toEqual(['completed', 'completed', 'completed']);
    session = await openSession(ws.root);
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    ws.cleanup();
  });

  it('shows the merged duplicates and the dependency, through the handlers and in the browser', async () => {
    const graph = await s().app.client.invoke('cruxes:graph', {});
    const [solar, bikes, soil] = graph.debates.map((d) => d.id);
    const tariff = graph.nodes.find((n) => n.question === TARIFF);
    const rooftop = graph.nodes.find((n) => n.question === ROOFTOP_SHARE);
    if (!tariff || !rooftop) throw new Error('the graph lacks the tariff or the rooftop crux');
    expect({
      merges: graph.merges.map((m) => [m.from, m.into, m.via]),
      edges: graph.edges.map((e) => [e.kind, e.from, e.to]),
      members: tariff.members.map((m) => [m.debateId, m.thread, m.mergedInto]),
    }).toEqual({
      merges: [
        [`${solar}/t2`, `${solar}/t1`, 'confirmed'],
        [`${bikes}/t1`, `${solar}/t1`, 'wording'],
        [`${soil}/t1`, `${solar}/t1`, 'wording'],
      ],
      edges: [['SUPPORTS', rooftop.id, tariff.id]],
      members: [
        [solar, 't1', null],
        [solar, 't2', 't1'],
        [bikes, 't1', null],
        [soil, 't1', null],
      ],
    });

    const { page } = s();
    await page.evaluate((h) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = h;
    }, '#/crux-map');
    const view = page.getByTestId('workspace-crux-map');
    await view.waitFor();
    await page.locator('[data-testid="crux-graph"][data-layout]').waitFor();
    // The head counts them; the drawing has one node per global crux (the four tariff cruxes are
    // one) and the dependency as a line from the deeper crux.
    expect(await view.locator('header').textContent()).toContain(
      `${graph.nodes.length} cruxes from 3 debates · 3 merged · 1 dependency`,
    );
    const d = await drawnOn(page);
    expect({
      nodes: d.nodes.map((n) => n.id).sort(),
      edges: d.edges.map((e) => [e.source, e.target]),
    }).toEqual({ nodes: graph.nodes.map((n) => n.id).sort(), edges: [[rooftop.id, tariff.id]] });

    // The tariff crux's detail: the four debates' cruxes it stands for, its merged duplicates (one
    // confirmed by a second call, two by their wording) and the crux it rests on.
    await page.getByTestId('workspace-cruxes').getByRole('button', { name: TARIFF, exact: true }).click();
    const detail = page.getByTestId('workspace-crux-detail');
    await detail.getByRole('heading', { name: TARIFF }).waitFor();
    const merged = await detail.getByTestId('merged-duplicates').locator('li').allTextContents();
    const dependencies = await detail.getByTestId('dependencies').locator('li').allTextContents();
    expect({
      debatedIn: await detail.locator('h3:has-text("Debated in") + ul > li').count(),
      merged: merged.map((m) => [
        m.slice(0, m.indexOf(': ')),
        m.includes('confirmed by a second call') ? 'confirmed' : 'wording',
      ]),
      dependencies: dependencies.map((t) => t.split(' — ')[0]),
    }).toEqual({
      debatedIn: 4,
      merged: [
        [`${solar}/t2 into ${solar}/t1`, 'confirmed'],
        [`${bikes}/t1 into ${solar}/t1`, 'wording'],
        [`${soil}/t1 into ${solar}/t1`, 'wording'],
      ],
      dependencies: [
        `rests on \u201c${ROOFTOP_SHARE}\u201d (SUPPORTS, confidence ${graph.edges[0]?.confidence}, confirmed)`,
      ],
    });
    await s().screenshot('crux-map-workspace-related');

    // Across debates the words only merged them: the head says so, and the check puts each pair to
    // a first call and a second (the settings' provider, here the simulator), after which every
    // merge of the tariff crux rests on a second call.
    const cross = view.getByTestId('cross-debate');
    expect(await cross.textContent()).toBe(
      'Across debates: 0 pairs checked by a model (0 confirmed) · 5 to check (merged on their wording until then)',
    );
    await view.getByRole('button', { name: 'Check across debates (simulated)' }).click();
    await cross.filter({ hasText: 'Across debates: 5 pairs checked by a model (4 confirmed) · 0 to check' }).waitFor();
    expect(await view.getByRole('button', { name: /Check across debates/ }).count()).toBe(0);
    const checked = await detail.getByTestId('merged-duplicates').locator('li').allTextContents();
    expect(checked.map((m) => [m.slice(0, m.indexOf(': ')), m.includes('confirmed by a second call')])).toEqual([
      [`${solar}/t2 into ${solar}/t1`, true],
      [`${soil}/t1 into ${solar}/t1`, true],
      [`${bikes}/t1 into ${solar}/t1`, true],
    ]);
    expect(s().problems).toEqual([]);
  }, 90_000);
});
