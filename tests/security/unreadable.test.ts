import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeEntry } from '../helpers/node-entry';
import { cliJson } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 10: a README replaced by a folder, or an idea folder, subfolder or file the app
// cannot read, dropped out of the index with no error. Every such entry is now reported by path.

const MAIN = join(import.meta.dirname, '..', '..', 'core', 'node', 'cli', 'main.ts');
const DENIED = 'cannot be read: permission denied';

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-unreadable-'));
  writeFile(root, 'ideas/good/README.md', readme('Good'));
});
afterEach(() => {
  // chmod 000 folders would stop the cleanup of an unprivileged run.
  for (const rel of ['ideas/locked', 'ideas/good/notes', 'ideas/good/research/r.md']) {
    try {
      chmodSync(join(root, rel), 0o755);
    } catch {
      // Not made by this test.
    }
  }
  cleanup();
});

/**
 * `sync --json` as a real process that permissions apply to. Root reads everything whatever the
 * mode, so when the tests run as root (as in CI containers) the CLI runs as root without the two
 * capabilities that override file modes (util-linux `setpriv`): mode 000 then stops it as it stops
 * anyone, while the checkout it runs from stays readable wherever it was cloned.
 */
function syncAsUser(): { code: number | null; report: { ideas: number; errors: unknown[] } | null; stderr: string } {
  const asRoot = process.getuid?.() === 0;
  const node = [process.execPath, ...nodeEntry(MAIN), 'sync', '--workspace', root, '--json'];
  const [command, ...args] = asRoot
    ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--', ...node]
    : node;
  const run = spawnSync(command as string, args, {
    cwd: join(import.meta.dirname, '..', '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.error) throw new Error(`cannot run the CLI without root's file-mode override: ${run.error.message}`);
  return { code: run.status, report: run.status === 0 ? JSON.parse(run.stdout) : null, stderr: run.stderr };
}

describe('nothing the app cannot read drops out unsaid', { timeout: 120_000 }, () => {
  it('a README replaced by a folder is reported by path (first sync and reconcile)', () => {
    writeFile(root, 'ideas/hollow/README.md/inner.md', '# Inside a folder named README.md\n');
    const first = cliJson<{ ideas: number; errors: unknown[] }>(['sync', '--workspace', root]);
    writeFile(root, 'ideas/later/README.md', readme('Later'));
    cliJson(['sync', '--workspace', root]);
    rmSync(join(root, 'ideas/later/README.md'));
    mkdirSync(join(root, 'ideas/later/README.md'));
    const again = cliJson<{ ideas: number; errors: unknown[] }>(['sync', '--workspace', root]);
    expect({ first: [first.ideas, first.errors], again: [again.ideas, again.errors] }).toEqual({
      first: [1, [{ file: 'ideas/hollow/README.md', reason: 'is a folder, expected a file' }]],
      again: [
        1,
        [
          { file: 'ideas/hollow/README.md', reason: 'is a folder, expected a file' },
          { file: 'ideas/later/README.md', reason: 'is a folder, expected a file' },
        ],
      ],
    });
  });

  it('an unreadable idea folder, subfolder and file are each reported by path', () => {
    writeFile(root, 'ideas/locked/README.md', readme('Locked'));
    writeFile(root, 'ideas/good/notes/n.md', '# Note\n');
    writeFile(root, 'ideas/good/research/r.md', '# Research\n');
    chmodSync(join(root, 'ideas/locked'), 0o000);
    chmodSync(join(root, 'ideas/good/notes'), 0o000);
    chmodSync(join(root, 'ideas/good/research/r.md'), 0o000);
    const run = syncAsUser();
    expect(run).toEqual({
      code: 0,
      stderr: '',
      report: expect.objectContaining({
        ideas: 1,
        errors: [
          { file: 'ideas/good/notes', reason: DENIED },
          { file: 'ideas/good/research/r.md', reason: DENIED },
          { file: 'ideas/locked', reason: DENIED },
        ],
      }),
    });
  });
});
