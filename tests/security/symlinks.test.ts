import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../core/node/app/create-app';
import { WorkspaceWatcher } from '../../core/node/workspace/watcher';
import { Workspace } from '../../core/node/workspace/workspace';
import { cli, cliJson } from '../helpers/run-cli';
import { eventually, readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 2: links under ideas/ let files from outside the workspace be indexed, searched and
// served. The rule now: a symbolic link under ideas/ is never followed (a linked file, a linked
// subfolder, a linked idea folder); each is reported by path and the rest of the sync goes on.

const LINK = 'is a symbolic link; Crucible does not follow links (put the file or folder itself here)';
const SECRET = 'zanzibarsecret';

let root: string;
let cleanup: () => void;
let outside: string;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-links-'));
  // What lies outside the workspace: a secret note, an idea folder, a folder of notes.
  outside = mkdtempSync(join(tmpdir(), 'crucible-outside-'));
  writeFile(outside, 'secret.md', `# Secret\n\n${SECRET} passwords\n`);
  writeFile(outside, 'idea/README.md', readme('Outside idea', {}, `${SECRET} from outside`));
  writeFile(outside, 'notes/n.md', `# Note\n\n${SECRET} in a note\n`);
});
afterEach(() => {
  cleanup();
  rmSync(outside, { recursive: true, force: true });
});

/** A workspace with one plain idea and a link of every kind pointing outside. */
function plantLinks(): void {
  writeFile(root, 'ideas/good/README.md', readme('Good'));
  writeFile(root, 'ideas/leaky/README.md', readme('Leaky'));
  symlinkSync(join(outside, 'secret.md'), join(root, 'ideas/leaky/development.md'));
  symlinkSync(join(outside, 'notes'), join(root, 'ideas/leaky/notes'));
  writeFile(root, 'ideas/borrowed/.keep', '');
  symlinkSync(join(outside, 'idea/README.md'), join(root, 'ideas/borrowed/README.md'));
  symlinkSync(join(outside, 'idea'), join(root, 'ideas/linked'));
}

const EXPECTED_ERRORS = [
  { file: 'ideas/borrowed/README.md', reason: LINK },
  { file: 'ideas/leaky/development.md', reason: LINK },
  { file: 'ideas/leaky/notes', reason: LINK },
  { file: 'ideas/linked', reason: LINK },
];

describe('symbolic links under ideas/ are reported, never followed', { timeout: 120_000 }, () => {
  it('sync and search (real CLI processes), first sync and reconcile alike', () => {
    plantLinks();
    for (const pass of ['first sync', 'reconcile']) {
      const report = cliJson<{ ideas: number; errors: unknown[] }>(['sync', '--workspace', root]);
      expect({ pass, ideas: report.ideas, errors: report.errors }).toEqual({ pass, ideas: 2, errors: EXPECTED_ERRORS });
    }
    const search = cli(['search', SECRET, '--workspace', root, '--json']);
    expect(search.code).toBe(0);
    expect(search.stdout).not.toContain(SECRET);
    expect(JSON.parse(search.stdout)).toEqual({ hits: [] });
  });

  it('a large first sync (read on worker threads) holds to the same rule', () => {
    for (let i = 0; i < 620; i++) writeFile(root, `ideas/idea-${i}/README.md`, readme(`Idea ${i}`));
    plantLinks();
    const ws = Workspace.open(root);
    try {
      const report = ws.sync();
      expect({ ideas: report.ideas, errors: report.errors }).toEqual({ ideas: 622, errors: EXPECTED_ERRORS });
      expect(ws.search(SECRET)).toEqual([]);
    } finally {
      ws.close();
    }
  });

  it('ideas:file never serves a linked file, whatever the index says', async () => {
    plantLinks();
    const app = await createApp({ workspaceRoot: root, watch: false });
    try {
      // The linked file is in the index as a reported entry: the handler still refuses to open it.
      const outcome = await app.invoke('ideas:file', { slug: 'leaky', path: 'ideas/leaky/development.md' }).then(
        (value) => ({ served: value }),
        (error: Error & { code?: string }) => ({ refused: { code: error.code, message: error.message } }),
      );
      expect(outcome).toEqual({
        refused: {
          code: 'user_error',
          message: 'path: "ideas/leaky/development.md" is a symbolic link; Crucible does not follow links',
        },
      });
    } finally {
      await app.close();
    }
  });

  it('the watcher reports a linked idea folder and a linked file, and indexes neither', async () => {
    writeFile(root, 'ideas/good/README.md', readme('Good'));
    const ws = Workspace.open(root);
    ws.sync();
    const errors: unknown[] = [];
    const watcher = new WorkspaceWatcher(ws, { onError: (e) => errors.push(e) });
    await watcher.start();
    try {
      symlinkSync(join(outside, 'idea'), join(root, 'ideas/linked'));
      symlinkSync(join(outside, 'secret.md'), join(root, 'ideas/good/development.md'));
      await eventually(() => ws.errors().length === 2, 'the watcher reports both links');
      expect(ws.errors()).toEqual([
        { file: 'ideas/good/development.md', reason: LINK },
        { file: 'ideas/linked', reason: LINK },
      ]);
      expect(ws.list().map((i) => i.slug)).toEqual(['good']);
      expect(ws.search(SECRET)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await watcher.close();
      ws.close();
    }
  });
});
