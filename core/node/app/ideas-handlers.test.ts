import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appPerTest, IDEA, OTHER, record, refused } from '../../../tests/helpers/app-harness';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { type Channel, type EvaluationDetail, ideasChannels } from '../../contract';

// The ideas:* channels against a real app on a temp workspace holding two sample ideas.

const answered = new Set<Channel>();
const t = appPerTest('crucible-ideas-', answered);
const { boot, call } = t;

/** A folder outside the workspace, where the researcher's dropped files come from. */
let outside: { root: string; cleanup: () => void };
beforeEach(() => {
  outside = tempWorkspace('crucible-drop-');
});
afterEach(() => outside.cleanup());

describe('ideas', () => {
  it('lists, filters, shows and searches ideas', async () => {
    const app = await boot();
    const { ideas } = await call(app, 'ideas:list', {});
    expect(ideas.map((i) => i.slug)).toEqual([IDEA, OTHER]);
    expect(ideas[0]).not.toHaveProperty('contentHash');
    expect((await call(app, 'ideas:list', { stage: 'clarify' })).ideas.map((i) => i.slug)).toEqual([IDEA]);
    expect((await call(app, 'ideas:list', { tag: 'energy' })).ideas).toHaveLength(1);

    const idea = await call(app, 'ideas:get', { slug: IDEA });
    expect(idea).toMatchObject({ slug: IDEA, type: 'business', stage: 'CLARIFY', stale: false });
    expect(idea.readme).toContain('# A community-owned solar co-op');
    expect(idea.files.map((f) => f.kind)).toEqual(['readme']);
    // Both ends of a relationship show it: the one this idea declares and the one declared towards it.
    expect(idea.relationships).toEqual([
      expect.objectContaining({ source: IDEA, target: OTHER, type: 'conflicts', strength: 0.5 }),
      expect.objectContaining({ source: OTHER, target: IDEA, type: 'conflicts' }),
    ]);

    const { hits, total } = await call(app, 'ideas:search', { query: 'solar roofs' });
    expect(hits[0]).toMatchObject({ slug: IDEA });
    expect(hits[0]?.snippet).toMatch(/\[/);
    expect(total).toBe(hits.length);
    // A limit cuts the hits, never the total.
    const one = await call(app, 'ideas:search', { query: 'the', limit: 1 });
    expect(one.hits).toHaveLength(1);
    expect(one.total).toBeGreaterThan(1);
  });

  it('answers a mistake in what was asked as a user_error with its one line', async () => {
    const app = await boot();
    const stage = await refused(call(app, 'ideas:list', { stage: 'nowhere' }));
    expect(stage).toMatchObject({ code: 'user_error' });
    expect(stage.message).toMatch(/^unknown stage "nowhere" \(one of SPARK, /);
    expect(await refused(call(app, 'ideas:get', { slug: 'no-such-idea' }))).toMatchObject({
      code: 'user_error',
      message: 'no idea "no-such-idea" (see: npm run cli -- list)',
    });
    expect(await refused(call(app, 'ideas:setStage', { slug: IDEA, stage: 'LATER' }))).toMatchObject({
      code: 'user_error',
    });
  });

  it('refuses bad input naming the field, before anything runs', async () => {
    const app = await boot();
    expect(await refused(app.invoke('ideas:capture', { title: '   ' }))).toMatchObject({
      code: 'bad_input',
      field: 'title',
      message: 'title: an idea needs a title',
    });
    expect(await refused(app.invoke('ideas:search', { query: '' }))).toMatchObject({
      code: 'bad_input',
      field: 'query',
    });
    expect(await refused(app.invoke('ideas:list', { stag: 'SPARK' }))).toMatchObject({
      code: 'bad_input',
      field: 'stag',
    });
    expect(await refused(app.invoke('ideas:get', { slug: 42 }))).toMatchObject({ code: 'bad_input', field: 'slug' });
    expect(
      await refused(
        app.invoke('debates:start', {
          topic: 'x',
          agents: ['a', 'b'],
          provider: 'simulated',
          limits: { budgetUsd: -1 },
        }),
      ),
    ).toMatchObject({
      code: 'bad_input',
      field: 'limits.budgetUsd',
    });
    const none = await refused(app.invoke('ideas:list', undefined));
    expect(none).toMatchObject({ code: 'bad_input', message: 'the input expected object, received undefined' });
    expect(none.field).toBeUndefined();
    expect((await call(app, 'ideas:list', {})).ideas).toHaveLength(2);
  });

  it('captures an idea from a title, moves its stage, and pushes each change of the index', async () => {
    const app = await boot();
    const seen = record(app);
    const captured = await call(app, 'ideas:capture', { title: 'Tool library', text: 'Lend drills.', tags: ['local'] });
    expect(captured).toMatchObject({ slug: 'tool-library', path: 'ideas/tool-library/README.md', conflict: false });
    expect(captured.idea).toMatchObject({ title: 'Tool library', stage: 'SPARK', tags: ['local'] });
    const moved = await call(app, 'ideas:setStage', { slug: 'tool-library', stage: 'research' });
    expect(moved.idea?.stage).toBe('RESEARCH');
    expect(readFileSync(join(t.root, 'ideas/tool-library/README.md'), 'utf8')).toMatch(/^stage: RESEARCH$/m);
    const syncs = seen.flatMap((e) => (e.event === 'sync:changed' ? [e.payload] : []));
    expect(syncs.map((s) => s.slugs)).toEqual([
      { added: ['tool-library'], changed: [], removed: [] },
      { added: [], changed: ['tool-library'], removed: [] },
    ]);
  });
});

describe('files', () => {
  it('titles a dropped .txt file from its first line, and sums it up from what follows', async () => {
    const app = await boot();
    const text = '\nRooftop beehives for the office block\n\nTwo hives on the flat roof, tended by volunteers.\n';
    const made = await call(app, 'ideas:captureUpload', {
      name: 'notes-2024-03.txt',
      contentBase64: Buffer.from(text).toString('base64'),
    });
    expect(made).toMatchObject({
      slug: 'rooftop-beehives-for-the-office-block',
      idea: {
        title: 'Rooftop beehives for the office block',
        summary: 'Two hives on the flat roof, tended by volunteers.',
      },
    });
  });

  it('titles a dropped .txt file from its first line even when a heading comes further down', async () => {
    const app = await boot();
    const text = 'Shared cargo bikes for the street\n\nThree bikes in a locked shelter.\n\n# Costs\n\nAbout 9,000 in all.\n';
    const made = await call(app, 'ideas:captureUpload', {
      name: 'bikes.txt',
      contentBase64: Buffer.from(text).toString('base64'),
    });
    expect(made).toMatchObject({
      slug: 'shared-cargo-bikes-for-the-street',
      idea: { title: 'Shared cargo bikes for the street', summary: 'Three bikes in a locked shelter.' },
    });
  });

  it('captures a dropped file by its path and by its uploaded bytes, and attaches both ways', async () => {
    const app = await boot();
    const note = join(outside.root, 'balcony-gardens.md');
    writeFileSync(note, '# Balcony gardens\n\nSeed swaps between neighbours.\n');
    const byPath = await call(app, 'ideas:captureFile', { path: note, type: 'research' });
    expect(byPath).toMatchObject({ slug: 'balcony-gardens', idea: { title: 'Balcony gardens', type: 'research' } });

    const text = '---\ntitle: Night market\nstage: RESEARCH\n---\nStalls on Fridays.\n';
    const uploaded = await call(app, 'ideas:captureUpload', {
      name: 'night.md',
      contentBase64: Buffer.from(text).toString('base64'),
    });
    expect(uploaded).toMatchObject({ slug: 'night-market', idea: { title: 'Night market', stage: 'RESEARCH' } });

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const picture = await call(app, 'ideas:captureUpload', {
      name: 'street_mural.png',
      contentBase64: png.toString('base64'),
    });
    expect(picture.idea?.title).toBe('street mural');
    expect(readFileSync(join(t.root, 'ideas', picture.slug, 'assets', 'street_mural.png'))).toEqual(png);

    const photo = join(outside.root, 'roof.jpg');
    writeFileSync(photo, Buffer.from([1, 2, 3]));
    expect(await call(app, 'ideas:attach', { slug: IDEA, path: photo })).toEqual({
      path: `ideas/${IDEA}/assets/roof.jpg`,
    });
    expect(await call(app, 'ideas:attachUpload', { slug: IDEA, name: 'roof.jpg', contentBase64: 'BAUG' })).toEqual({
      path: `ideas/${IDEA}/assets/roof-2.jpg`,
    });
    expect(readFileSync(join(t.root, `ideas/${IDEA}/assets/roof-2.jpg`))).toEqual(Buffer.from([4, 5, 6]));

    expect(await refused(app.invoke('ideas:captureFile', { path: 'notes/x.md' }))).toMatchObject({
      code: 'bad_input',
      field: 'path',
    });
    expect(
      await refused(app.invoke('ideas:attachUpload', { slug: IDEA, name: '../../escape.sh', contentBase64: '' })),
    ).toMatchObject({
      code: 'bad_input',
      field: 'name',
    });
    expect(await refused(call(app, 'ideas:attach', { slug: 'nope', path: photo }))).toMatchObject({
      code: 'user_error',
    });
  });
});

describe('idea channels of the library views', () => {
  it('reads one text file of an idea, and only a file the idea has', async () => {
    const app = await boot();
    const path = `ideas/${OTHER}/research/local-repair-market.md`;
    const file = await call(app, 'ideas:file', { slug: OTHER, path });
    expect(file).toMatchObject({ path, kind: 'research', truncated: false });
    expect(file.text).toBe(readFileSync(join(t.root, path), 'utf8'));
    const traversal = await refused(
      call(app, 'ideas:file', { slug: OTHER, path: `ideas/${OTHER}/../../../etc/passwd` }),
    );
    expect(traversal.message).toContain('is not a file of the idea');
    const other = await refused(call(app, 'ideas:file', { slug: IDEA, path }));
    expect(other.code).toBe('user_error');
  });

  it('lists every relationship for the graph', async () => {
    const app = await boot();
    const { relationships } = await call(app, 'ideas:relationships', {});
    expect(relationships.map((r) => `${r.source}→${r.target}:${r.type}`).sort()).toEqual([
      `${IDEA}→${OTHER}:conflicts`,
      `${OTHER}→${IDEA}:conflicts`,
    ]);
  });

  it('classifies an idea into its README on the settings provider, keeping the researcher’s own link', async () => {
    const app = await boot();
    const result = await call(app, 'ideas:classify', { slug: OTHER });
    expect(result).toMatchObject({ path: `ideas/${OTHER}/README.md`, conflict: false });
    // The link written by hand before is still there, beside whatever the agent added.
    expect(result.relationships).toContainEqual(
      expect.objectContaining({ source: OTHER, target: IDEA, type: 'conflicts' }),
    );
    // What it answers is what the README now says, and what the index (the graph) reads back.
    const readme = readFileSync(join(t.root, 'ideas', OTHER, 'README.md'), 'utf8');
    expect(readme).toContain(`type: ${result.type}`);
    expect(readme).toContain(`tags: ${JSON.stringify(result.tags)}`);
    const idea = await call(app, 'ideas:get', { slug: OTHER });
    expect({ type: idea.type, tags: idea.tags }).toEqual({ type: result.type, tags: result.tags });
    const { relationships } = await call(app, 'ideas:relationships', {});
    const declared = relationships.filter((r) => r.source === OTHER).map((r) => `${r.target}:${r.type}`);
    expect(declared.sort()).toEqual(result.relationships.map((r) => `${r.target}:${r.type}`).sort());
  });

  it('asks development questions on the settings provider and records an answer in development.md', async () => {
    const app = await boot();
    const asked = await call(app, 'ideas:develop', { slug: IDEA });
    expect(asked.added.length).toBeGreaterThan(0);
    expect(asked.path).toBe(`ideas/${IDEA}/development.md`);
    const n = asked.added[0] as number;
    const answered = await call(app, 'ideas:answer', { slug: IDEA, number: n, text: 'Twelve households said yes.' });
    expect(answered.questions.find((q) => q.number === n)?.answer).toBe('Twelve households said yes.');
    const listed = await call(app, 'ideas:questions', { slug: IDEA });
    expect(listed.questions).toEqual(answered.questions);
    expect(readFileSync(join(t.root, 'ideas', IDEA, 'development.md'), 'utf8')).toContain(
      'Twelve households said yes.',
    );
    expect((await refused(call(app, 'ideas:answer', { slug: IDEA, number: 99, text: 'x' }))).code).toBe('user_error');
  });
});

describe('cancelling a development call', () => {
  it('stops the call at once, fails it as cancelled and writes nothing; a second call meanwhile is refused', async () => {
    // The simulator answers after this long, unless the call is cancelled first.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '20000';
    const app = await boot();
    const folder = join(t.root, 'ideas', IDEA);
    const before = readdirSync(folder, { recursive: true });
    const started = performance.now();
    const asking = refused(call(app, 'ideas:develop', { slug: IDEA }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await refused(call(app, 'ideas:develop', { slug: IDEA }));
    expect(again).toMatchObject({
      code: 'user_error',
      message: `the development agent is already asking about "${IDEA}"`,
    });

    expect(await call(app, 'ideas:developCancel', { slug: IDEA })).toEqual({ cancelled: true });
    expect((await asking).toWire()).toEqual({
      code: 'user_error',
      message: 'the development call was cancelled: nothing was written',
    });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(readdirSync(folder, { recursive: true })).toEqual(before);
    // Nothing is running now; the idea can be asked about again.
    expect(await call(app, 'ideas:developCancel', { slug: IDEA })).toEqual({ cancelled: false });
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '0';
    expect((await call(app, 'ideas:develop', { slug: IDEA })).added.length).toBeGreaterThan(0);
  });
});

describe('bringing notes in and comparing ideas', () => {
  it('imports a folder of notes by its path, reporting each note; a relative path is refused by field', async () => {
    const app = await boot();
    const vault = join(outside.root, 'vault');
    cpSync(join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'vault'), vault, { recursive: true });
    const report = await call(app, 'ideas:import', { path: vault });
    expect([report.created.map((c) => c.file), report.errors, report.ignored]).toEqual([
      ['Home.md', 'Projects/Deep/kenkyu.md', 'Projects/Deep/zettel-202401.md', 'Projects/soil-sensing.md'],
      [],
      2,
    ]);
    const listed = (await call(app, 'ideas:list', {})).ideas.map((i) => i.slug);
    expect(listed).toEqual(expect.arrayContaining(report.created.map((c) => c.slug)));
    expect(await refused(app.invoke('ideas:import', { path: 'vault' }))).toMatchObject({
      code: 'bad_input',
      field: 'path',
    });
  });

  it('compares evaluated ideas from their current evaluations, showing one without as not evaluated', async () => {
    const app = await boot();
    const third = (await call(app, 'ideas:capture', { title: 'A third idea', text: 'Not evaluated yet.' })).slug;
    const details: EvaluationDetail[] = [];
    for (const [slug, seed] of [
      [IDEA, 5],
      [OTHER, 7],
    ] as const) {
      const { id } = await app.handlers['evaluations:start']({ slug, mode: 'quick', provider: 'simulated', seed });
      const until = Date.now() + 30_000;
      let detail = await app.handlers['evaluations:get']({ id });
      while (detail.status === 'running') {
        if (Date.now() > until) throw new Error('the simulated evaluation did not lock');
        await new Promise((r) => setTimeout(r, 50));
        detail = await app.handlers['evaluations:get']({ id });
      }
      details.push(detail);
    }
    const view = await call(app, 'ideas:compare', { slugs: [IDEA, third, OTHER] });
    const expected = (d: EvaluationDetail) => ({
      evaluationId: d.id,
      overallScore: d.overallScore,
      categories: Object.fromEntries(d.categories.map((c) => [c.id, c.score])),
      criteria: Object.fromEntries(d.criteria.map((c) => [c.id, c.score])),
      confidence: d.confidence,
      recommendation: d.recommendation,
      strengths: d.narrative?.keyStrengths,
      weaknesses: d.narrative?.keyWeaknesses,
      stale: false,
    });
    expect(view.ideas.map((i) => i.slug)).toEqual([IDEA, third, OTHER]);
    expect(view.ideas[0]).toMatchObject(expected(details[0] as EvaluationDetail));
    expect(view.ideas[2]).toMatchObject(expected(details[1] as EvaluationDetail));
    expect(view.ideas[1]).toMatchObject({ evaluationId: null, overallScore: null, strengths: [], stale: false });
    expect(Object.keys(view.ideas[0]?.criteria ?? {})).toHaveLength(view.criteria.length);
    expect(view.ideas[0]?.strengths.length).toBeGreaterThan(0);

    expect(await refused(call(app, 'ideas:compare', { slugs: [IDEA, third] }))).toMatchObject({
      code: 'user_error',
      message: `"${third}" has no evaluation, and a comparison needs at least two evaluated ideas (start one: npm run cli -- evaluate ${third})`,
    });
    expect(await refused(call(app, 'ideas:compare', { slugs: [IDEA, 'no-such-idea'] }))).toMatchObject({
      code: 'user_error',
      message: 'no idea "no-such-idea" (see: npm run cli -- list)',
    });
    expect(await refused(app.invoke('ideas:compare', { slugs: [IDEA] }))).toMatchObject({
      code: 'bad_input',
      field: 'slugs',
    });
  }, 90_000);
});

describe('coverage', () => {
  it('answered every channel of core/contract/ideas-channels.ts in this file', () => {
    expect(Object.keys(ideasChannels).filter((c) => !answered.has(c as Channel))).toEqual([]);
  });
});
