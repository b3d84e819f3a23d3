import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../core/node/app/create-app';
import { WorkspaceWatcher } from '../../core/node/workspace/watcher';
import { Workspace } from '../../core/node/workspace/workspace';
import { cli } from '../helpers/run-cli';
import { eventually, readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 1: a `---js` frontmatter block was `eval`ed by gray-matter in the main process.
// Every way markdown enters the app is tried with a block that would leave a file behind if run.

let root: string;
let cleanup: () => void;
let marker: string;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-js-frontmatter-'));
  marker = join(root, 'pwned.txt');
});
afterEach(() => cleanup());

const hostile = (path: string, opening = '---js') =>
  `${opening}\n{ title: (require('fs').writeFileSync(${JSON.stringify(path)}, 'x'), 'Innocent') }\n---\nbody\n`;
const REFUSED = /frontmatter must be YAML; "---(js|javascript)" names another language/;

describe('frontmatter that names JavaScript is never run', { timeout: 120_000 }, () => {
  it('sync (a real CLI process) reports the file by path and indexes the rest', () => {
    writeFile(root, 'ideas/good/README.md', readme('Good'));
    writeFile(root, 'ideas/innocent/README.md', hostile(marker));
    writeFile(root, 'ideas/good/notes/n.md', hostile(marker, '---javascript'));
    const run = cli(['sync', '--workspace', root, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { ideas: number; errors: { file: string; reason: string }[] };
    expect(existsSync(marker)).toBe(false);
    expect(report.ideas).toBe(1);
    expect(report.errors.map((e) => e.file).sort()).toEqual(['ideas/good/notes/n.md', 'ideas/innocent/README.md']);
    for (const e of report.errors) expect(e.reason).toMatch(REFUSED);
  });

  it('capture --file refuses the file, naming it', () => {
    writeFile(root, 'ideas/good/README.md', readme('Good'));
    const dropped = join(root, 'dropped.md');
    writeFileSync(dropped, hostile(marker));
    const run = cli(['capture', '--workspace', root, '--file', dropped]);
    expect(existsSync(marker)).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(dropped);
    expect(run.stderr).toMatch(REFUSED);
  });

  it('a large first sync (read on worker threads) reports it too', () => {
    // 600 folders or more are read by the worker pool, which runs its own copy of the parser.
    for (let i = 0; i < 640; i++) writeFile(root, `ideas/idea-${i}/README.md`, readme(`Idea ${i}`));
    writeFile(root, 'ideas/idea-333/README.md', hostile(marker));
    const ws = Workspace.open(root);
    try {
      const report = ws.sync();
      expect(existsSync(marker)).toBe(false);
      expect(report.ideas).toBe(639);
      expect(report.errors).toEqual([{ file: 'ideas/idea-333/README.md', reason: expect.stringMatching(REFUSED) }]);
    } finally {
      ws.close();
    }
  });

  it('the watcher reports a file that turns hostile, and the upload channel refuses one', async () => {
    writeFile(root, 'ideas/good/README.md', readme('Good'));
    const ws = Workspace.open(root);
    ws.sync();
    const watcher = new WorkspaceWatcher(ws);
    await watcher.start();
    try {
      writeFile(root, 'ideas/good/README.md', hostile(marker));
      const error = await eventually(
        () => ws.errors().find((e) => e.file === 'ideas/good/README.md'),
        'the watcher reports the README',
      );
      expect(error.reason).toMatch(REFUSED);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await watcher.close();
      ws.close();
    }

    const app: App = await createApp({ workspaceRoot: root, watch: false });
    try {
      const upload = app.handlers['ideas:captureUpload']({
        name: 'innocent.md',
        contentBase64: Buffer.from(hostile(marker)).toString('base64'),
      } as never);
      await expect(upload).rejects.toThrow(REFUSED);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await app.close();
    }
  });
});
