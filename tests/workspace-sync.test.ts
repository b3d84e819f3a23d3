import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderIndex } from '../core/idea/index-md';
import { getIdea, ideaRelationships, indexEntries, listIdeas } from '../core/node/sqlite/index-sql';
import { LATEST_VERSION, migrate } from '../core/node/sqlite/migrations';
import { NEW_INDEX_PAGE_SIZE } from '../core/node/sqlite/open';
import { WorkspaceWatcher } from '../core/node/workspace/watcher';
import { Workspace } from '../core/node/workspace/workspace';
import { damageFullTextBlock } from './helpers/damage';
import { eventually, readme, sleep, tempWorkspace, writeFile } from './helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: Workspace | null;
let watcher: WorkspaceWatcher | null;

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace());
  ws = null;
  watcher = null;
});

afterEach(async () => {
  await watcher?.close();
  ws?.close();
  cleanup();
});

async function watching(): Promise<{ ws: Workspace; watcher: WorkspaceWatcher }> {
  ws = Workspace.open(root);
  ws.sync();
  watcher = new WorkspaceWatcher(ws);
  await watcher.start();
  return { ws, watcher };
}

const titleOf = (w: Workspace, slug: string) => getIdea(w.db, slug)?.title;

describe('reconcile at start', () => {
  it('indexes every idea, skips unchanged files on the next start, and reports bad files without stopping', () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha', { tags: '[energy, local]', stage: 'RESEARCH' }));
    writeFile(root, 'ideas/alpha/development.md', '---\nkind: development\n---\n### Q: Who pays?\n\nThe council.\n');
    writeFile(
      root,
      'ideas/alpha/research/prior-art.md',
      '---\nkind: research\n---\nPhotovoltaic cooperatives in Bavaria.\n',
    );
    writeFile(root, 'ideas/alpha/assets/photo.bin', Buffer.from([0, 1, 2, 3]));
    writeFile(root, 'ideas/beta/README.md', readme('Beta'));
    writeFile(root, 'ideas/broken/README.md', '---\ntitle: [unclosed\n---\nbody\n');

    ws = Workspace.open(root);
    expect(ws.rebuilt).toBe('missing');
    const first = ws.sync();
    expect({ ...first, durationMs: 0, errors: first.errors.map((e) => e.file) }).toEqual({
      ideas: 2,
      files: 6,
      added: 2,
      changed: 0,
      removed: 0,
      errors: ['ideas/broken/README.md'],
      durationMs: 0,
      slugs: { added: ['alpha', 'beta'], changed: [], removed: [] },
    });
    expect(first.errors[0]?.reason).toMatch(/bad YAML frontmatter at line 3/);
    const alpha = getIdea(ws.db, 'alpha');
    expect(alpha).toMatchObject({ title: 'Alpha', stage: 'RESEARCH', tags: ['energy', 'local'], stale: false });
    expect(ws.search('photovoltaic').map((h) => h.slug)).toEqual(['alpha']);
    ws.close();

    // Restart with nothing changed: nothing is re-planned, the error is still reported.
    ws = Workspace.open(root);
    expect(ws.rebuilt).toBeNull();
    const second = ws.sync();
    expect([second.added, second.changed, second.removed, second.errors.length]).toEqual([0, 0, 0, 1]);
  });

  it('marks an idea stale when its inputs change after an evaluation, and not for app outputs', () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    ws = Workspace.open(root);
    ws.sync();
    const hash = getIdea(ws.db, 'alpha')?.contentHash;
    writeFile(
      root,
      'ideas/alpha/synthesis.md',
      `---\nkind: synthesis\ncontentHashAtEvaluation: ${hash}\noverallScore: 6.4\noverallConfidence: 0.71\ncompletedAt: 2026-02-01T10:00:00Z\n---\nbody\n`,
    );
    writeFile(root, 'ideas/alpha/evaluation.md', 'written by the app\n');
    writeFile(root, 'ideas/alpha/notes/loose.md', 'a free note\n');
    ws.sync();
    expect(getIdea(ws.db, 'alpha')).toMatchObject({ stale: false, overallScore: 6.4, confidence: 0.71 });

    writeFile(root, 'ideas/alpha/research/new-finding.md', 'A study that changes things.\n');
    writeFile(root, 'ideas/beta/README.md', readme('beta, lower case', { tags: '[zeta, alpha, Mid]', type: 'null' }));
    ws.sync();
    expect(getIdea(ws.db, 'alpha')?.stale).toBe(true);
    // `_index.md` is rendered from its own lean query; it must say exactly what the listing says.
    expect(renderIndex(indexEntries(ws.db))).toBe(renderIndex(listIdeas(ws.db)));
    expect(readFileSync(join(root, 'ideas/_index.md'), 'utf8')).toContain('6.4 (stale)');
  });

  it('rebuilds a deleted or corrupted index from the folder without losing anything', () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha', { tags: '[energy]' }));
    writeFile(root, 'ideas/beta/README.md', readme('Beta'));
    ws = Workspace.open(root);
    ws.sync();
    const before = listIdeas(ws.db);
    ws.close();

    rmSync(join(root, '.crucible'), { recursive: true });
    ws = Workspace.open(root);
    expect(ws.rebuilt).toBe('missing');
    ws.sync();
    expect(listIdeas(ws.db)).toEqual(before);
    ws.close();

    const dbPath = join(root, '.crucible', 'index.db');
    const bytes = readFileSync(dbPath);
    // Scribble over the pages after the header: the file still opens, quick_check does not pass.
    bytes.fill(0x5a, 100, Math.min(bytes.length, 16384));
    writeFileSync(dbPath, bytes);
    ws = Workspace.open(root);
    expect(ws.rebuilt).toBe('corrupt');
    ws.sync();
    expect(listIdeas(ws.db)).toEqual(before);
  });

  it('leaves HTML comments out of search, and rewrites an index made before that rule (migration 8)', () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha', {}, 'Tidal kites.\n<!-- guidance: zebra -->'));
    writeFile(
      root,
      'ideas/alpha/development.md',
      '---\nkind: development\n---\n### Q: Who pays?\n<!-- asked: 2026-01-02; source: ai; gap: giraffe -->\n\nThe council.\n',
    );
    ws = Workspace.open(root);
    ws.sync();
    const found = (w: Workspace) => ['zebra', 'giraffe', 'council', 'kites'].map((q) => w.search(q).length);
    expect(found(ws)).toEqual([0, 0, 1, 1]);

    // What the rule before it wrote: the comments' words indexed, a row hash made without the rule.
    const rowid = ws.db.prepare("SELECT rowid FROM ideas WHERE slug = 'alpha'").pluck().get() as number;
    ws.db.prepare('DELETE FROM ideas_fts WHERE rowid = ?').run(rowid);
    ws.db
      .prepare("INSERT INTO ideas_fts (rowid, title, summary, tags, body) VALUES (?, 'Alpha', '', '', ?)")
      .run(rowid, 'Tidal kites. guidance: zebra. Who pays? asked: source: ai; gap: giraffe. The council.');
    ws.db.prepare("UPDATE ideas SET row_hash = 'made before the rule'").run();
    ws.db.pragma('user_version = 7');
    expect(found(ws)).toEqual([1, 1, 1, 1]);
    ws.close();

    ws = Workspace.open(root);
    const report = ws.sync();
    expect([ws.db.pragma('user_version', { simple: true }), report.changed, found(ws)]).toEqual([
      LATEST_VERSION,
      1,
      [0, 0, 1, 1],
    ]);
  });

  it('creates a new index with large pages and leaves an existing file at the size it has', () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    ws = Workspace.open(root);
    ws.sync();
    expect(ws.db.pragma('page_size', { simple: true })).toBe(NEW_INDEX_PAGE_SIZE);
    ws.close();

    // An index made before the page size was chosen: SQLite's default size, every migration run.
    rmSync(join(root, '.crucible'), { recursive: true });
    mkdirSync(join(root, '.crucible'));
    const old = new Database(join(root, '.crucible', 'index.db'));
    old.pragma('journal_mode = WAL');
    migrate(old);
    old.close();
    ws = Workspace.open(root);
    const report = ws.sync();
    expect([ws.rebuilt, report.added, ws.db.pragma('page_size', { simple: true })]).toEqual([null, 1, 4096]);
  });

  it('rebuilds an index whose damage only the integrity check sees, though the walk ran beside the check', () => {
    for (const name of ['alpha', 'beta', 'gamma'])
      writeFile(root, `ideas/${name}/README.md`, readme(name, {}, `Notes on ${name} and tidal kites.`));
    ws = Workspace.open(root);
    ws.sync();
    const before = listIdeas(ws.db);
    // A page of the full-text index: a restart's reconcile never reads it, only quick_check does.
    const page = ws.db
      .prepare("SELECT pageno FROM dbstat WHERE name = 'ideas_fts_data' ORDER BY pageno DESC LIMIT 1")
      .pluck()
      .get() as number;
    const pageSize = ws.db.pragma('page_size', { simple: true }) as number;
    ws.close();
    const dbPath = join(root, '.crucible', 'index.db');
    const bytes = readFileSync(dbPath);
    bytes.fill(0xa5, (page - 1) * pageSize + 8, page * pageSize);
    writeFileSync(dbPath, bytes);

    ws = Workspace.open(root);
    const report = ws.sync();
    expect(ws.rebuilt).toBe('corrupt');
    expect([report.ideas, report.added, report.errors]).toEqual([3, 3, []]);
    expect(listIdeas(ws.db)).toEqual(before);
    expect(
      ws
        .search('tidal')
        .map((h) => h.slug)
        .sort(),
    ).toEqual(['alpha', 'beta', 'gamma']);
    ws.close();
    ws = Workspace.open(root);
    expect(ws.rebuilt).toBeNull();
  });

  it('checks the full-text index before searching or changing ideas, not before a restart that changes nothing', () => {
    for (const name of ['alpha', 'beta', 'gamma'])
      writeFile(root, `ideas/${name}/README.md`, readme(name, {}, `Notes on ${name} and tidal kites.`));
    ws = Workspace.open(root);
    ws.sync();
    const before = listIdeas(ws.db);
    ws.close();
    const dbPath = join(root, '.crucible', 'index.db');
    const slugsFor = (w: Workspace, query: string) =>
      w
        .search(query)
        .map((h) => h.slug)
        .sort();

    // Damage only the full-text index's own check sees: the tables pass, so a restart that finds
    // nothing changed goes ahead on them; the first search waits for the rest and rebuilds.
    damageFullTextBlock(dbPath, 'ideas_fts');
    ws = Workspace.open(root);
    expect(ws.sync()).toMatchObject({ ideas: 3, added: 0, changed: 0, removed: 0 });
    expect(ws.rebuilt).toBeNull();
    expect(listIdeas(ws.db)).toEqual(before);
    expect(slugsFor(ws, 'tidal')).toEqual(['alpha', 'beta', 'gamma']);
    expect(ws.rebuilt).toBe('corrupt');
    ws.close();

    // A pass that changes an idea waits for the whole check too, and the change survives the rebuild.
    damageFullTextBlock(dbPath, 'ideas_fts');
    ws = Workspace.open(root);
    writeFile(root, 'ideas/beta/README.md', readme('beta', {}, 'Notes on beta and solar sails.'));
    const report = ws.sync();
    expect(ws.rebuilt).toBe('corrupt');
    expect(report.ideas).toBe(3);
    expect(slugsFor(ws, 'solar')).toEqual(['beta']);
    expect(slugsFor(ws, 'tidal')).toEqual(['alpha', 'gamma']);
    ws.close();
    ws = Workspace.open(root);
    expect(ws.rebuilt).toBeNull();
    expect(slugsFor(ws, 'tidal')).toEqual(['alpha', 'gamma']);
    expect(ws.rebuilt).toBeNull();
  });

  it('repairs damage only the full-text check sees once the watcher is up, before any search', async () => {
    for (const name of ['alpha', 'beta'])
      writeFile(root, `ideas/${name}/README.md`, readme(name, {}, `Notes on ${name} and tidal kites.`));
    ws = Workspace.open(root);
    ws.sync();
    ws.close();
    damageFullTextBlock(join(root, '.crucible', 'index.db'), 'ideas_fts');
    const passes: number[] = [];
    ws = Workspace.open(root);
    ws.sync();
    expect(ws.rebuilt).toBeNull();
    watcher = new WorkspaceWatcher(ws, { onPass: (report) => passes.push(report.added) });
    await watcher.start();
    expect(ws.rebuilt).toBe('corrupt');
    expect(passes).toEqual([2]);
    expect(
      ws
        .search('tidal')
        .map((h) => h.slug)
        .sort(),
    ).toEqual(['alpha', 'beta']);
  });

  it('builds the same index from empty (insert-only) as by updating an existing one', () => {
    writeFile(
      root,
      'ideas/alpha/README.md',
      readme('Alpha', {
        tags: '[energy, Local, energy]',
        relationships:
          '[{target: beta, type: related, strength: 0.2}, {target: beta, type: related, strength: 0.9, reason: again}]',
      }),
    );
    writeFile(root, 'ideas/alpha/development.md', '---\nkind: development\n---\n### Q: Who pays?\n\nThe council.\n');
    writeFile(root, 'ideas/alpha/research/prior-art.md', 'Photovoltaic cooperatives.\n');
    writeFile(root, 'ideas/alpha/notes/n.md', 'A loose note about kites.\n');
    writeFile(
      root,
      'ideas/alpha/synthesis.md',
      '---\nkind: synthesis\ncontentHashAtEvaluation: old\noverallScore: 6.4\ncategoryScores: {value: 7}\n---\n',
    );
    writeFile(root, 'ideas/beta/README.md', readme('Beta', { tags: 'solar, energy' }));
    writeFile(root, 'ideas/copy/README.md', readme('Copy', { id: '01JTEST000001' }));
    writeFile(root, 'ideas/copy2/README.md', readme('Copy two', { id: '01JTEST000001' }));
    writeFile(root, 'ideas/broken/README.md', '---\ntitle: [unclosed\n---\n');
    writeFile(root, 'ideas/empty/assets/x.bin', Buffer.from([1, 2]));

    const dump = (w: Workspace) => {
      const all = (sql: string) => w.db.prepare(sql).all();
      return {
        ideas: all('SELECT * FROM ideas ORDER BY slug').map((r) => ({ ...(r as { slug: string }), indexed_at: null })),
        files: all('SELECT * FROM files ORDER BY path'),
        tags: all('SELECT * FROM tags ORDER BY name'),
        ideaTags: all('SELECT * FROM idea_tags ORDER BY slug, position'),
        relationships: all('SELECT * FROM relationships ORDER BY source_slug, target_slug, type'),
        errors: all('SELECT path, slug, reason FROM sync_errors ORDER BY path, reason'),
        search: ['council', 'photovoltaic', 'kites', 'beta', 'energy'].map((q) => w.search(q).map((h) => h.slug)),
        // A first sync writes it from what it loaded, the other path reads it back from the index.
        index: readFileSync(join(root, 'ideas/_index.md'), 'utf8'),
      };
    };
    ws = Workspace.open(root);
    ws.sync();
    const fromEmpty = dump(ws);
    // The load ran through a rollback journal without waiting for the disk; the index is back in
    // the mode every other write expects.
    expect([ws.db.pragma('journal_mode', { simple: true }), ws.db.pragma('synchronous', { simple: true })]).toEqual([
      'wal',
      1,
    ]);
    ws.close();

    rmSync(join(root, '.crucible'), { recursive: true });
    ws = Workspace.open(root);
    // One folder first (a scoped pass), so the full pass that follows updates a non-empty index.
    ws.syncSlugs(['beta']);
    ws.sync();
    expect(dump(ws)).toEqual(fromEmpty);
    expect(fromEmpty.relationships).toEqual([
      { source_slug: 'alpha', target_slug: 'beta', type: 'related', strength: 0.9, reason: 'again' },
    ]);
    expect([fromEmpty.ideas.map((i) => i.slug), fromEmpty.errors.length, fromEmpty.search]).toEqual([
      ['alpha', 'beta', 'copy'],
      2,
      [['alpha'], ['alpha'], ['alpha'], ['beta'], ['beta', 'alpha']],
    ]);
  });

  it('rewrites a reread idea exactly when something it stores changed, and leaves it when nothing did', () => {
    const body = 'Kites over the lagoon.';
    writeFile(root, 'ideas/a/README.md', readme('Tidal kites', { tags: '[energy]' }, body));
    writeFile(root, 'ideas/a/development.md', '---\nkind: development\n---\n### Q: Who pays?\n\nThe council.\n');
    writeFile(root, 'ideas/a/synthesis.md', '---\nkind: synthesis\noverallScore: 6.4\n---\n');
    ws = Workspace.open(root);
    ws.sync();
    const stored = () => {
      const idea = getIdea((ws as Workspace).db, 'a');
      const links = ideaRelationships((ws as Workspace).db, 'a').length;
      return [idea?.title, idea?.summary, idea?.stage, idea?.tags, links, idea?.overallScore];
    };
    const readmeNow = () => readFileSync(join(root, 'ideas/a/README.md'), 'utf8');
    // Each step changes one thing the row holds; the last rewrites the same bytes.
    const steps: [string, () => void, string[] | null][] = [
      [
        'title',
        () => writeFile(root, 'ideas/a/README.md', readmeNow().replace('title: "Tidal kites"', 'title: "Tidal sails"')),
        null,
      ],
      ['summary', () => writeFile(root, 'ideas/a/README.md', readmeNow().replace('in one line.', 'in a line.')), null],
      [
        'stage',
        () => writeFile(root, 'ideas/a/README.md', readmeNow().replace('stage: SPARK', 'stage: RESEARCH')),
        null,
      ],
      [
        'tags',
        () => writeFile(root, 'ideas/a/README.md', readmeNow().replace('tags: [energy]', 'tags: [energy, sea]')),
        null,
      ],
      [
        'relationships',
        () =>
          writeFile(
            root,
            'ideas/a/README.md',
            readmeNow().replace('---\n# ', 'relationships: [{target: b, type: related}]\n---\n# '),
          ),
        null,
      ],
      [
        'body',
        () => writeFile(root, 'ideas/a/README.md', readmeNow().replace(body, 'Sails over the lagoon.')),
        ['sails'],
      ],
      [
        'development',
        () => writeFile(root, 'ideas/a/development.md', '### Q: Who pays?\n\nThe harbour.\n'),
        ['harbour'],
      ],
      ['research', () => writeFile(root, 'ideas/a/research/r.md', 'Photovoltaic cooperatives.\n'), ['photovoltaic']],
      [
        'synthesis',
        () => writeFile(root, 'ideas/a/synthesis.md', '---\nkind: synthesis\noverallScore: 7.1\n---\n'),
        null,
      ],
    ];
    let before = stored();
    for (const [what, change, words] of steps) {
      change();
      const report = ws.syncSlugs(['a']);
      const after = stored();
      expect({
        what,
        changed: report.changed,
        differs: JSON.stringify(after) !== JSON.stringify(before) || words !== null,
      }).toEqual({
        what,
        changed: 1,
        differs: true,
      });
      for (const word of words ?? []) expect(ws.search(word).map((h) => h.slug)).toEqual(['a']);
      before = after;
    }
    // The same bytes with a new modification time: the folder is read again and found unchanged.
    writeFile(root, 'ideas/a/README.md', readmeNow());
    utimesSync(join(root, 'ideas/a/README.md'), new Date(), new Date(Date.now() + 60_000));
    expect(ws.syncSlugs(['a']).changed).toBe(0);
    expect(stored()).toEqual(['Tidal sails', 'Tidal kites in a line.', 'RESEARCH', ['energy', 'sea'], 1, 7.1]);
  });

  it('confirms unchanged folders on a restart from their recorded listings, and still finds every change', async () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    writeFile(root, 'ideas/alpha/research/one.md', 'Tidal kites.\n');
    writeFile(root, 'ideas/beta/README.md', readme('Beta'));
    writeFile(root, 'ideas/gamma/README.md', readme('Gamma'));
    ws = Workspace.open(root);
    ws.sync();
    const listed = () => ws?.db.prepare('SELECT path FROM folder_listings ORDER BY path').pluck().all();
    // Folders are recorded only once they have been unchanged for a moment.
    expect(listed()).toEqual([]);
    await sleep(2100);
    expect(ws.sync()).toMatchObject({ added: 0, changed: 0, removed: 0 });
    expect(listed()).toEqual(['ideas/alpha', 'ideas/alpha/research', 'ideas/beta', 'ideas/gamma']);
    ws.close();

    ws = Workspace.open(root);
    expect(ws.sync()).toMatchObject({ ideas: 3, added: 0, changed: 0, removed: 0 });
    writeFile(root, 'ideas/alpha/research/two.md', 'Solar roofs.\n');
    writeFileSync(join(root, 'ideas/beta/README.md'), readme('Beta, retitled'));
    rmSync(join(root, 'ideas/gamma'), { recursive: true });
    writeFile(root, 'ideas/delta/README.md', readme('Delta'));
    ws.close();

    ws = Workspace.open(root);
    const report = ws.sync();
    expect(report.slugs).toEqual({ added: ['delta'], changed: ['alpha', 'beta'], removed: ['gamma'] });
    expect(ws.search('solar').map((h) => h.slug)).toEqual(['alpha']);
    expect(titleOf(ws, 'beta')).toBe('Beta, retitled');
    // A pass over some folders (the watcher's) forgets their listings: the next restart compares them.
    ws.syncSlugs(['alpha']);
    expect(listed()).toEqual(['ideas/beta']);
    // A thorough pass (the watcher's first) lists every folder, finds a change a folder's times would
    // not show, and forgets the listing of the folder it changed in.
    writeFileSync(join(root, 'ideas/beta/README.md'), readme('Beta, again'));
    expect(ws.sync({ thorough: true }).slugs.changed).toEqual(['beta']);
    expect(listed()).toEqual([]);
  });

  it('reports each kind of malformed file with its path and reason, and syncs the rest', () => {
    const bad: Record<string, string | Buffer> = {
      'ideas/yaml/README.md': '---\ntitle: "open\nstage: SPARK\n---\n',
      'ideas/wrong-type/README.md': readme('Wrong type', { tags: '{a: 1}' }),
      'ideas/bad-stage/README.md': readme('Bad stage', { stage: 'DREAMING' }),
      'ideas/bad-kind/README.md': readme('Bad kind', { type: 'astrology' }),
      'ideas/bad-relation/README.md': readme('Bad relation', { relationships: '[{target: x, type: sibling}]' }),
      'ideas/list-frontmatter/README.md': '---\n- a\n- b\n---\nbody\n',
      'ideas/binary/README.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0x10]),
      'ideas/latin1/README.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'ideas/huge/README.md': `---\ntitle: Huge\n---\n${'x'.repeat(2 * 1024 * 1024 + 10)}`,
    };
    for (const [path, content] of Object.entries(bad)) writeFile(root, path, content);
    writeFile(root, 'ideas/fine/README.md', readme('Fine'));
    writeFile(root, 'ideas/unreadable/README.md', readme('Unreadable'));
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(join(root, 'ideas/unreadable/README.md'), 0o000);

    ws = Workspace.open(root);
    const report = ws.sync();
    const reasons = Object.fromEntries(report.errors.map((e) => [e.file.split('/')[1], e.reason]));
    expect(reasons).toMatchObject({
      yaml: expect.stringMatching(/^bad YAML frontmatter at line \d+/),
      'wrong-type': expect.stringMatching(/^tags: /),
      'bad-stage': expect.stringMatching(/^stage: unknown stage "DREAMING"/),
      'bad-kind': expect.stringMatching(/^type: unknown idea type "astrology"/),
      'bad-relation': expect.stringMatching(/^relationships\[0\]\.type: /),
      'list-frontmatter': expect.stringMatching(/frontmatter must be a set of/),
      binary: 'looks like a binary file, not markdown text',
      latin1: 'is not valid UTF-8 text',
      huge: expect.stringMatching(/^too large to index/),
    });
    if (!asRoot) expect(reasons.unreadable).toBe('cannot be read: permission denied');
    expect(listIdeas(ws.db).map((i) => i.slug)).toEqual(asRoot ? ['fine', 'unreadable'] : ['fine']);
  });

  it('keeps the last good version of an idea while its README is broken, and recovers', () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    ws = Workspace.open(root);
    ws.sync();
    writeFile(root, 'ideas/alpha/README.md', '---\ntitle: [half typed\n---\n');
    const broken = ws.sync();
    expect(titleOf(ws, 'alpha')).toBe('Alpha');
    expect(broken.errors.map((e) => e.file)).toEqual(['ideas/alpha/README.md']);
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha, fixed'));
    const fixed = ws.sync();
    expect([titleOf(ws, 'alpha'), fixed.errors]).toEqual(['Alpha, fixed', []]);
  });

  it('refuses a copied folder that reuses another idea id, naming both', () => {
    const text = readme('Original', { id: '01JDUPLICATE000000000000000' });
    writeFile(root, 'ideas/original/README.md', text);
    writeFile(root, 'ideas/the-copy/README.md', text);
    ws = Workspace.open(root);
    const report = ws.sync();
    expect(report.errors).toEqual([
      {
        file: 'ideas/the-copy/README.md',
        reason:
          'id: "01JDUPLICATE000000000000000" is already used by ideas/original/README.md (give this copy a new id)',
      },
    ]);
  });

  it('catches a reused id across the batches of a large first sync', () => {
    // A first sync loads folders in batches of a few hundred; the two claims sit at either end.
    const text = readme('Original', { id: '01JDUPLICATE000000000000000' });
    writeFile(root, 'ideas/a-original/README.md', text);
    for (let i = 0; i < 450; i++)
      writeFile(root, `ideas/m-${String(i).padStart(3, '0')}/README.md`, readme(`Idea ${i}`));
    writeFile(root, 'ideas/z-copy/README.md', text);
    ws = Workspace.open(root);
    const report = ws.sync();
    expect(report.added).toBe(451);
    expect(report.errors).toEqual([
      {
        file: 'ideas/z-copy/README.md',
        reason:
          'id: "01JDUPLICATE000000000000000" is already used by ideas/a-original/README.md (give this copy a new id)',
      },
    ]);
  });
});

