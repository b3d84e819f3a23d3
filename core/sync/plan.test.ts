import { describe, expect, it } from 'vitest';
import type { Hasher } from '../ports/hash';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import { planScan, planSync } from './plan';
import type { FolderSnapshot, IndexedFile, ReadFile } from './types';

/** A readable stand-in for SHA-256: the plan only needs equal inputs to give equal hashes. */
const hasher: Hasher = { sha256: (text) => `h(${text.length}:${[...text].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7)})` };
const taxonomy = testTaxonomy();

function indexed(path: string, size = 10, mtimeMs = 1, hash: string | null = 'x'): IndexedFile {
  const slug = path.split('/')[1] as string;
  return { path, slug, kind: path.endsWith('README.md') ? 'readme' : 'other', size, mtimeMs, hash };
}

function file(path: string, data: unknown, body = 'Body.', extra: Partial<ReadFile> = {}): ReadFile {
  const [, slug, ...rest] = path.split('/');
  const inner = rest.join('/');
  const kind = inner === 'README.md' ? 'readme' : inner === 'development.md' ? 'development' : inner.startsWith('research/') ? 'research' : 'asset';
  return { path, slug: slug as string, inner, kind, size: 10, mtimeMs: 2, hash: `hash-of-${path}`, doc: { data, body }, ...extra };
}

describe('planScan', () => {
  it('marks a folder dirty for a new, changed or vanished file and skips unchanged ones', () => {
    const index = new Map(
      ['ideas/same/README.md', 'ideas/touched/README.md', 'ideas/gone/README.md'].map((p) => [p, indexed(p)]),
    );
    const result = planScan(index, [
      { path: 'ideas/same/README.md', size: 10, mtimeMs: 1 },
      { path: 'ideas/touched/README.md', size: 10, mtimeMs: 5 },
      { path: 'ideas/new/README.md', size: 3, mtimeMs: 1 },
      { path: 'ideas/_index.md', size: 3, mtimeMs: 1 },
    ]);
    expect({ dirty: [...result.dirty].sort(), unchanged: result.unchanged }).toEqual({
      dirty: ['gone', 'new', 'touched'],
      unchanged: 1,
    });
    // A scoped pass only looks at its own folders for vanished files.
    expect([...planScan(index, [], new Set(['same'])).dirty]).toEqual(['same']);
  });
});

describe('planSync', () => {
  it('plans rows, counts and errors for added, changed, removed, broken and clashing folders', () => {
    const alphaMeta = { id: 'A1', title: 'Alpha', stage: 'RESEARCH', tags: ['energy', 'custom'] };
    const folders: FolderSnapshot[] = [
      {
        slug: 'alpha',
        files: [
          file('ideas/alpha/README.md', alphaMeta, '# Alpha\nSun.'),
          file('ideas/alpha/development.md', {}, 'Q and A.'),
          file('ideas/alpha/assets/p.png', undefined, '', { hash: null, doc: undefined }),
        ],
      },
      { slug: 'beta', files: [file('ideas/beta/README.md', { id: 'B1', title: 'Beta v2' })] },
      { slug: 'gone', files: [] },
      { slug: 'broken', files: [file('ideas/broken/README.md', { stage: 'NOPE' })] },
      { slug: 'copy', files: [file('ideas/copy/README.md', { id: 'B1', title: 'Copy of beta' })] },
      { slug: 'unreadable', files: [file('ideas/unreadable/README.md', undefined, '', { doc: undefined, error: 'cannot be read: permission denied' })] },
    ];
    const plan = planSync(folders, {
      taxonomy,
      hasher,
      indexedFiles: new Map([
        ['ideas/gone/README.md', indexed('ideas/gone/README.md')],
        ['ideas/beta/old.md', indexed('ideas/beta/old.md')],
      ]),
      indexedIdeas: new Map([
        ['beta', { id: 'B1', rowHash: 'old' }],
        ['gone', { id: 'G1', rowHash: 'old' }],
        ['broken', { id: 'K1', rowHash: 'old' }],
      ]),
      ownerOf: (id) => ({ B1: 'beta', G1: 'gone', K1: 'broken' })[id],
    });
    expect({
      added: plan.added,
      changed: plan.changed,
      removed: plan.removed,
      deleteIdeas: plan.deleteIdeas,
      deleteFiles: plan.deleteFiles,
      upsertFiles: plan.upsertFiles.map((f) => f.path),
      ideas: plan.upsertIdeas.map((r) => [r.meta.slug, r.meta.title, r.meta.stage, r.meta.tags, r.searchText]),
      errors: plan.setErrors,
      clearErrorsFor: plan.clearErrorsFor,
    }).toEqual({
      added: ['alpha'],
      changed: ['beta'],
      removed: ['gone'],
      deleteIdeas: ['gone'],
      deleteFiles: ['ideas/beta/old.md', 'ideas/gone/README.md'],
      upsertFiles: [
        'ideas/alpha/README.md',
        'ideas/alpha/development.md',
        'ideas/alpha/assets/p.png',
        'ideas/beta/README.md',
        'ideas/broken/README.md',
        'ideas/copy/README.md',
        'ideas/unreadable/README.md',
      ],
      ideas: [
        ['alpha', 'Alpha', 'RESEARCH', ['energy', 'custom'], '# Alpha\nSun.\n\nQ and A.'],
        ['beta', 'Beta v2', 'SPARK', [], 'Body.'],
      ],
      errors: [
        { path: 'ideas/broken/README.md', reason: 'stage: unknown stage "NOPE" (one of SPARK, RESEARCH, ABANDONED)' },
        { path: 'ideas/copy/README.md', reason: 'id: "B1" is already used by ideas/beta/README.md (give this copy a new id)' },
        { path: 'ideas/unreadable/README.md', reason: 'cannot be read: permission denied' },
      ],
      clearErrorsFor: ['alpha', 'beta', 'broken', 'copy', 'gone', 'unreadable'],
    });
  });

  it('changes the content hash for input files only, and sees an unchanged idea as unchanged', () => {
    const base = [file('ideas/a/README.md', { id: 'A', title: 'A' })];
    const ctx = { taxonomy, hasher, indexedFiles: new Map(), indexedIdeas: new Map(), ownerOf: () => undefined };
    const first = planSync([{ slug: 'a', files: base }], ctx).upsertIdeas[0];
    const withNote = planSync([{ slug: 'a', files: [...base, file('ideas/a/notes/n.md', {}, '', { kind: 'note', inner: 'notes/n.md' })] }], ctx).upsertIdeas[0];
    const withResearch = planSync([{ slug: 'a', files: [...base, file('ideas/a/research/r.md', {})] }], ctx).upsertIdeas[0];
    expect(withNote?.contentHash).toBe(first?.contentHash);
    expect(withResearch?.contentHash).not.toBe(first?.contentHash);

    const again = planSync([{ slug: 'a', files: base }], { ...ctx, indexedIdeas: new Map([['a', { id: 'A', rowHash: first?.rowHash as string }]]) });
    expect([again.added, again.changed, again.upsertIdeas]).toEqual([[], [], []]);
  });
});
