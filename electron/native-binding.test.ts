import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BINDING_FILE, findElectronBinding, NATIVE_DIR, STAMP_FILE } from './native-binding';

let appPath: string;
const versions = { electronVersion: '45.5.0', betterSqlite3Version: '12.6.2', platform: 'linux', arch: 'x64' };
const find = (packaged = false) =>
  findElectronBinding({ appPath, packaged, resourcesPath: join(appPath, 'res'), ...versions });

function build(dir: string, stamp: Record<string, string> | null): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, BINDING_FILE), 'ELF');
  if (stamp) writeFileSync(join(dir, STAMP_FILE), JSON.stringify(stamp));
}

beforeEach(() => {
  appPath = mkdtempSync(join(tmpdir(), 'crucible-native-'));
});
afterEach(() => rmSync(appPath, { recursive: true, force: true }));

describe('the Electron build of better-sqlite3', () => {
  const good = { electron: '45.5.0', betterSqlite3: '12.6.2', platform: 'linux', arch: 'x64' };

  it('is found in out/native from source, and beside the archive when packaged', () => {
    build(join(appPath, NATIVE_DIR), good);
    build(join(appPath, 'res', 'app.asar.unpacked', NATIVE_DIR), good);
    expect([find(false), find(true)]).toEqual([
      { path: join(appPath, NATIVE_DIR, BINDING_FILE) },
      { path: join(appPath, 'res', 'app.asar.unpacked', NATIVE_DIR, BINDING_FILE) },
    ]);
  });

  it('when missing, unstamped or built for another Electron, says so and what to run', () => {
    const missing = find();
    build(join(appPath, NATIVE_DIR), null);
    const unstamped = find();
    build(join(appPath, NATIVE_DIR), { ...good, electron: '44.0.0' });
    const stale = find();
    for (const outcome of [missing, unstamped, stale])
      expect(outcome).toMatchObject({ error: expect.stringContaining('npm run build:native') });
    expect('error' in stale && stale.error).toContain('built for electron 44.0.0, but this is 45.5.0');
  });
});