describe('_index.md after a first sync, written later', () => {
  it('is written from the text the first sync brought, unless a later change came first', async () => {
    // Enough ideas for the first sync to read on a reader thread and render `_index.md` there.
    for (let i = 0; i < 620; i++)
      writeFile(root, `ideas/idea-${String(i).padStart(3, '0')}/README.md`, readme(`Idea ${i}`));
    const indexFile = join(root, 'ideas/_index.md');
    const indexText = () => (existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : '');

    ws = Workspace.open(root);
    // As while watching: `_index.md` follows the pass instead of being written within it.
    ws.deferIndexMs = 30;
    expect(ws.sync().added).toBe(620);
    expect(existsSync(indexFile)).toBe(false);
    await eventually(() => existsSync(indexFile), '_index.md written');
    expect(ws.indexRenders).toEqual({ fromPass: 1, fromIndex: 0 });
    expect(indexText()).toBe(renderIndex(indexEntries(ws.db)));
    ws.close();

    // The same first sync again, then an edit indexed before `_index.md` is due: the first sync's
    // text no longer shows the index, so it is read back from the index instead.
    rmSync(join(root, '.crucible'), { recursive: true });
    ws = Workspace.open(root);
    ws.deferIndexMs = 200;
    ws.sync();
    writeFile(root, 'ideas/idea-007/README.md', readme('Idea seven, renamed'));
    expect(ws.syncSlugs(['idea-007']).changed).toBe(1);
    await eventually(
      () => indexText().includes('[Idea seven, renamed](idea-007/README.md)'),
      '_index.md with the edit',
    );
    expect(ws.indexRenders).toEqual({ fromPass: 0, fromIndex: 1 });
    expect(indexText()).toBe(renderIndex(indexEntries(ws.db)));
  });
});

