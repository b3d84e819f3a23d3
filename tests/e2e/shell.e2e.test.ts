import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, chromiumPath, openSession, sampleWorkspace } from './harness';

describe.skipIf(!chromiumPath)('the window in browser mode', () => {
  const ws = sampleWorkspace();
  let s: Session;
  beforeAll(async () => {
    s = await openSession(ws.root);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    ws.cleanup();
  });

  it('keeps the token out of the address, reaches every view from the rail and the palette, and switches theme', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    expect(new URL(page.url()).searchParams.get('token')).toBeNull();

    // Alt+5 jumps to the fifth view of the rail.
    await page.keyboard.press('Alt+5');
    await page.waitForFunction(() => window.location.hash === '#/leaderboards');

    // The palette finds an idea by a word of its title and opens it.
    await page.keyboard.press('Control+k');
    const command = page.getByRole('textbox', { name: 'Command' });
    await command.fill('pipeline');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.location.hash === '#/pipeline');

    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByRole('button', { name: /Switch to the (light|dark) theme/ }).click();
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    expect([before, after].sort()).toEqual(['dark', 'light']);
    expect(s.problems).toEqual([]);
  });
});
