import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../core/ports/log';
import { chooseWorkspace, readDesktopSettings, saveWorkspaceChoice } from './workspace-choice';

let home: string;
let settingsFile: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'crucible-home-'));
  settingsFile = join(home, 'userData', 'desktop-settings.json');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const choose = (env: NodeJS.ProcessEnv = {}) => chooseWorkspace({ settingsFile, env, home, log: silentLog });

describe('which workspace the desktop app opens', () => {
  it('on the first run creates ~/Crucible with the sample ideas and remembers it; the next run opens it as it is', () => {
    const first = choose();
    expect(first).toEqual({ root: join(home, 'Crucible'), source: 'default', created: true });
    const samples = readdirSync(join(home, 'Crucible', 'ideas')).filter(
      (n) => !n.startsWith('_') && !n.startsWith('.'),
    );
    expect(samples.length).toBeGreaterThan(0);
    expect(existsSync(join(home, 'Crucible', '.crucible', 'index.db'))).toBe(true);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ workspace: join(home, 'Crucible') });

    // The researcher's own edit survives the next start: nothing is copied again.
    writeFileSync(join(home, 'Crucible', 'ideas', samples[0] as string, 'README.md'), 'mine');
    expect(choose()).toEqual({ root: join(home, 'Crucible'), source: 'settings', created: false });
    expect(readFileSync(join(home, 'Crucible', 'ideas', samples[0] as string, 'README.md'), 'utf8')).toBe('mine');
  });

  it('prefers the remembered folder, then $CRUCIBLE_WORKSPACE, and never initialises those', () => {
    const env = { CRUCIBLE_WORKSPACE: join(home, 'from-env') };
    expect(choose(env)).toEqual({ root: join(home, 'from-env'), source: 'environment', created: false });
    saveWorkspaceChoice(settingsFile, join(home, 'picked'), silentLog);
    expect(choose(env)).toEqual({ root: join(home, 'picked'), source: 'settings', created: false });
    expect([
      existsSync(join(home, 'from-env')),
      existsSync(join(home, 'picked')),
      existsSync(join(home, 'Crucible')),
    ]).toEqual([false, false, false]);
  });

  it('opens an existing ~/Crucible workspace, even an empty one, without adding samples', () => {
    mkdirSync(join(home, 'Crucible', 'ideas'), { recursive: true });
    expect(choose()).toEqual({ root: join(home, 'Crucible'), source: 'default', created: false });
    expect(readdirSync(join(home, 'Crucible', 'ideas'))).toEqual([]);
  });

  it('ignores a damaged settings file, and keeps other settings when remembering a folder', () => {
    mkdirSync(join(home, 'userData'));
    writeFileSync(settingsFile, '{not json');
    expect(readDesktopSettings(settingsFile, silentLog)).toEqual({});
    writeFileSync(settingsFile, JSON.stringify({ workspace: 7, theme: 'dark' }));
    expect(readDesktopSettings(settingsFile, silentLog)).toEqual({});
    saveWorkspaceChoice(settingsFile, join(home, 'w'), silentLog);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ workspace: join(home, 'w'), theme: 'dark' });
  });
});