describe('watching a real folder', () => {
  it('follows add, edit, rename and delete', async () => {
    const { ws } = await watching();
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    await eventually(() => titleOf(ws, 'alpha') === 'Alpha', 'alpha indexed');

    writeFile(root, 'ideas/alpha/README.md', readme('Alpha edited'));
    await eventually(() => titleOf(ws, 'alpha') === 'Alpha edited', 'edit indexed');
    // _index.md follows a moment later (regenerated once for a burst of edits).
    const indexText = () =>
      existsSync(join(root, 'ideas/_index.md')) ? readFileSync(join(root, 'ideas/_index.md'), 'utf8') : '';
    await eventually(() => indexText().includes('[Alpha edited](alpha/README.md)'), '_index.md regenerated');

    renameSync(join(root, 'ideas/alpha'), join(root, 'ideas/alpha-renamed'));
    await eventually(
      () => titleOf(ws, 'alpha-renamed') === 'Alpha edited' && !getIdea(ws.db, 'alpha'),
      'rename indexed',
    );
    expect(ws.errors()).toEqual([]);

    rmSync(join(root, 'ideas/alpha-renamed'), { recursive: true });
    await eventually(() => listIdeas(ws.db).length === 0, 'delete indexed');
  });

  it('sees files in a folder created a moment earlier, notes in subfolders, and in-place edits of both', async () => {
    const { ws } = await watching();
    // Folder and file in one go: the file lands before the new folder is under watch.
    writeFile(root, 'ideas/fresh/README.md', readme('Fresh'));
    await eventually(() => titleOf(ws, 'fresh') === 'Fresh', 'file in a new folder indexed');
    writeFileSync(join(root, 'ideas/fresh/README.md'), readme('Fresh, edited in place'));
    await eventually(() => titleOf(ws, 'fresh') === 'Fresh, edited in place', 'in-place edit indexed');
    const hash = () => getIdea(ws.db, 'fresh')?.contentHash;
    const before = hash();
    writeFile(root, 'ideas/fresh/research/deep/source.md', 'A nested research note.\n');
    await eventually(
      () => ws.show('fresh').files.some((f) => f.path === 'ideas/fresh/research/deep/source.md'),
      'nested note indexed',
    );
    writeFile(root, 'ideas/fresh/research/note.md', 'A research note.\n');
    await eventually(() => hash() !== before, 'research note changes the content hash');
    const after = hash();
    writeFileSync(join(root, 'ideas/fresh/research/note.md'), 'A research note, revised.\n');
    await eventually(() => hash() !== after, 'in-place edit of a note indexed');
  });

  it('treats a save-by-rename (as vim does it) as an edit, never a delete', async () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    const { ws } = await watching();
    const removed: string[] = [];
    ws.onChange((r) => removed.push(...r.slugs.removed));
    const file = join(root, 'ideas/alpha/README.md');
    // vim with backupcopy=no: move the original aside, write the new file, drop the backup.
    renameSync(file, `${file}~`);
    await sleep(30);
    writeFileSync(file, readme('Alpha saved by vim'));
    unlinkSync(`${file}~`);
    await eventually(() => titleOf(ws, 'alpha') === 'Alpha saved by vim', 'vim save indexed');
    // An editor that writes a temp file and renames it over the original.
    writeFileSync(join(root, 'ideas/alpha/.README.md.tmp'), readme('Alpha saved atomically'));
    renameSync(join(root, 'ideas/alpha/.README.md.tmp'), file);
    await eventually(() => titleOf(ws, 'alpha') === 'Alpha saved atomically', 'atomic save indexed');
    expect(removed).toEqual([]);
  });

  it('takes 200 files written in one burst in a few passes', async () => {
    const { ws, watcher } = await watching();
    for (let i = 0; i < 200; i++) writeFile(root, `ideas/idea-${i}/README.md`, readme(`Idea ${i}`));
    await eventually(() => listIdeas(ws.db).length === 200, '200 ideas indexed', 15_000);
    expect(watcher.passes).toBeLessThan(20);
    expect(ws.errors()).toEqual([]);
  });

  it('does not re-sync its own writes (no echo)', async () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    const { ws, watcher } = await watching();
    const passesBefore = watcher.passes;
    ws.setStage('alpha', 'RESEARCH');
    ws.capture({ title: 'Made by the app', text: 'Text.' });
    await sleep(600);
    expect(watcher.passes).toBe(passesBefore);
    expect(watcher.echoesIgnored).toBeGreaterThan(0);
    expect(listIdeas(ws.db).map((i) => [i.slug, i.stage])).toEqual([
      ['alpha', 'RESEARCH'],
      ['made-by-the-app', 'SPARK'],
    ]);
  });

  it('tells its listeners of ideas another process changed and indexed before its watcher looked', async () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    writeFile(root, 'ideas/beta/README.md', readme('Beta'));
    const { ws } = await watching();
    const heard: { changed: string[]; removed: string[] }[] = [];
    ws.onChange((report) => heard.push({ changed: report.slugs.changed, removed: report.slugs.removed }));
    // The command line, say, sets a stage: it writes the README and indexes it in the same call, so
    // the app's watcher finds the index already up to date. Its views must hear of it all the same.
    const other = Workspace.open(root);
    try {
      other.setStage('alpha', 'RESEARCH');
    } finally {
      other.close();
    }
    await eventually(() => heard.some((r) => r.changed.includes('alpha')), 'the change told to the listeners');
    expect(getIdea(ws.db, 'alpha')?.stage).toBe('RESEARCH');
    expect(heard.flatMap((r) => r.changed)).not.toContain('beta');
  });

  it('tells of another process’s new and removed ideas, after the app’s own pass and beside a real edit', async () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    writeFile(root, 'ideas/beta/README.md', readme('Beta'));
    writeFile(root, 'ideas/gamma/README.md', readme('Gamma'));
    const { ws } = await watching();
    const heard: { added: string[]; changed: string[]; removed: string[] }[] = [];
    ws.onChange((report) => heard.push(report.slugs));
    const told = (kind: 'added' | 'changed' | 'removed', slug: string) => heard.some((r) => r[kind].includes(slug));
    const other = Workspace.open(root);
    try {
      // Another process creates an idea and indexes it, and removes one and indexes that; the app
      // then runs a pass of its own first (a service syncing the idea it wrote), which must not use
      // up the news; and the researcher edits alpha in an editor, so a batch may hold a real change.
      const { slug } = other.capture({ title: 'Made elsewhere', text: 'Text.' });
      rmSync(join(root, 'ideas/gamma'), { recursive: true });
      other.syncSlugs(['gamma']);
      ws.setStage('beta', 'RESEARCH');
      writeFile(root, 'ideas/alpha/README.md', readme('Alpha edited'));
      await eventually(() => told('added', slug), 'the new idea told as added');
      await eventually(() => told('removed', 'gamma'), 'the removed idea told as removed');
      await eventually(() => told('changed', 'alpha'), 'the edit told');
    } finally {
      other.close();
    }
    expect(told('changed', 'gamma') || told('added', 'gamma')).toBe(false);
  });

  it('keeps an external edit that races an app write, and the app version beside it', async () => {
    writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
    const { ws } = await watching();
    // The researcher saves between the moment the app read the README and the moment it writes.
    const original = readFileSync(join(root, 'ideas/alpha/README.md'), 'utf8');
    const theirs = original.replace('Why Alpha matters.', 'Why Alpha matters: my latest thinking.');
    const { safeWrite, currentHash } = await import('../core/node/fs/atomic-write');
    const expected = currentHash(join(root, 'ideas/alpha/README.md'));
    writeFileSync(join(root, 'ideas/alpha/README.md'), theirs);
    const outcome = safeWrite(root, 'ideas/alpha/README.md', original.replace('SPARK', 'RESEARCH'), expected);
    expect(outcome.conflict).toBe(true);
    expect(outcome.path).toMatch(/^ideas\/alpha\/README\.conflict-\d{8}T\d{6}Z\.md$/);
    expect(readFileSync(join(root, 'ideas/alpha/README.md'), 'utf8')).toBe(theirs);
    expect(readFileSync(join(root, outcome.path), 'utf8')).toContain('stage: RESEARCH');
    await eventually(() => ws.show('alpha').files.some((f) => f.kind === 'conflict'), 'conflict copy indexed');
    expect(getIdea(ws.db, 'alpha')?.stage).toBe('SPARK');
  });
});
