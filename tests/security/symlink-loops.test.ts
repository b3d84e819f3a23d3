import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeEntry } from '../helpers/node-entry';
import { cli, cliJson } from '../helpers/run-cli';
import { eventually, readme, sleep, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 3: a link loop under ideas/ ended `watch` and browser mode with an uncaught ELOOP,
// two loops made the watcher's memory climb without end, and a README linked to itself made every
// reconciling command exit 3. Links are never followed now, and each loop is reported by path.

const LINK = 'is a symbolic link; Crucible does not follow links (put the file or folder itself here)';
const REPO = join(import.meta.dirname, '..', '..');

let root: string;
let cleanup: () => void;
const children: ChildProcessWithoutNullStreams[] = [];
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-loops-'));
  writeFile(root, 'ideas/good/README.md', readme('Good'));
  writeFile(root, 'ideas/loop/README.md', readme('Loop'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  cleanup();
});

/** A long-running app process (`watch`, `web`) with its output collected. */
function start(script: string, args: string[]) {
  const child = spawn(process.execPath, [...nodeEntry(join(REPO, script)), ...args], { cwd: REPO });
  children.push(child);
  const out = { stdout: '', stderr: '', exit: null as number | null | 'running' };
  out.exit = 'running';
  child.stdout.on('data', (chunk: Buffer) => {
    out.stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  child.on('exit', (code) => {
    out.exit = code;
  });
  return { child, out };
}

/** Resident memory of a process in MB (Linux); null where /proc is not there. */
function rssMb(pid: number): number | null {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : null;
  } catch {
    return null;
  }
}

describe('symbolic link loops neither crash nor exhaust', { timeout: 120_000 }, () => {
  it('watch (a real process) survives loops, stays bounded and keeps indexing', async () => {
    cliJson(['sync', '--workspace', root]);
    const { child, out } = start('core/node/cli/main.ts', ['watch', '--workspace', root]);
    await eventually(() => out.stdout.includes('Watching'), 'the watch to start', 30_000);
    symlinkSync('.', join(root, 'ideas/loop/self'));
    await sleep(1500);
    symlinkSync('..', join(root, 'ideas/loop/up'));
    symlinkSync('.', join(root, 'ideas/good/again'));
    await sleep(1500);
    const before = rssMb(child.pid as number);
    writeFile(root, 'ideas/later/README.md', readme('Later'));
    await eventually(() => out.stdout.includes('+later'), 'the watch to index an idea added after the loops', 20_000);
    await sleep(2000);
    const after = rssMb(child.pid as number);
    expect({ exit: out.exit, stderr: out.stderr }).toEqual({ exit: 'running', stderr: '' });
    // A watch that followed the loops grew by ~18 MB a second; a bounded one stays put.
    if (before !== null && after !== null) expect(after - before).toBeLessThan(40);
    const report = cliJson<{ ideas: number; errors: unknown[] }>(['sync', '--workspace', root]);
    expect({ ideas: report.ideas, errors: report.errors }).toEqual({
      ideas: 3,
      errors: [
        { file: 'ideas/good/again', reason: LINK },
        { file: 'ideas/loop/self', reason: LINK },
        { file: 'ideas/loop/up', reason: LINK },
      ],
    });
  });

  it('browser mode (a real process) keeps serving after a loop appears', async () => {
    cliJson(['sync', '--workspace', root]);
    const { out } = start('core/node/web/main.ts', ['--workspace', root, '--port', '0', '--static', REPO]);
    const url = new URL(
      await eventually(
        () => /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})$/m.exec(out.stdout)?.[1],
        'the address',
        30_000,
      ),
    );
    symlinkSync('.', join(root, 'ideas/loop/self'));
    writeFile(root, 'ideas/loop/notes/n.md', '# A note\n');
    await sleep(2000);
    const listed = await fetch(new URL('/rpc/ideas:list', url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${url.searchParams.get('token')}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect({ exit: out.exit, status: listed.status, internal: /internal error/.test(out.stderr) }).toEqual({
      exit: 'running',
      status: 200,
      internal: false,
    });
  });

  it('a README linked to itself and two notes linked to each other: reconciling commands report them', () => {
    cliJson(['sync', '--workspace', root]);
    writeFile(root, 'ideas/loop/notes/.keep', '');
    symlinkSync('b.md', join(root, 'ideas/loop/notes/a.md'));
    symlinkSync('a.md', join(root, 'ideas/loop/notes/b.md'));
    // The README becomes a link to itself.
    rmSync(join(root, 'ideas/good/README.md'));
    symlinkSync('README.md', join(root, 'ideas/good/README.md'));
    const expected = [
      { file: 'ideas/good/README.md', reason: LINK },
      { file: 'ideas/loop/notes/a.md', reason: LINK },
      { file: 'ideas/loop/notes/b.md', reason: LINK },
    ];
    const sync = cli(['sync', '--workspace', root, '--json']);
    expect({ code: sync.code, stderr: sync.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(sync.stdout).errors).toEqual(expected);
    const list = cli(['list', '--workspace', root, '--json']);
    expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
