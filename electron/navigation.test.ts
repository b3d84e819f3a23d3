import { describe, expect, it } from 'vitest';
import { decideNavigation, externalAddress, USER_ACTION_WINDOW_MS, UserActivity } from './navigation';
import { permissionAllowed, requestAllowed } from './session-policy';

const OWN = ['app://crucible'];
const DEV = ['app://crucible', 'http://localhost:5173'];

describe('leaving the page', () => {
  it('stays on our own pages, sends a link the user just clicked to the browser, and blocks the rest', () => {
    const decide = (url: string, userActed: boolean, newWindow = false) =>
      decideNavigation(url, { ownOrigins: OWN, userActed: () => userActed, newWindow });
    expect({
      own: decide('app://crucible/index.html#/library', false),
      clicked: decide('https://example.org/paper.pdf', true),
      scripted: decide('https://example.org/', false),
      file: decide('file:///etc/passwd', true),
      javascript: decide('javascript:alert(1)', true),
      credentials: decide('https://user:pw@example.org/', true),
      otherScheme: decide('smb://server/share', true),
      newWindowOwn: decide('app://crucible/index.html', true, true),
      newWindowLink: decide('http://example.org/', true, true),
      devServerWhenNotDev: decide('http://localhost:5173/', false),
      devServerInDev: decideNavigation('http://localhost:5173/', {
        ownOrigins: DEV,
        userActed: () => false,
        newWindow: false,
      }),
    }).toEqual({
      own: 'stay',
      clicked: 'external',
      scripted: 'block',
      file: 'block',
      javascript: 'block',
      credentials: 'block',
      otherScheme: 'block',
      newWindowOwn: 'block',
      newWindowLink: 'external',
      devServerWhenNotDev: 'block',
      devServerInDev: 'stay',
    });
    expect(externalAddress('HTTPS://Example.org/a b')).toBe('https://example.org/a%20b');
  });

  it('counts a click once, and only for a moment', () => {
    let now = 1000;
    const activity = new UserActivity(() => now);
    activity.note('mouseMove');
    expect(activity.consume()).toBe(false);
    activity.note('mouseDown');
    expect([activity.consume(), activity.consume()]).toEqual([true, false]);
    activity.note('keyDown');
    now += USER_ACTION_WINDOW_MS + 1;
    expect(activity.consume()).toBe(false);
  });
});

describe('the session', () => {
  it('lets the page reach only our own pages (and the dev server with its socket in development)', () => {
    const cases = {
      'app://crucible/assets/index.js': requestAllowed('app://crucible/assets/index.js', OWN),
      'data:image/png;base64,AAAA': requestAllowed('data:image/png;base64,AAAA', OWN),
      'https://fonts.example/font.woff2': requestAllowed('https://fonts.example/font.woff2', OWN),
      'file:///etc/hosts': requestAllowed('file:///etc/hosts', OWN),
      'http://localhost:5173/src/main.tsx': requestAllowed('http://localhost:5173/src/main.tsx', OWN),
      'dev: http://localhost:5173/src/main.tsx': requestAllowed('http://localhost:5173/src/main.tsx', DEV),
      'dev: ws://localhost:5173/': requestAllowed('ws://localhost:5173/', DEV),
      'dev: ws://localhost:9999/': requestAllowed('ws://localhost:9999/', DEV),
    };
    expect(cases).toEqual({
      'app://crucible/assets/index.js': true,
      'data:image/png;base64,AAAA': true,
      'https://fonts.example/font.woff2': false,
      'file:///etc/hosts': false,
      'http://localhost:5173/src/main.tsx': false,
      'dev: http://localhost:5173/src/main.tsx': true,
      'dev: ws://localhost:5173/': true,
      'dev: ws://localhost:9999/': false,
    });
  });

  it('grants no permission but writing to the clipboard, and that only to our page', () => {
    expect([
      permissionAllowed('clipboard-sanitized-write', 'app://crucible/index.html', OWN),
      permissionAllowed('clipboard-sanitized-write', 'https://evil.example/', OWN),
      permissionAllowed('media', 'app://crucible/index.html', OWN),
      permissionAllowed('notifications', 'app://crucible', OWN),
      permissionAllowed('clipboard-read', 'app://crucible', OWN),
    ]).toEqual([true, false, false, false, false]);
  });
});
