import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { councilRecorder } from '../../core/council/recorder';
import { replayCouncil } from '../../core/council/replay';
import { nodeCouncilFiles } from '../../core/node/council/council-files';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';
import { chromiumPath, sessionPerFile } from './harness';

// The council in Chromium against browser mode: a simulated task given from the council view stops
// at a high-stakes proposal; the rail's badge and a notice say so; the inbox (reached from the
// palette) shows what the proposal would change in the idea's README, the votes and why it waits;
// approving it archives the idea, and the task page reverts it byte for byte. Then the same views
// at 1,024 px in the dark theme. Screenshots: council, council-task, approvals, approvals-1024-dark.

const IDEA = 'soil-moisture-lora';
const README = `ideas/${IDEA}/README.md`;

describe.skipIf(!chromiumPath)('the council in the window', () => {
  const { s, ws, go } = sessionPerFile();
  const latency = process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
  beforeAll(() => {
    // A task replayed from a shared example gives the weights a history to chart.
    const files = nodeCouncilFiles(ws.root, { stages: [...loadTaxonomy(null).stageIds] });
    const script = readFileSync(join(import.meta.dirname, '../fixtures/council/medium-discussion.jsonl'), 'utf8');
    replayCouncil(script, files, { taskId: 'replayedexample', observer: councilRecorder(files, 'replayedexample') });
    // Slow enough to see the proposal move, quick enough for a test.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '250';
    return () => {
      if (latency === undefined) delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
      else process.env.CRUCIBLE_SIMULATED_LATENCY_MS = latency;
    };
  });
  const readme = () => readFileSync(join(ws.root, README));

  it('runs a task from the council view, approves its waiting proposal from the inbox with its preview, and reverts it', async () => {
    const { page } = s;
    const before = readme();
    await go('#/council');
    const form = page.getByRole('form', { name: 'Give the council a task' });
    await form.getByLabel('What should it do?').fill('Archive this idea: it has been paused since February');
    await form.getByLabel('About').selectOption(IDEA);
    await form.getByLabel('Provider').selectOption('simulated');
    await form.getByLabel('Seed').fill('3');
    await form.getByRole('button', { name: 'Start the task' }).click();

    // The task's page follows it until the proposal stands waiting; the badge and the notice say so.
    await page.waitForURL(/#\/council\/[a-z0-9]+$/);
    const taskId = new URL(page.url()).hash.split('/')[2] as string;
    await page.getByTestId('task-waits').waitFor({ timeout: 30_000 });
    await page.getByTestId('approval-toast').waitFor();
    const proposal = page.getByTestId('council-proposal');
    const waitingPage = {
      badge: await page.getByTestId('approvals-badge').innerText(),
      toast: await page.getByTestId('approval-toast').innerText(),
      status: await proposal.getAttribute('data-status'),
      lifecycle: await proposal.locator('[data-testid="lifecycle"] li[aria-current="step"]').innerText(),
      votes: await proposal.getByTestId('vote').count(),
      stakes: await proposal.getByTestId('stakes').innerText(),
      helps: await proposal.getByTestId('help').count(),
      untouched: readme().equals(before),
    };
    await s.screenshot('council-task');

    // The inbox, from the palette.
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Command' }).fill('approvals inbox');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.location.hash === '#/approvals');
    const card = page.getByTestId('approval');
    await card.getByTestId('file-diff').waitFor();
    const diff = card.getByTestId('file-diff');
    const inbox = {
      cards: await card.count(),
      id: await card.getAttribute('data-id'),
      file: await diff.getAttribute('data-path'),
      removed: await diff.locator('tr[data-kind="removed"]').allInnerTexts(),
      added: await diff.locator('tr[data-kind="added"]').allInnerTexts(),
      why: await card.locator('.approval-why').innerText(),
      votes: await card.getByTestId('vote').count(),
      helps: (await card.getByTestId('help').count()) >= 4,
      untouched: readme().equals(before),
    };
    await s.screenshot('approvals');

    await card.getByLabel(/Your note/).fill('Paused since February; archive it');
    await card.getByRole('button', { name: 'Approve and change 1 file' }).click();
    await page.getByTestId('approvals-empty').waitFor();
    await expect.poll(() => /^stage: ARCHIVE$/m.test(readme().toString('utf8')), { timeout: 30_000 }).toBe(true);
    await page.getByTestId('approvals-badge').waitFor({ state: 'detached' });

    // The task page: done, decided by the researcher with the note; revert puts the README back.
    await go(`#/council/${taskId}`);
    await page.locator('[data-testid="council-proposal"][data-status="RECORDED"]').waitFor({ timeout: 30_000 });
    const decision = await page.getByTestId('decision').innerText();
    // The outcome card at the top: what was decided and by how many of the three, that the
    // researcher approved it, the file it changed, and the ways to the inbox and the revert.
    const outcome = page.getByTestId('council-outcome');
    const done = (await s.app.client.invoke('council:get', { id: taskId })).proposals[0];
    const outcomeCard = {
      decision: await outcome.getByTestId('outcome-decision').innerText(),
      goal: await outcome.getByTestId('council-outcome-proposal').locator('p').first().innerText(),
      votes: await outcome.getByTestId('outcome-votes').innerText(),
      researcher: await outcome.getByTestId('outcome-researcher').innerText(),
      workspace: await outcome.getByTestId('outcome-workspace').innerText(),
      files: await outcome.getByTestId('outcome-files').locator('li').allInnerTexts(),
      inbox: await outcome.getByRole('link', { name: 'Approvals inbox' }).getAttribute('href'),
    };
    await s.screenshot('council-outcome');
    await outcome.getByRole('button', { name: 'Revert it…' }).click();
    const focused = await page.evaluate(() => document.activeElement?.closest('form')?.getAttribute('aria-label'));
    await page.getByRole('form', { name: 'Revert p1' }).getByLabel('Note').fill('Changed my mind');
    await page.getByRole('button', { name: 'Revert: undo every file change' }).click();
    await page.getByTestId('reverted').waitFor();
    // The card reads the task as reloaded after the revert: once it says so, the status has moved too.
    await outcome.getByTestId('outcome-workspace').filter({ hasText: 'Reverted' }).waitFor();
    const reverted = {
      status: await page.getByTestId('council-proposal').getAttribute('data-status'),
      card: await outcome.getByTestId('outcome-workspace').filter({ hasText: 'Reverted' }).innerText(),
      text: await page.getByTestId('reverted').innerText(),
      restored: readme().equals(before),
    };

    // The council's home: the tasks, and the weights with the replayed example's history.
    await go('#/council');
    await page.getByTestId('council-task-row').first().waitFor();
    await page.getByTestId('weights-chart').locator('.recharts-line').first().waitFor({ state: 'attached' });
    await page.getByLabel('Value', { exact: true }).selectOption('transparency');
    const home = {
      rows: await page.getByTestId('council-task-row').count(),
      lines: await page.getByTestId('weights-chart').locator('.recharts-line').count(),
      history: await page.getByTestId('weight-history-row').count(),
    };
    await s.screenshot('council');

    expect({ waitingPage, inbox, decision, outcomeCard, focused, reverted, home }).toEqual({
      waitingPage: {
        badge: expect.stringMatching(/^1\s+waiting for you$/),
        toast: expect.stringMatching(/^A council proposal waits for you\n.*Archive this idea.*\(high stakes\)/s),
        status: 'AWAITING_RESEARCHER',
        lifecycle: 'you',
        votes: 2,
        stakes: 'high stakes',
        helps: expect.any(Number),
        untouched: true,
      },
      inbox: {
        cards: 1,
        id: `${taskId}-p1`,
        file: README,
        removed: [expect.stringMatching(/stage: PAUSE$/), expect.stringMatching(/updated: 2026-02-27$/)],
        added: [expect.stringMatching(/stage: ARCHIVE$/), expect.stringMatching(/updated: /)],
        why: 'Why it waits for you: high stakes always need you.',
        votes: 2,
        helps: true,
        untouched: true,
      },
      decision: expect.stringMatching(/^Approved by you — your note: “Paused since February; archive it”/),
      outcomeCard: {
        decision: 'Approved by you',
        goal: `Approved by you: ${done?.goal}`,
        // Seed 3: the verifier approves with concerns; the (?) explains the conflict ladder.
        votes: '3 of the three agents approved its last version (1 with concerns)?',
        researcher: 'You approved it: “Paused since February; archive it”.',
        workspace: '1 file changed in the workspace:',
        files: [`modified ${README}`],
        inbox: '#/approvals',
      },
      focused: 'Revert p1',
      reverted: {
        status: 'REVERTED',
        card: 'Reverted: 1 file change undone; the workspace is as it was.',
        text: expect.stringMatching(/^Reverted on .*: 1 file change undone\.$/),
        restored: true,
      },
      home: { rows: 2, lines: 3, history: 5 },
    });
    expect(waitingPage.helps).toBeGreaterThanOrEqual(4);
    expect(s.problems).toEqual([]);
  }, 120_000);

  it('reads at 1,024 px in the dark theme without sideways scrolling', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 1024, height: 700 });
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== 'dark')
      await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    // Another high-stakes task, started through the app's own channel, waits in the inbox.
    const started = await s.app.client.invoke('council:run', {
      task: 'Archive this idea',
      idea: 'city-lichens-field-guide',
      provider: 'simulated',
      seed: 1,
    });
    await go('#/approvals');
    await page.locator(`[data-testid="approval"][data-id="${started.id}-p1"]`).getByTestId('file-diff').waitFor({
      timeout: 30_000,
    });
    const overflow = () =>
      page.evaluate(() => {
        const main = document.querySelector('main') as HTMLElement;
        return {
          page: document.documentElement.scrollWidth > window.innerWidth,
          main: main.scrollWidth > main.clientWidth,
        };
      });
    const inbox = await overflow();
    await s.screenshot('approvals-1024-dark');
    await go(`#/council/${started.id}`);
    await page.getByTestId('council-proposal').waitFor();
    const task = await overflow();
    await go('#/council');
    await page.getByTestId('weights-chart').locator('.recharts-line').first().waitFor({ state: 'attached' });
    const home = await overflow();
    // The compromise's way: the verifier rejected every revision of the executor's (seed 1).
    const versions = (await s.app.client.invoke('council:get', { id: started.id })).proposals[0]?.versions.length;
    await s.app.client.invoke('council:reject', { id: `${started.id}-p1`, note: 'Still in use' });
    expect({ inbox, task, home, versions }).toEqual({
      inbox: { page: false, main: false },
      task: { page: false, main: false },
      home: { page: false, main: false },
      versions: 5,
    });
    expect(s.problems).toEqual([]);
  }, 120_000);
});
