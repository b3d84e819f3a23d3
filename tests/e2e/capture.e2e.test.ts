import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath, sessionPerFile } from './harness';

// The capture box on the sample workspace: a text that repeats an idea's summary is offered as
// belonging to that idea, a borderline one asks, a new topic is written at once.

const SOLAR_SUMMARY =
  "A member-owned cooperative that puts solar panels on the neighbourhood's large flat roofs, sells the power to the buildings at a discount, and pays members a modest return.";

describe.skipIf(!chromiumPath)('the capture box classifies before it writes', () => {
  const { s, ws } = sessionPerFile();

  const type = async (title: string, text: string) => {
    const form = s.page.getByRole('form', { name: 'Capture an idea' });
    await form.getByRole('textbox', { name: 'Idea title' }).fill(title);
    await form.getByRole('textbox', { name: 'Idea text' }).fill(text);
    await form.getByRole('button', { name: 'Capture', exact: true }).click();
    return form;
  };

  it('offers a repeat of a summary as part of that idea and adds it there when chosen', async () => {
    const form = await type('Solar on the big roofs', SOLAR_SUMMARY);
    const choice = form.getByRole('group', { name: 'Where does it belong?' });
    await choice.waitFor();
    const buttons = await choice.getByRole('button').allInnerTexts();
    await s.screenshot('capture-existing');
    await choice.getByRole('button', { name: /^Add to “A community-owned solar co-op/ }).click();
    await form.getByRole('status').getByText('A community-owned solar co-op', { exact: false }).waitFor();
    const readme = readFileSync(join(ws.root, 'ideas', 'community-solar-coop', 'README.md'), 'utf8');
    expect({
      buttons,
      added: readme
        .slice(readme.lastIndexOf('## Captured'))
        .replace(/\d{4}-\d{2}-\d{2}/, 'DAY')
        .replace(/[0-9a-f]{16}/, 'ID'),
      status: await form.getByRole('status').innerText(),
    }).toEqual({
      buttons: [
        'Add to “A community-owned solar co-op for the neighbour…”',
        'New idea, inspired by “A community-owned solar co-op for the neighbour…”',
        'New idea',
        'Cancel',
      ],
      added: `## Captured DAY: Solar on the big roofs\n\n<!-- captured: ID -->\n${SOLAR_SUMMARY}\n`,
      status: "Added to A community-owned solar co-op for the neighbourhood's big roofs",
    });
  });

  it('asks about a borderline text, links a new idea inspired by the chosen one, and writes a new topic at once', async () => {
    const form = await type(
      'Batteries for the co-op',
      'Store the power from the school roof in a shared battery so members can use it in the evening.',
    );
    const choice = form.getByRole('group', { name: 'Where does it belong?' });
    await choice.waitFor();
    const verdict = await choice.locator('.capture-verdict').innerText();
    await s.screenshot('capture-ambiguous');
    await choice.getByRole('button', { name: /^New idea, inspired by/ }).click();
    await s.page.locator('.library-row[data-slug="batteries-for-the-co-op"]').waitFor();
    const linked = readFileSync(join(ws.root, 'ideas', 'batteries-for-the-co-op', 'README.md'), 'utf8');

    await type(
      'Sourdough by bicycle',
      'A weekly sourdough bread subscription delivered by bicycle to offices in the old town.',
    );
    await s.page.locator('.library-row[data-slug="sourdough-by-bicycle"]').waitFor();
    expect({
      verdict,
      linked: linked.match(/^relationships: .*$/m)?.[0],
      asked: await form.getByRole('group', { name: 'Where does it belong?' }).count(),
      problems: s.problems,
    }).toEqual({
      verdict: 'AMBIGUOUS By its words, this may belong to an idea you have, or be a new one.',
      linked:
        'relationships: [{"target":"community-solar-coop","type":"inspired_by","reason":"captured as a new idea close to this one"}]',
      asked: 0,
      problems: [],
    });
  });
});
