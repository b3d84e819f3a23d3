import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, sessionPerFile } from './harness';

const IDEA = 'community-solar-coop';

/**
 * The small things of issue 22: a transcript row and its link name a message the same way, summaries
 * show words rather than markdown marks, a score reads the same wherever it is shown, and a debate's
 * live counters count the same thing.
 */
describe.skipIf(!chromiumPath)('small things that have to agree', () => {
  const { s, go } = sessionPerFile();
  let debateId = '';
  const until = async (done: () => Promise<boolean>, what: string) => {
    const end = Date.now() + 90_000;
    while (!(await done())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    const { personas } = await s.app.client.invoke('personas:list', { role: 'debater' });
    ({ id: debateId } = await s.app.client.invoke('debates:start', {
      ideaSlug: IDEA,
      agents: personas.slice(0, 4).map((p) => p.id),
      provider: 'simulated',
      seed: 2,
    }));
    await until(
      async () => (await s.app.client.invoke('debates:get', { id: debateId })).status !== 'running',
      'the debate to end',
    );
  }, 180_000);

  it('names a transcript row by its message id, as its link does; an older link by place still opens it', async () => {
    const { page } = s;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const { transcript } = await s.app.client.invoke('transcripts:get', { kind: 'debate', id: debateId });
    // A message whose place and id differ (moderator notes and refused moves come before it).
    const message = transcript.find((m) => m.kind === 'message' && m.id !== `m${m.index}` && m.index > 3);
    if (!message) throw new Error('no message whose place differs from its id');
    await go(`#/transcript/debate/${debateId}?m=${message.id}`);
    const row = page.locator(`.transcript-row[data-id="${message.id}"]`);
    await row.waitFor();
    expect({
      label: await row.locator('header .num').textContent(),
      target: (await row.getAttribute('class'))?.includes('target'),
      otherNumbers: (await row.locator('header').textContent())?.includes(`#${message.index}`),
    }).toEqual({ label: message.id, target: true, otherNumbers: false });

    await row.getByRole('button', { name: `Copy link to message ${message.id}` }).click();
    const link = await page.evaluate(async () => {
      const nav = globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } };
      return nav.navigator.clipboard.readText().catch(() => '');
    });
    const shown = link || (await page.getByRole('textbox', { name: 'Link to the message' }).inputValue());
    expect(shown.endsWith(`#/transcript/debate/${debateId}?m=${message.id}`)).toBe(true);

    await go(`#/transcript/debate/${debateId}?m=${message.index}`);
    await page.waitForFunction(
      (id) => document.querySelector(`.transcript-row[data-id="${id}"]`)?.classList.contains('target'),
      message.id,
    );
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('says the same number of messages in the debate’s header and its meter, and names what it counts', async () => {
    const { page } = s;
    const { result } = await s.app.client.invoke('debates:get', { id: debateId });
    const accepted = result.systemMetrics.messagesTotal;
    await go(`#/debate/${debateId}`);
    await page.getByTestId('meter').waitFor();
    await page
      .getByTestId('posted')
      .filter({ hasText: `${accepted} of 200 messages` })
      .waitFor();
    expect(await page.getByTestId('meter').textContent()).toContain(`Accepted messages${accepted} of 200`);
    expect(await page.getByTestId('posted').getAttribute('title')).toContain('Accepted agent messages');
    // The transcript counts its rows by kind, the accepted ones being the same figure.
    const { transcript } = await s.app.client.invoke('transcripts:get', { kind: 'debate', id: debateId });
    const of = (kind: string) => transcript.filter((m) => m.kind === kind).length;
    await go(`#/transcript/debate/${debateId}`);
    await page
      .getByTestId('count')
      .filter({
        hasText: `${accepted} accepted messages · ${of('blocked')} refused · ${of('moderator')} from the moderator`,
      })
      .waitFor();
    expect(of('message')).toBe(accepted);
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('shows an idea’s markdown summary as words in the library', async () => {
    const { page } = s;
    await s.app.client.invoke('ideas:capture', {
      title: 'Tidal kites',
      text: '**Kites** that pull _small_ ferries across the `estuary` on the [ebb](https://tides.example).',
    });
    await go('#/library');
    const row = page.locator('.library-row[data-slug="tidal-kites"]');
    await row.waitFor();
    expect(await row.locator('.c-title .muted').textContent()).toBe(
      'Kites that pull small ferries across the estuary on the ebb.',
    );
    expect(s.problems).toEqual([]);
  }, 60_000);

  it('writes an idea’s overall score the same way, two decimals, in the library, pipeline, idea page and leaderboard', async () => {
    const { page } = s;
    const { id } = await s.app.client.invoke('evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' });
    await until(
      async () => (await s.app.client.invoke('evaluations:get', { id })).status === 'completed',
      'the evaluation to lock',
    );
    const { overallScore } = await s.app.client.invoke('ideas:get', { slug: IDEA });
    if (overallScore === null) throw new Error('the locked evaluation gave the idea no score');
    const expected = overallScore.toFixed(2);

    await go('#/library');
    const libraryCell = page.locator(`.library-row[data-slug="${IDEA}"] .c-num`).first();
    await libraryCell.filter({ hasText: /\d/ }).waitFor();
    await go('#/pipeline');
    const badge = page.locator(`.pipeline-card[data-slug="${IDEA}"] .badge`).filter({ hasText: /^\d/ });
    await badge.waitFor();
    const pipeline = await badge.textContent();
    await go(`#/idea/${IDEA}`);
    const meta = page.locator('header.idea-head').getByTestId('idea-figures');
    await meta.waitFor();
    const ideaPage = /overall score (\S+) \(0–10\)/.exec((await meta.textContent()) ?? '')?.[1];
    await go('#/leaderboards');
    const board = page.locator(`[data-testid="leaderboard-row"][data-slug="${IDEA}"] strong`).first();
    await board.waitFor();
    const leaderboard = await board.textContent();
    await go('#/library');
    await libraryCell.filter({ hasText: /\d/ }).waitFor();
    expect({ library: await libraryCell.textContent(), pipeline, ideaPage, leaderboard }).toEqual({
      library: expected,
      pipeline: expected,
      ideaPage: expected,
      leaderboard: expected,
    });
    expect(s.problems).toEqual([]);
  }, 120_000);
});
