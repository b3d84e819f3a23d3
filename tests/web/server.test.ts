import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushEvent } from '../../core/contract';
import { appRoot } from '../../core/node/app-root';
import { type App, createApp } from '../../core/node/app/create-app';
import { startWebServer, type WebServer } from '../../core/node/web/server';
import { nodeEntry } from '../helpers/node-entry';
import { readme, tempWorkspace } from '../helpers/temp-workspace';
import { openEventStream, raw } from './http';

const IDEA = 'community-solar-coop';
const AGENTS = ['optimist-engineer', 'skeptical-economist', 'regulator', 'investor', 'field-researcher'];

let root: string;
let cleanup: () => void;
let app: App;
let server: WebServer;
const bugs: Error[] = [];
const closers: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  ({ root, cleanup } = tempWorkspace('crucible-web-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  app = await createApp({ workspaceRoot: root, onContractBug: (e) => bugs.push(e) });
  server = await startWebServer({ app });
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await server.close();
  await app.close();
  cleanup();
  expect(bugs.splice(0)).toEqual([]);
});

const base = () => `http://127.0.0.1:${server.port}`;

function rpc(channel: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base()}/rpc/${channel}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function answer(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: await response.json() };
}

describe('browser mode', () => {
  it('prints an address with a random 32-byte token and listens on 127.0.0.1 only', async () => {
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.host).toBe('127.0.0.1');
    const other = await startWebServer({ app });
    closers.push(() => other.close());
    expect(other.token).not.toBe(server.token);

    const reachable = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: server.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    expect(await reachable('127.0.0.1')).toBe(true);
    const elsewhere = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal)
      .map((i) => i?.address as string);
    for (const address of [...elsewhere, '::1']) expect(await reachable(address)).toBe(false);
  });

  it('answers a channel called with the token', async () => {
    const response = await rpc('ideas:list', {});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { ok: boolean; value: { ideas: { slug: string }[] } };
    expect(body.ok).toBe(true);
    expect(body.value.ideas.map((i) => i.slug)).toEqual([IDEA]);
    // From the page's own origin, by either name.
    for (const origin of [base(), `http://localhost:${server.port}`]) {
      expect((await rpc('taxonomy:get', {}, { Origin: origin })).status).toBe(200);
    }
    const viaLocalhost = await raw(server.port, {
      method: 'POST',
      path: '/rpc/ideas:get',
      headers: {
        Host: `localhost:${server.port}`,
        Authorization: `bearer ${server.token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ slug: IDEA }),
    });
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses a call without the token, with a wrong one, or with it in the address', async () => {
    const noToken = await fetch(`${base()}/rpc/ideas:list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(await answer(noToken)).toEqual({
      status: 401,
      body: { ok: false, error: { code: 'unauthorized', message: expect.any(String) } },
    });
    expect(noToken.headers.get('www-authenticate')).toBe('Bearer');
    const sameLength = server.token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    for (const wrong of [sameLength, 'short', `${server.token}0`]) {
      expect((await rpc('ideas:list', {}, { Authorization: `Bearer ${wrong}` })).status).toBe(401);
    }
    const inAddress = await fetch(`${base()}/rpc/ideas:list?token=${server.token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(inAddress.status).toBe(401);
    // Even an unknown channel says nothing until the token is right.
    expect((await fetch(`${base()}/rpc/nope`, { method: 'POST' })).status).toBe(401);
  });

  it('refuses a foreign Origin, and requests a browser marks as coming from another site', async () => {
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${server.port + 1}`,
      'null',
      `https://localhost:${server.port}`,
    ]) {
      const response = await rpc('ideas:list', {}, { Origin: origin });
      expect(await answer(response)).toMatchObject({ status: 403, body: { ok: false, error: { code: 'forbidden' } } });
    }
    const crossSite = await raw(server.port, {
      method: 'POST',
      path: '/rpc/ideas:list',
      headers: {
        Host: `127.0.0.1:${server.port}`,
        Authorization: `Bearer ${server.token}`,
        'Content-Type': 'application/json',
        'Sec-Fetch-Site': 'same-site',
      },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    const page = await raw(server.port, {
      headers: { Host: `127.0.0.1:${server.port}`, Origin: 'http://evil.example' },
    });
    expect(page.status).toBe(403);
    // A link to the page from elsewhere still opens it: the page holds no data.
    const linked = await raw(server.port, {
      headers: { Host: `127.0.0.1:${server.port}`, 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(linked.status).toBe(200);
  });

  it('refuses a Host header that does not name this server (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
      `0.0.0.0:${server.port}`,
    ]) {
      const response = await raw(server.port, {
        method: 'POST',
        path: '/rpc/ideas:list',
        headers: { Host: host, Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(421);
      expect(response.json).toMatchObject({ ok: false, error: { code: 'bad_host' } });
    }
    const page = await raw(server.port, { headers: { Host: `attacker.example:${server.port}` } });
    expect(page.status).toBe(421);
    // No Host at all: node's own parser refuses the request before it reaches the server.
    const none = await raw(server.port, {
      path: '/rpc/ideas:list',
      headers: { Host: '', Authorization: `Bearer ${server.token}` },
    });
    expect(none.status).toBe(400);
  });

  it('answers an unknown channel 404, bad input 400 naming the field, a user error 422', async () => {
    expect(await answer(await rpc('ideas:delete', {}))).toEqual({
      status: 404,
      body: { ok: false, error: { code: 'unknown_channel', message: 'there is no channel "ideas:delete"' } },
    });
    expect(await answer(await rpc('ideas:capture', { title: '' }))).toEqual({
      status: 400,
      body: { ok: false, error: { code: 'bad_input', field: 'title', message: 'title: an idea needs a title' } },
    });
    expect(
      await answer(await rpc('debates:start', { topic: 'x', agents: ['a', 'b'], provider: 'telepathy' })),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_input', field: 'provider' } },
    });
    expect(await answer(await rpc('ideas:list', '{"stage":'))).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_input', message: 'the body is not valid JSON' } },
    });
    expect(await answer(await rpc('ideas:get', { slug: 'nope' }))).toEqual({
      status: 422,
      body: { ok: false, error: { code: 'user_error', message: 'no idea "nope" (see: npm run cli -- list)' } },
    });
  });

  it('takes only POST with a JSON body, under the size limit, on /rpc', async () => {
    expect(
      (await fetch(`${base()}/rpc/ideas:list`, { headers: { Authorization: `Bearer ${server.token}` } })).status,
    ).toBe(405);
    // A form on another page could send text/plain without asking first; JSON it cannot.
    const form = await rpc('ideas:list', '{}', { 'Content-Type': 'text/plain' });
    expect(await answer(form)).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } });
    expect((await rpc('ideas:list', '{}', { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(200);

    const small = await startWebServer({ app, maxBodyBytes: 1024 });
    closers.push(() => small.close());
    const big = await fetch(`http://127.0.0.1:${small.port}/rpc/ideas:capture`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${small.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Big', text: 'x'.repeat(4096) }),
    });
    expect(await answer(big)).toMatchObject({ status: 413, body: { error: { code: 'too_large' } } });
  });

  it('serves uploads but not the channels that name files on this computer', async () => {
    const byPath = await rpc('ideas:captureFile', { path: '/etc/hostname' });
    expect(await answer(byPath)).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    expect((await rpc('ideas:attach', { slug: IDEA, path: '/etc/hostname' })).status).toBe(403);
    const upload = await rpc('ideas:captureUpload', {
      name: 'pocket-park.md',
      contentBase64: Buffer.from('# Pocket park\n\nA bench and trees.\n').toString('base64'),
    });
    expect(await answer(upload)).toMatchObject({ status: 200, body: { ok: true, value: { slug: 'pocket-park' } } });
  });

  it('answers a bug as 500 without its details', async () => {
    const broken = await startWebServer({
      app: {
        root,
        events: app.events,
        invoke: () => Promise.reject(new Error('SQLITE_CORRUPT in /home/someone/private/index.db')),
      },
    });
    closers.push(() => broken.close());
    const response = await fetch(`http://127.0.0.1:${broken.port}/rpc/ideas:list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${broken.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { status, body } = await answer(response);
    expect(status).toBe(500);
    expect(body).toEqual({ ok: false, error: { code: 'internal', message: expect.stringMatching(/^internal error/) } });
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|private|at /);
  });
});

describe('the event stream', () => {
  it('needs the token, in the address or as a header', async () => {
    const none = await openEventStream(server.port, '/events');
    closers.push(() => none.close());
    expect(none.status).toBe(401);
    const wrong = await openEventStream(server.port, `/events?token=${'0'.repeat(64)}`);
    closers.push(() => wrong.close());
    expect(wrong.status).toBe(401);
    const header = await openEventStream(server.port, '/events', { Authorization: `Bearer ${server.token}` });
    closers.push(() => header.close());
    expect(header.status).toBe(200);
    const foreign = await openEventStream(server.port, `/events?token=${server.token}`, {
      Origin: 'http://evil.example',
    });
    closers.push(() => foreign.close());
    expect(foreign.status).toBe(403);
  });

  it('pushes sync:changed when another program writes an idea into the folder', async () => {
    const stream = await openEventStream(server.port, `/events?token=${server.token}`);
    closers.push(() => stream.close());
    expect(stream.status).toBe(200);
    mkdirSync(join(root, 'ideas', 'written-by-an-editor'));
    writeFileSync(join(root, 'ideas', 'written-by-an-editor', 'README.md'), readme('Written by an editor'));
    const pushed = await stream.next(
      (e) =>
        e.event === 'sync:changed' &&
        (e.data as { slugs: { added: string[] } }).slugs.added.includes('written-by-an-editor'),
      'the sync of the new idea',
    );
    expect(pushed.data).toMatchObject({ ideas: 2, added: 1 });
  });

  it('pushes a simulated debate started over /rpc: its events, then its end', async () => {
    const stream = await openEventStream(server.port, `/events?token=${server.token}`);
    closers.push(() => stream.close());
    const started = await answer(
      await rpc('debates:start', { ideaSlug: IDEA, agents: AGENTS, provider: 'simulated', seed: 3 }),
    );
    expect(started).toMatchObject({ status: 200, body: { ok: true, value: { id: expect.any(String) } } });
    const id = (started.body as { value: { id: string } }).value.id;
    const end = await stream.next(
      (e) => e.event === 'run:status' && (e.data as { status: string }).status !== 'running',
      'the end of the debate',
      20_000,
    );
    expect(end.data).toMatchObject({ id, protocol: 'crux', status: 'completed', reason: null, live: false });
    const batches = stream.events
      .filter((e) => e.event === 'debate:event')
      .map((e) => e.data as Extract<PushEvent, { event: 'debate:event' }>['payload']);
    expect(batches.length).toBeGreaterThan(10);
    expect(batches.every((b) => b.debateId === id)).toBe(true);
    const posted = batches.flatMap((b) => b.events).filter((e) => e.type === 'message_posted');
    expect(posted.length).toBeGreaterThan(10);
    const total = batches.reduce((n, b) => n + b.events.length, 0);
    const fromLog = await answer(await rpc('debates:events', { id, from: batches[0]?.from }));
    expect((fromLog.body as { value: { events: unknown[] } }).value.events).toHaveLength(total);
  });
});

describe('the page', () => {
  it('says honestly that the renderer is not built when there is none', async () => {
    const page = await fetch(`${base()}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('its user interface is not built yet');
    expect((await fetch(`${base()}/assets/app.js`)).status).toBe(404);
  });

  it('serves the built renderer from its folder and nothing outside it', async () => {
    // The built files sit in <tmp>/dist; a secret sits beside that folder, where .. would lead.
    const { root: outer, cleanup: removeOuter } = tempWorkspace('crucible-dist-');
    closers.push(removeOuter);
    const dist = join(outer, 'dist');
    mkdirSync(dist);
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>Crucible</title><script type="module" src="/assets/app.js"></script>',
    );
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("hi")');
    writeFileSync(join(dist, '..', 'secret.txt'), 'do not serve');
    const site = await startWebServer({ app, staticDir: dist });
    closers.push(() => site.close());
    const get = (path: string) => raw(site.port, { path, headers: { Host: `127.0.0.1:${site.port}` } });
    const index = await get(`/?token=${site.token}`);
    expect(index.status).toBe(200);
    expect(index.text).toContain('<title>Crucible</title>');
    expect(index.headers['cache-control']).toBe('no-store');
    const script = await get('/assets/app.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get('/library/some-idea')).text).toContain('<title>Crucible</title>');
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/missing.js']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain('do not serve');
    }
    expect((await raw(site.port, { method: 'DELETE', headers: { Host: `127.0.0.1:${site.port}` } })).status).toBe(405);
  });
});

describe('npm run web', () => {
  it('prints the address, serves it, and stops cleanly on SIGTERM and on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn(
        process.execPath,
        [...nodeEntry(join(appRoot(), 'core/node/web/main.ts')), '--workspace', root, '--port', '0'],
        {
          cwd: appRoot(),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const url = await new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed; stderr: ${stderr}`)), 20_000);
        const look = () => {
          const line = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})$/m.exec(stdout);
          if (!line?.[1]) return;
          clearTimeout(timer);
          resolve(new URL(line[1]));
        };
        child.stdout.on('data', look);
      });
      const token = url.searchParams.get('token') as string;
      const listed = await fetch(new URL('/rpc/ideas:list', url), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(listed.status).toBe(200);
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(stderr).toContain('Stopping');
      expect(stderr).not.toMatch(/error/i);
    }
  });

  it('refuses a folder that is not a workspace with one line and exit code 1', async () => {
    const child = spawn(
      process.execPath,
      [...nodeEntry(join(appRoot(), 'core/node/web/main.ts')), '--workspace', join(root, 'nope')],
      {
        cwd: appRoot(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^error: no workspace at .*nope/);
  });
});
