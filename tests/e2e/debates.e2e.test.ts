import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainWords } from '../../renderer/src/ui/glossary';
import { type Session, chromiumPath, openSession, sampleWorkspace } from './harness';

const IDEA = 'community-solar-coop';

describe.skipIf(!chromiumPath)('crux debates in the window', () => {
  const ws = sampleWorkspace();
  let s: Session;
  let debateId = '';
  const previousLatency = process.env.CRUCIBLE_SIMULATED_LATENCY_MS;

  beforeAll(async () => {
    // Slow the simulator down enough to watch the columns fill.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '120';
    s = await openSession(ws.root);
  }, 180_000);
  afterAll(async () => {
    if (previousLatency === undefined) delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    else process.env.CRUCIBLE_SIMULATED_LATENCY_MS = previousLatency;
    await s?.close();
    ws.cleanup();
  });

  it('starts a simulated crux debate from the idea page and watches its columns fill live', async () => {
    const { page } = s;
    await page.evaluate((slug) => {
      window.location.hash = `#/idea/${slug}`;
    }, IDEA);
    let panel = page.getByRole('region', { name: 'Crux debates' });
    try {
      await panel.waitFor({ timeout: 8000 });
    } catch {
      // The idea page does not show the panel (yet): the debate view offers the same panel.
      await page.evaluate((slug) => {
        window.location.hash = `#/debate?idea=${slug}`;
      }, IDEA);
      panel = page.getByRole('region', { name: 'Crux debates' });
      await panel.waitFor();
    }
    await panel.getByRole('button', { name: 'Start a crux debate' }).click();
    const form = page.getByRole('form', { name: 'Start a crux debate' });
    await form.getByRole('checkbox').first().waitFor();
    // The form shows what every debater will read: the idea's summary, and its README on demand.
    const summary =
      /^summary: "(.*)"$/m.exec(readFileSync(join(ws.root, 'ideas', IDEA, 'README.md'), 'utf8'))?.[1] ?? '?';
    await form.getByTestId('debate-subject').filter({ hasText: summary }).waitFor();
    expect(await form.getByRole('checkbox', { checked: true }).count()).toBeGreaterThanOrEqual(2);
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('simulated');
    // The Advanced section takes the protocol settings the CLI's flags set, checked as they are typed:
    // a wrong one is named with its field and keeps the debate from starting.
    await form.getByText('Advanced', { exact: true }).click();
    const attempts = form.getByRole('textbox', { name: 'Lock attempts' });
    await attempts.fill('0');
    await form
      .getByTestId('advanced-problem')
      .filter({ hasText: 'Lock attempts (maxLockAttempts): Too small: expected number to be >0' })
      .waitFor();
    expect(await form.getByRole('button', { name: 'Start the debate' }).isDisabled()).toBe(true);
    // The values the defaults have, given explicitly: the debate runs as it would have, its header says so.
    await attempts.fill('3');
    await form.getByRole('combobox', { name: 'Steelman rule' }).selectOption('each-across');
    expect(await form.getByTestId('advanced-problem').count()).toBe(0);
    // The likely cost is shown before anything starts.
    await form.getByTestId('estimate').filter({ hasText: 'Likely cost: $0' }).waitFor();
    await form.getByRole('button', { name: 'Start the debate' }).click();
    await page.waitForFunction(() => /^#\/debate\/[0-9a-z]{26}$/.test(window.location.hash));
    debateId = await page.evaluate(() => window.location.hash.split('/')[2] ?? '');

    // While it runs, the number of messages shown grows.
    const posted = page.getByTestId('posted');
    const count = async () => Number((await posted.textContent())?.match(/\d+/)?.[0] ?? 0);
    await page.getByTestId('debate-status').filter({ hasText: 'running' }).waitFor();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="posted"]')?.textContent?.match(/\d+/)?.[0]) >= 3,
    );
    // Agents write where the researcher can watch: a turn shows as a draft in its column, growing,
    // until its message lands.
    const drafted = await page.waitForFunction(
      () => {
        for (const el of document.querySelectorAll('[data-testid="draft"]')) {
          const text = el.querySelector('p')?.textContent ?? '';
          if (el.textContent?.includes('writing…') && text.length > 10) return text;
        }
        return null;
      },
      undefined,
      { timeout: 30_000 },
    );
    expect(String(await drafted.jsonValue()).length).toBeGreaterThan(10);
    const early = await count();
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="posted"]')?.textContent?.match(/\d+/)?.[0]) >= n + 5,
      early,
    );
    expect(await page.getByTestId('debate-status').textContent()).toBe('running');
    expect(await count()).toBeGreaterThan(early);
    const column = page.getByRole('region', { name: 'Thread t1' });
    expect(await column.getByTestId('stage').getAttribute('data-code')).toMatch(
      /^(DISCOVERY|CRUX_LOCK|EVIDENCE|CONVERGED)$/,
    );
    await s.screenshot('debate-live');

    await page.getByTestId('debate-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
    const detail = await s.app.client.invoke('debates:get', { id: debateId });
    expect(detail.header.config).toEqual({ maxLockAttempts: 3, steelmanRule: 'each-across' });
    // Every accepted message of the log is in a column, refused moves and the moderator visibly apart.
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="posted"]')?.textContent?.match(/\d+/)?.[0]) === n,
      detail.result.systemMetrics.messagesTotal,
    );
    // The header and the meter count the same thing, labelled, and agree.
    const accepted = detail.result.systemMetrics.messagesTotal;
    expect(await page.getByTestId('posted').textContent()).toBe(`${accepted} of 200 messages`);
    expect(await page.getByTestId('meter').textContent()).toContain(`Accepted messages${accepted} of 200`);
    expect(await page.locator('.debate-msg.blocked').count()).toBe(detail.result.systemMetrics.messagesBlocked);
    expect(await page.getByTestId('draft').count()).toBe(0);
    expect(await page.locator('.debate-msg.moderator').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('meter').textContent()).toContain(`${detail.result.systemMetrics.llmCalls} calls`);
    // A column is headed by its question (shortened, the whole in its tooltip), its id only beside it.
    const heading = column.getByTestId('thread-question');
    const full = (await heading.getAttribute('title')) ?? '';
    expect(full).toMatch(/\?$/);
    const shown = ((await heading.textContent()) ?? '').replace(/…$/, '');
    expect(shown.length).toBeGreaterThan(10);
    expect(full.startsWith(shown)).toBe(true);
    // The primary crux is named by its question, not only "t1".
    const primary = detail.result.threads.find((t) => t.id === detail.result.primaryCrux)?.crux;
    if (!primary) throw new Error('the debate has no primary crux');
    const note = page.locator('.debate-notes li').filter({ hasText: 'The primary crux is now' }).last();
    expect(await note.textContent()).not.toMatch(/now t\d+\b/);
    expect(await note.textContent()).toContain(`“${primary.question.slice(0, 30)}`);
    expect(await note.getAttribute('title')).toContain(`${primary.question} (thread ${detail.result.primaryCrux})`);
    expect(s.problems).toEqual([]);
  }, 180_000);

  it('sets a single pass beside the finished debate from its view, its cost shown first', async () => {
    const { page } = s;
    await page.evaluate((id) => {
      window.location.hash = `#/debate/${id}`;
    }, debateId);
    await page.getByTestId('debate-status').filter({ hasText: 'completed' }).waitFor();
    expect(await page.getByTestId('baseline').count()).toBe(0);
    await page.getByRole('button', { name: 'Compare with a single pass…' }).click();
    // Nothing is asked before the cost is shown: one call per debater, free on the simulator.
    const estimate = await s.app.client.invoke('debates:baselineEstimate', { id: debateId });
    const agents = (await s.app.client.invoke('debates:get', { id: debateId })).header.agents;
    expect(estimate.calls).toBe(agents.length);
    await page
      .getByTestId('baseline-estimate')
      .filter({ hasText: `Each debater asked once, alone: ${estimate.calls} calls, free (${estimate.basis}).` })
      .waitFor();
    expect(existsSync(join(ws.root, 'ideas', IDEA, 'debates', `${debateId}.baseline.json`))).toBe(false);
    await page.getByRole('button', { name: 'Run the single pass' }).click();

    const card = page.getByTestId('baseline');
    await card.waitFor();
    // What the card shows is the comparison the channel answered with, now kept beside the debate.
    const baseline = (await s.app.client.invoke('debates:get', { id: debateId })).baseline;
    if (!baseline) throw new Error('the single pass was not kept beside the debate');
    expect(existsSync(join(ws.root, 'ideas', IDEA, 'debates', `${debateId}.baseline.json`))).toBe(true);
    const { single, debate } = baseline.cost;
    expect(await card.getByTestId('baseline-cost').textContent()).toContain(
      `The single pass took ${single.llmCalls} calls and $${single.costUsd.toFixed(4)}; the debate ${debate.llmCalls} calls`,
    );
    const rows = card.getByRole('table', { name: 'Alone and after the debate' }).getByRole('row');
    const shown = (await rows.allTextContents()).slice(1);
    const name = (id: string) => agents.find((a) => a.id === id)?.name ?? id;
    expect(
      shown.map((text, i) => [
        text.startsWith(name(baseline.agents[i]?.agent ?? '')),
        text.includes(baseline.agents[i]?.single?.crux ?? '?'),
      ]),
    ).toEqual(baseline.agents.map(() => [true, true]));
    expect(await page.getByTestId('baseline-offer').count()).toBe(0);
    await s.screenshot('debate-baseline');
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('opens the crux map and shows a crux’s positions and falsifiers when it is picked', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'crux map' }).first().click();
    await page.waitForFunction((id) => window.location.hash === `#/crux-map/${id}`, debateId);
    const map = await s.app.client.invoke('debates:cruxMap', { id: debateId });
    const crux = map.cruxes.find((c) => c.crystallized && c.positions.some((p) => p.falsifier));
    expect(crux).toBeDefined();
    const list = page.getByRole('navigation', { name: 'Cruxes and agents' });
    await list.getByRole('button', { name: crux?.question }).click();
    const panel = page.getByTestId('crux-detail');
    await panel.getByRole('heading', { name: crux?.question }).waitFor();
    const withFalsifier = crux?.positions.find((p) => p.falsifier);
    await panel.getByTestId('falsifiers').filter({ hasText: withFalsifier?.falsifier?.metric }).waitFor();
    expect(await panel.getByTestId('positions').getByRole('row').count()).toBe(crux?.positions.length);
    // The graph itself is drawn (cytoscape's canvases are in place and sized).
    const canvases = await page.getByTestId('crux-graph').locator('canvas').count();
    expect(canvases).toBeGreaterThan(0);
    await s.screenshot('crux-map');
    // Laid out by side, the map keeps no file until the researcher moves a node (crux-map.e2e.test.ts).
    await page.locator('[data-testid="crux-graph"][data-layout="sides"]').waitFor();
    expect(existsSync(join(ws.root, 'ideas', IDEA, 'debates', `${debateId}.layout.json`))).toBe(false);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('records in the ledger how a falsifier resolved, into the workspace’s ledger.md', async () => {
    const { page } = s;
    await page.evaluate(() => {
      window.location.hash = '#/ledger';
    });
    const table = page.getByRole('table', { name: 'Falsifiers' });
    await table.getByRole('row').nth(1).waitFor();
    const first = table.getByRole('row').nth(1);
    const key = await first.getAttribute('data-key');
    await first.getByRole('button', { name: 'Record how it resolved' }).click();
    const form = page.getByRole('form', { name: /falsifier resolved/ });
    await form.getByRole('combobox', { name: 'Outcome' }).selectOption('falsified');
    await form.getByRole('textbox', { name: /Note/ }).fill('The co-op’s annual report says otherwise.');
    await form.getByRole('button', { name: 'Save to ledger.md' }).click();
    await table.locator(`tr[data-key="${key}"]`).getByText('falsified').waitFor();
    const file = readFileSync(join(ws.root, 'ledger.md'), 'utf8');
    expect(file).toContain(`## ${key}\n- outcome: falsified\n`);
    expect(file).toContain('The co-op’s annual report says otherwise.');
    await s.screenshot('ledger');

    // The resolved falsifier scores its agent's calibration on the personas leaderboard.
    const { falsifiers } = await s.app.client.invoke('ledger:list', {});
    const resolved = falsifiers.find((f) => f.key === key);
    const { agents } = await s.app.client.invoke('ledger:calibration', {});
    const scored = agents.find((a) => a.agent === resolved?.agent);
    expect(scored).toBeDefined();
    await page.evaluate(() => {
      window.location.hash = '#/leaderboards?tab=personas';
    });
    const board = page.getByRole('table', { name: 'Calibration leaderboard' });
    const row = board.getByRole('row').filter({ hasText: resolved?.agentName ?? '?' });
    await row.waitFor();
    expect(await row.textContent()).toContain(scored?.brier === null ? '—' : scored?.brier?.toFixed(3));
    await s.screenshot('calibration');
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('finds a word across transcripts and opens the hit at its message', async () => {
    const { page } = s;
    const { transcript } = await s.app.client.invoke('transcripts:get', { kind: 'debate', id: debateId });
    const middle = transcript.slice(Math.floor(transcript.length / 2)).find((m) => m.kind === 'message');
    // A word of that message that few others share (the simulator's texts all say "simulated").
    const word = middle?.content.split(/[^A-Za-z]+/).find((w) => w.length >= 6 && w !== 'simulated') ?? '';
    expect(word).not.toBe('');
    await page.evaluate(() => {
      window.location.hash = '#/transcripts';
    });
    const search = page.getByRole('form', { name: 'Search transcripts' });
    await search.getByRole('searchbox', { name: 'Words' }).fill(word);
    await search.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('region', { name: 'Search results' });
    await results.getByRole('link').first().waitFor();
    await s.screenshot('transcripts');
    const expected = await s.app.client.invoke('transcripts:search', { text: word });
    const hit = expected.hits[0];
    if (!hit) throw new Error(`no transcript hit for "${word}"`);
    await results.getByRole('link').first().click();
    // The link names the message by its id, as the row does (not by its place in the list).
    await page.waitForFunction((h) => window.location.hash === `#/transcript/debate/${h.id}?m=${h.messageId}`, hit);
    // The deep link scrolls to its message and marks it.
    const row = page.locator(`.transcript-row[data-index="${hit.index}"]`);
    await row.waitFor();
    expect(await row.locator('header .num').textContent()).toBe(hit.messageId);
    expect(await row.getAttribute('class')).toContain('target');
    expect(await row.isVisible()).toBe(true);
    expect((await row.textContent())?.toLowerCase()).toContain(word.toLowerCase());
    await s.screenshot('transcript');

    // A moderator's intervention says what it does in words; its code is in the tooltip and the (?).
    const asked = transcript.find((m) => m.intervention);
    if (!asked?.intervention) throw new Error('the simulated debate had no moderator intervention');
    await page.evaluate(
      ([id, m]) => {
        window.location.hash = `#/transcript/debate/${id}?m=${m}`;
      },
      [debateId, asked.id],
    );
    const badge = page.locator(`.transcript-row[data-id="${asked.id}"]`).getByTestId('intervention');
    await badge.waitFor();
    expect(await badge.getAttribute('data-code')).toBe(asked.intervention);
    expect(await badge.getAttribute('title')).toBe(asked.intervention);
    expect(await badge.textContent()).toBe(plainWords(asked.intervention));
    expect(plainWords(asked.intervention)).not.toBe(asked.intervention);
    expect(await page.locator(`.transcript-row[data-id="${asked.id}"]`).getByTestId('help').count()).toBe(1);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('charts the finished debate’s DCG and positions, picked from the convergence view', async () => {
    const { page } = s;
    await page.evaluate(() => {
      window.location.hash = '#/convergence';
    });
    const debates = page.getByRole('table', { name: 'Crux debates' });
    await debates.getByRole('link').first().click();
    await page.waitForFunction((id) => window.location.hash === `#/convergence/debate/${id}`, debateId);
    const course = await s.app.client.invoke('debates:course', { id: debateId });
    const withDcg = course.threads.filter((t) => t.dcgPoints.length > 0);
    const crystallized = withDcg.filter((t) => t.crystallizedAt !== null);
    expect(crystallized.length).toBeGreaterThan(0);
    // One dashed line (the DCG so far) per thread with a DCG, and a solid one per crystallized crux, each drawn.
    const dcg = page.getByTestId('dcg-chart');
    await dcg.locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    expect(await dcg.locator('.recharts-line').count()).toBe(2 * withDcg.length);
    expect(await dcg.locator('.recharts-line-curve').count()).toBe(withDcg.length + crystallized.length);
    // Every series is drawn (a crux that crystallized on the last message is one point, with its dot);
    // the DCG so far is a line across messages.
    const paths = await dcg.locator('.recharts-line-curve').evaluateAll((els) => els.map((p) => p.getAttribute('d')));
    for (const d of paths) expect(d).toMatch(/^M[\d.]+,[\d.]+/);
    expect(paths.filter((d) => d?.includes('L')).length).toBeGreaterThanOrEqual(withDcg.length);
    expect(await dcg.locator('.recharts-line-dots circle').count()).toBeGreaterThanOrEqual(crystallized.length);
    // The legend names each line by its crux question, not "t1 (so far)"; the whole question on hover.
    const legend = dcg.getByTestId('dcg-legend');
    expect(await legend.count()).toBe(2 * withDcg.length);
    const labels = await legend.evaluateAll((els) =>
      els.map((el) => ({ text: el.textContent ?? '', title: el.getAttribute('title') ?? '' })),
    );
    for (const { text, title } of labels) {
      expect(text).not.toMatch(/\bt\d+\b/);
      expect(text).toMatch(/^“.+”/);
      expect(title).toMatch(/ \(thread t\d+\)$/);
    }
    expect(labels.map((l) => l.title)).toContain(
      `${withDcg[0]?.question ?? withDcg[0]?.topic} (thread ${withDcg[0]?.id})`,
    );
    // The positions of the first crux shown: a line per agent that took a side.
    const shown = course.threads.find((t) => t.primary) ?? crystallized[0];
    const positions = page.getByTestId('positions-chart');
    await positions.locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    expect(await positions.locator('.recharts-line').count()).toBe(shown?.positions.length);
    const rows = page.getByRole('table', { name: 'Cruxes over the debate' }).getByRole('row');
    expect(await rows.count()).toBe(course.threads.length + 1);
    // Thread states in plain words, the protocol's code in the tooltip, a (?) beside each.
    const states = page.getByTestId('debate-course').getByTestId('thread-status');
    const said = await states.evaluateAll((els) =>
      els.map((el) => ({
        code: el.getAttribute('data-code') ?? '',
        title: el.getAttribute('title'),
        text: el.textContent,
      })),
    );
    expect(said.length).toBe(course.threads.length + 1);
    for (const { code, title, text } of said) {
      expect({ title, text }).toEqual({ title: code, text: plainWords(code) });
      expect(text).not.toBe(code);
    }
    await page.mouse.move(0, 0);
    await s.screenshot('convergence-debate');
    // The debate view links here.
    await page.evaluate((id) => {
      window.location.hash = `#/debate/${id}`;
    }, debateId);
    await page.getByRole('link', { name: 'DCG and positions', exact: true }).click();
    await page.waitForFunction((id) => window.location.hash === `#/convergence/debate/${id}`, debateId);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('lists, searches and opens an evaluation’s transcript at an entry', async () => {
    const { page } = s;
    const { id } = await s.app.client.invoke('evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' });
    const until = Date.now() + 90_000;
    while ((await s.app.client.invoke('evaluations:get', { id })).status !== 'completed') {
      if (Date.now() > until) throw new Error('the simulated evaluation did not lock');
      await new Promise((r) => setTimeout(r, 200));
    }
    const { entries } = await s.app.client.invoke('transcripts:get', { kind: 'evaluation', id });
    const challenge = entries.find((e) => e.type === 'challenge_accepted');
    const word = challenge?.text.split(/[^A-Za-z]+/).find((w) => w.length >= 7) ?? '';
    expect(word).not.toBe('');
    await page.evaluate(() => {
      window.location.hash = '#/transcripts?kind=evaluation';
    });
    const list = page.getByRole('table', { name: 'Transcripts' });
    await list.locator('tr[data-kind="evaluation"]').first().waitFor();
    expect(await list.locator('tr[data-kind="debate"]').count()).toBe(0);
    const search = page.getByRole('form', { name: 'Search transcripts' });
    await search.getByRole('searchbox', { name: 'Words' }).fill(word);
    await search.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('region', { name: 'Search results' });
    const expected = await s.app.client.invoke('transcripts:search', { text: word, kind: 'evaluation' });
    const hit = expected.hits[0];
    if (!hit) throw new Error(`no evaluation entry holds "${word}"`);
    expect(expected.hits.every((h) => h.kind === 'evaluation')).toBe(true);
    await results.getByRole('link').first().waitFor();
    await results.getByRole('link').first().click();
    await page.waitForFunction((h) => window.location.hash === `#/transcript/evaluation/${h.id}?m=${h.index}`, hit);
    const row = page.locator(`.transcript-row[data-index="${hit.index}"]`);
    await row.waitFor();
    expect(await row.getAttribute('class')).toContain('target');
    expect(await row.isVisible()).toBe(true);
    expect((await row.textContent())?.toLowerCase()).toContain(word.toLowerCase());
    expect(await page.getByTestId('count').textContent()).toBe(`${entries.length} entries`);
    await s.screenshot('transcript-evaluation');
    // Phase changes read in words, the log's codes on hover with a (?); the find matches either.
    const start = entries.find((e) => e.type === 'phase_changed' && e.title === 'PENDING → EVALUATING');
    if (!start) throw new Error('the evaluation logged no PENDING → EVALUATING');
    await page.evaluate(
      ({ id: evaluation, seq }) => {
        window.location.hash = `#/transcript/evaluation/${evaluation}?m=${seq}`;
      },
      { id, seq: start.seq },
    );
    const phase = page.locator(`.transcript-row[data-index="${start.seq}"] .transcript-content > strong`);
    await phase.waitFor();
    // The words shown, each with its code on hover (the (?) tooltips hold the glossary's sentences).
    const said = await phase
      .locator('[data-code]')
      .evaluateAll((els) => els.map((el) => [el.textContent, el.getAttribute('title')]));
    expect(said).toEqual([
      [plainWords('PENDING'), 'PENDING'],
      [plainWords('EVALUATING'), 'EVALUATING'],
    ]);
    const shown = await phase.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      for (const help of copy.querySelectorAll('.term-help')) help.remove();
      return copy.textContent;
    });
    expect(shown).toBe(`${plainWords('PENDING')} → ${plainWords('EVALUATING')}`);
    expect(await phase.getByTestId('help').count()).toBe(2);
    const find = page.getByRole('searchbox', { name: 'Find in this transcript' });
    const starts = entries.filter((e) => e.title.startsWith('PENDING → ')).length;
    for (const query of ['about to start', 'PENDING → EVALUATING']) {
      await find.fill(query);
      await page.getByRole('form', { name: 'Search this transcript' }).getByText(`1 of ${starts}`).waitFor();
    }
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('draws a made-up 500-node crux map for the layout benchmark and says how long it took', async () => {
    const { page } = s;
    await page.evaluate(() => {
      window.location.hash = '#/crux-map/__bench?nodes=500';
    });
    const report = page.getByTestId('crux-map-bench');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="crux-map-bench"]')?.hasAttribute('data-layout-ms'),
    );
    expect(await report.getAttribute('data-nodes')).toBe('500');
    expect(await report.getAttribute('data-layout')).toBe('cheap');
    expect(Number(await report.getAttribute('data-layout-ms'))).toBeGreaterThan(0);
    expect(await page.getByRole('navigation', { name: 'Cruxes and agents' }).getByRole('button').count()).toBe(500);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('says why a lock attempt failed in words, debaters by name, the codes in the tooltip', async () => {
    const { page } = s;
    // A lock stage of two messages: the simulated debaters fail to fix the crux three times.
    const agents = [
      'end-user-advocate',
      'investor',
      'skeptical-economist',
      'optimist-engineer',
      'regulator',
      'historian',
    ];
    const { id } = await s.app.client.invoke('debates:start', {
      ideaSlug: IDEA,
      agents,
      provider: 'simulated',
      seed: 1,
      config: { budgets: { CRUX_LOCK: 2 } },
    });
    const until = Date.now() + 90_000;
    while ((await s.app.client.invoke('debates:get', { id })).status === 'running') {
      if (Date.now() > until) throw new Error('the simulated debate did not end');
      await new Promise((r) => setTimeout(r, 200));
    }
    const detail = await s.app.client.invoke('debates:get', { id });
    await page.evaluate((debate) => {
      window.location.hash = `#/debate/${debate}`;
    }, id);
    const failed = page.locator('.debate-note').filter({ hasText: /^Lock attempt 1 of 3 failed: / });
    await failed.waitFor();
    const text = (await failed.textContent()) ?? '';
    // No code and no persona id in the words; the codes in the tooltip, a (?) to the glossary.
    expect(text).not.toMatch(/[A-Z]{2,}_[A-Z]|STEELMAN|:[a-z]/);
    for (const agent of agents) expect(text).not.toContain(agent);
    const names = detail.header.agents.map((a) => a.name);
    expect(names.some((n) => text.includes(n))).toBe(true);
    expect(await failed.getAttribute('title')).toMatch(/^lock attempt 1 failed: [A-Z_]+/);
    expect(await failed.getByTestId('help').count()).toBe(1);
    // The closing says why in words, its code in the tooltip.
    const closed = page.locator('.debate-note').filter({ hasText: 'closed: crux would not fix' });
    expect(await closed.getAttribute('title')).toBe('FAILED_LOCK: 3 failed lock attempts');
    expect(s.problems).toEqual([]);
  }, 180_000);
});
