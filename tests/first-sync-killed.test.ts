import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listIdeas } from '../core/node/sqlite/index-sql';
import { Workspace } from '../core/node/workspace/workspace';
import { nodeEntry } from './helpers/node-entry';
import { readme, sleep, tempWorkspace, writeFile } from './helpers/temp-workspace';

const MAIN = join(import.meta.dirname, '..', 'core', 'node', 'cli', 'main.ts');
const IDEAS = 2500;

let root: string;
let cleanup: () => void;
let ws: Workspace | null = null;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-killed-'));
});
afterEach(() => {
  ws?.close();
  cleanup();
});

describe('a first sync killed halfway', () => {
  it('leaves an index that the next start rebuilds whole', async () => {
    for (let i = 0; i < IDEAS; i++) {
      const slug = `idea-${String(i).padStart(4, '0')}`;
      writeFile(
        root,
        `ideas/${slug}/README.md`,
        readme(`Idea ${i}`, {}, `Notes on idea ${i}: ${'tidal kites and solar roofs '.repeat(20)}`),
      );
      writeFile(root, `ideas/${slug}/development.md`, `### Q: Who pays for ${i}?\n\nThe council.\n`);
    }
    const journal = join(root, '.crucible', 'index.db-journal');
    const child = spawn(process.execPath, [...nodeEntry(MAIN), 'sync', '--workspace', root], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The first sync writes through a rollback journal; while it exists the load is under way.
    let killedMidLoad = false;
    for (let waited = 0; waited < 60_000 && child.exitCode === null; waited += 2) {
      if (existsSync(journal)) {
        child.kill('SIGKILL');
        killedMidLoad = true;
        break;
      }
      await sleep(2);
    }
    await exited;
    expect(killedMidLoad).toBe(true);

    ws = Workspace.open(root);
    const report = ws.sync();
    expect(ws.rebuilt).toBeNull();
    expect(ws.db.pragma('quick_check', { simple: true })).toBe('ok');
    expect(existsSync(journal)).toBe(false);
    expect([report.ideas, report.added, report.errors.length]).toEqual([IDEAS, IDEAS, 0]);
    expect(listIdeas(ws.db).length).toBe(IDEAS);
    expect(ws.search('kites').length).toBe(50);
  }, 180_000);
});
