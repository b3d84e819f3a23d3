import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAGE_POLICY } from '../core/node/web/page-policy';
import { StaticFiles } from '../core/node/web/static-files';
import { appResponse } from './app-protocol';

let dir: string;
let outside: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-ui-'));
  outside = mkdtempSync(join(tmpdir(), 'crucible-secret-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Crucible</title>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(outside, 'secret.txt'), 'not for the page');
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'assets', 'link.txt'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => appResponse({ url, method }, new StaticFiles(dir));

describe('the app:// scheme', () => {
  it('serves the built renderer with the page policy on every answer', async () => {
    const page = get('app://crucible/index.html');
    const script = get('app://crucible/assets/index-abc.js');
    const route = get('app://crucible/library');
    expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
      200,
      'text/html; charset=utf-8',
      '<!doctype html><title>Crucible</title>',
    ]);
    expect([script.status, script.headers.get('content-type'), route.status]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      200,
    ]);
    for (const answer of [page, script, route, get('app://crucible/nothing.js')]) {
      expect(answer.headers.get('content-security-policy')).toBe(PAGE_POLICY);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(PAGE_POLICY).toContain("script-src 'self';");
    expect(PAGE_POLICY).not.toMatch(/https?:|unsafe-eval/);
  });

  it('reads nothing outside the renderer folder, answers only its own host, and only GET', async () => {
    const secret = `/${outside.split('/').pop()}/secret.txt`;
    const body = async (answer: Response) => (answer.status === 200 ? await answer.text() : answer.status);
    expect({
      traversal: await body(get(`app://crucible/../..${secret}`)),
      encodedTraversal: await body(get(`app://crucible/%2e%2e/%2e%2e${secret}`)),
      encodedSlashes: await body(get(`app://crucible/..%2f..%2f${secret.slice(1).replace('/', '%2f')}`)),
      symlinkOut: await body(get('app://crucible/assets/link.txt')),
      otherHost: await body(get('app://elsewhere/index.html')),
      post: await body(get('app://crucible/index.html', 'POST')),
    }).toEqual({
      traversal: 404,
      encodedTraversal: 404,
      encodedSlashes: 404,
      symlinkOut: 404,
      otherHost: 404,
      post: 405,
    });
  });

  it('says how to build the interface when there is none', async () => {
    const answer = appResponse(
      { url: 'app://crucible/index.html', method: 'GET' },
      new StaticFiles(join(dir, 'missing')),
    );
    expect([answer.status, await answer.text()]).toEqual([503, expect.stringContaining('npm run build')]);
  });
});
