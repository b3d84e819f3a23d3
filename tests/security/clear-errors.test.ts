import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../core/node/app/create-app';
import { startWebServer } from '../../core/node/web/server';
import { cli, cliJson } from '../helpers/run-cli';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// Issue 16, item 9: inputs that ended in exit 3 (a bug report) or HTTP 500 where a clear error, or
// simply doing the thing, belongs.

let root: string;
let cleanup: () => void;
let drop: { root: string; cleanup: () => void };
const apps: App[] = [];
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-clear-'));
  drop = tempWorkspace('crucible-drop-');
  writeFile(root, 'ideas/alpha/README.md', readme('Alpha'));
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  cleanup();
  drop.cleanup();
});

/** A name of `length` characters ending in `.pdf`. */
const longName = (length: number, letter: string) => `${letter.repeat(length - 4)}.pdf`;
const oneLine = (text: string) => text.trim().split('\n').length === 1;

describe('clear errors instead of crashes', { timeout: 300_000 }, () => {
  it('names of 229 to 255 characters are stored shortened, extension kept: attach, capture --file, attachUpload', async () => {
    const lengths = [229, 240, 255];
    const stored: string[] = [];
    for (const [i, length] of lengths.entries()) {
      const attached = join(drop.root, longName(length, 'a'));
      writeFileSync(attached, `attached ${i}`);
      stored.push(cliJson<{ path: string }>(['attach', 'alpha', attached, '--workspace', root]).path);
      const captured = join(drop.root, longName(length, 'c'));
      writeFileSync(captured, `captured ${i}`);
      const slug = cliJson<{ slug: string }>(['capture', '--file', captured, '--workspace', root]).slug;
      stored.push(...readdirSync(join(root, 'ideas', slug, 'assets')).map((n) => `ideas/${slug}/assets/${n}`));
    }
    // Browser mode: the upload arrives over HTTP and must not be a 500.
    const app = await createApp({ workspaceRoot: root, watch: false });
    apps.push(app);
    const server = await startWebServer({ app });
    try {
      for (const length of lengths) {
        const response = await fetch(`http://127.0.0.1:${server.port}/rpc/ideas:attachUpload`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            slug: 'alpha',
            name: longName(length, 'u'),
            contentBase64: Buffer.from('up').toString('base64'),
          }),
        });
        const body = (await response.json()) as { ok: boolean; value?: { path: string } };
        expect({ status: response.status, ok: body.ok }).toEqual({ status: 200, ok: true });
        stored.push(body.value?.path as string);
      }
    } finally {
      await server.close();
    }
    const names = stored.map((path) => path.split('/').pop() as string);
    expect(
      names.map((name) => ({
        fits: Buffer.byteLength(name) <= 200,
        pdf: name.endsWith('.pdf'),
        onDisk: existsSync(join(root, stored[names.indexOf(name)] as string)),
      })),
    ).toEqual(names.map(() => ({ fits: true, pdf: true, onDisk: true })));
    expect(new Set(stored).size).toBe(9);
  });

  it('capture --file of a 1 GB .md is refused before it is read, naming the file and the limit', () => {
    const huge = join(drop.root, 'huge.md');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 1024 * 1024 * 1024); // sparse: instant, and takes no disk
    closeSync(fd);
    const run = cli(['capture', '--file', huge, '--workspace', root]);
    const ideas = readdirSync(join(root, 'ideas')).filter((name) => name !== '_index.md');
    expect({ code: run.code, oneLine: oneLine(run.stderr), ideas }).toEqual({
      code: 1,
      oneLine: true,
      ideas: ['alpha'],
    });
    expect(run.stderr).toContain(`${huge} is 1024 MiB`);
    expect(run.stderr).toContain('at most 2 MiB');
  });

  it('a garbage line in the middle of a debate log: show and resume name the file and line, sync lists it', async () => {
    const started = cliJson<{ id: string; log: string }>([
      'debate',
      '--workspace',
      root,
      '--idea',
      'alpha',
      '--agents',
      'optimist-engineer,skeptical-economist',
      '--max-messages',
      '4',
    ]);
    const log = join(root, started.log);
    const lines = readFileSync(log, 'utf8').split('\n');
    lines.splice(3, 0, 'this is not JSON');
    writeFileSync(log, lines.join('\n'));
    const where = `${started.log}, line 4: not valid JSON`;

    const show = cli(['debates', 'show', started.id, '--workspace', root]);
    const resume = cli(['resume', started.id, '--workspace', root]);
    const sync = cliJson<{ errors: { file: string; reason: string }[] }>(['sync', '--workspace', root]);
    const app = await createApp({ workspaceRoot: root, watch: false });
    apps.push(app);
    const viaApp = await app
      .invoke('debates:get', { id: started.id })
      .catch((e: { code: string; message: string }) => e);
    const listed = (await app.invoke('workspace:errors', {})) as { errors: { file: string; source: string }[] };
    expect({
      show: { code: show.code, oneLine: oneLine(show.stderr), names: show.stderr.includes(where) },
      resume: { code: resume.code, oneLine: oneLine(resume.stderr), names: resume.stderr.includes(where) },
      sync: sync.errors,
      app: { code: (viaApp as { code: string }).code, names: (viaApp as Error).message.includes(where) },
      errors: listed.errors,
    }).toEqual({
      show: { code: 1, oneLine: true, names: true },
      resume: { code: 1, oneLine: true, names: true },
      sync: [{ file: started.log, reason: 'line 4: not valid JSON' }],
      app: { code: 'user_error', names: true },
      errors: [{ file: started.log, reason: 'line 4: not valid JSON', source: 'debate' }],
    });
  });

  it('.crucible/index.db replaced by a folder: a clear error naming it, and the folder is left as it was', () => {
    mkdirSync(join(root, '.crucible', 'index.db'), { recursive: true });
    writeFileSync(join(root, '.crucible', 'index.db', 'keep.txt'), 'mine');
    const run = cli(['sync', '--workspace', root]);
    expect({
      code: run.code,
      oneLine: oneLine(run.stderr),
      names: run.stderr.includes(join(root, '.crucible', 'index.db')),
      kept: readFileSync(join(root, '.crucible', 'index.db', 'keep.txt'), 'utf8'),
    }).toEqual({ code: 1, oneLine: true, names: true, kept: 'mine' });
  });
});
