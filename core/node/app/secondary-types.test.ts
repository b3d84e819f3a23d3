import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, OTHER } from '../../../tests/helpers/app-harness';
import type { Channel } from '../../contract';
import { runCli } from '../cli/main';

// Secondary domains (seed §11.7): an idea's README may name other idea types it also belongs to,
// beside its one primary `type`. The idea page and `show` list them, and a search finds the idea
// by them; an unknown one is named with its field, like an unknown type.

const answered = new Set<Channel>();
const t = appPerTest('crucible-secondary-types-', answered);

describe('secondary types', () => {
  it('are read from the README, shown with the idea, and found by a search', async () => {
    const readme = join(t.root, 'ideas', IDEA, 'README.md');
    const app = await t.boot();
    // Nothing in either idea says "creative" yet.
    expect((await t.call(app, 'ideas:search', { query: 'creative' })).hits).toEqual([]);
    expect((await t.call(app, 'ideas:get', { slug: IDEA })).secondaryTypes).toEqual([]);
    await app.close();

    const text = readFileSync(readme, 'utf8');
    writeFileSync(readme, text.replace(/^type: business$/m, 'type: business\nsecondaryTypes: [Creative, business]'));
    const again = await t.boot();
    const idea = await t.call(again, 'ideas:get', { slug: IDEA });
    expect([idea.type, idea.secondaryTypes]).toEqual(['business', ['creative']]);
    expect((await t.call(again, 'ideas:search', { query: 'creative' })).hits.map((h) => h.slug)).toEqual([IDEA]);
    // The library's type filter stays the primary type's.
    expect((await t.call(again, 'ideas:list', { type: 'creative' })).ideas).toEqual([]);

    let out = '';
    const io = {
      out: (s: string) => (out += `${s}\n`),
      err: () => {},
      untilStopped: () => new Promise<void>(() => {}),
    };
    expect(await runCli(['show', IDEA, '--workspace', t.root], io)).toBe(0);
    expect(out.split('\n')[1]).toBe(`${IDEA} · business (also creative) · CLARIFY`);
    await again.close();

    // An unknown type is a problem named by file and field; the idea keeps its last good row.
    writeFileSync(readme, text.replace(/^type: business$/m, 'type: business\nsecondaryTypes: [poetry]'));
    const third = await t.boot();
    const { errors } = await t.call(third, 'ideas:get', { slug: IDEA });
    expect(errors).toEqual([
      {
        file: `ideas/${IDEA}/README.md`,
        reason: expect.stringMatching(/^secondaryTypes: unknown idea type "poetry" \(one of business, /),
      },
    ]);
    expect((await t.call(third, 'ideas:get', { slug: OTHER })).secondaryTypes).toEqual([]);
  }, 60_000);
});
