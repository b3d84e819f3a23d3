import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA, OTHER, refused } from '../../../tests/helpers/app-harness';
import { type Channel, capturesChannels } from '../../contract';

// The captures:* channels against a real app on a temp workspace holding two sample ideas.

const answered = new Set<Channel>();
const t = appPerTest('crucible-captures-', answered);
const { boot, call } = t;

const SOLAR_SUMMARY =
  "A member-owned cooperative that puts solar panels on the neighbourhood's large flat roofs, sells the power to the buildings at a discount, and pays members a modest return.";

describe('captures', () => {
  it('classifies a text without writing, offers its placements, and places it where the researcher chose', async () => {
    const app = await boot();
    const capture = { title: 'Solar on the big roofs', text: SOLAR_SUMMARY };
    const before = readFileSync(join(t.root, 'ideas', IDEA, 'README.md'), 'utf8');
    const { classification, costUsd } = await call(app, 'captures:classify', capture);
    const unchanged = readFileSync(join(t.root, 'ideas', IDEA, 'README.md'), 'utf8') === before;
    const added = await call(app, 'captures:place', { ...capture, as: { as: 'existing', slug: IDEA } });
    const inspired = await call(app, 'captures:place', {
      title: 'Repair café for e-bikes',
      text: 'Neighbours fix e-bikes together on Saturday mornings.',
      as: { as: 'inspired', slug: OTHER },
    });
    const again = await call(app, 'captures:classify', { ...capture, provider: 'simulated' });
    const fresh = await call(app, 'captures:classify', {
      title: 'Sourdough by bicycle',
      text: 'A weekly sourdough bread subscription delivered by bicycle to offices in the old town.',
    });
    expect({
      classified: [
        classification.decision,
        classification.slug,
        classification.offered,
        classification.needsChoice,
        classification.offersChoice,
        costUsd,
      ],
      // A new topic far from every idea: nothing to ask, the box makes it a new idea at once.
      newTopic: [fresh.classification.decision, fresh.classification.inspiredBy, fresh.classification.offersChoice],
      unchanged,
      added: [added.slug, added.written, added.conflict, added.idea?.slug],
      inspired: [
        inspired.placed,
        inspired.idea?.title,
        (await call(app, 'ideas:get', { slug: inspired.slug })).relationships[0]?.target,
      ],
      again: [again.classification.decision, again.classification.duplicateOf, again.classification.offered],
    }).toEqual({
      classified: [
        'EXISTING',
        IDEA,
        [{ as: 'existing', slug: IDEA }, { as: 'inspired', slug: IDEA }, { as: 'new' }],
        true,
        true,
        0,
      ],
      newTopic: ['NEW', null, false],
      unchanged: true,
      added: [IDEA, true, false, IDEA],
      inspired: [{ as: 'inspired', slug: OTHER }, 'Repair café for e-bikes', OTHER],
      again: ['EXISTING', IDEA, [{ as: 'new' }]],
    });
  });

  it('refuses an idea that is not there and a placement it does not know', async () => {
    const app = await boot();
    expect(
      await refused(
        call(app, 'captures:place', { title: 'T', text: 'x', as: { as: 'existing', slug: 'no-such-idea' } }),
      ),
    ).toMatchObject({ code: 'user_error', message: 'no idea "no-such-idea" to add to (see: npm run cli -- list)' });
    expect(await refused(app.invoke('captures:place', { title: 'T', as: { as: 'merge' } } as never))).toMatchObject({
      code: 'bad_input',
      field: 'as.as',
    });
  });
});

describe('coverage', () => {
  it('answered every channel of core/contract/captures-channels.ts in this file', () => {
    expect(Object.keys(capturesChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
