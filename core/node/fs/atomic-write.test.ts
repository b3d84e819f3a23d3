import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { sha256 } from '../hasher';
import { conflictName, safeWrite } from './atomic-write';

let root: string;
let cleanup: () => void;
beforeEach(() => ({ root, cleanup } = tempWorkspace()));
afterEach(() => cleanup());

const NOW = new Date('2026-11-26T10:15:00.123Z');

describe('safeWrite', () => {
  it('creates a new file and leaves no temp file behind', () => {
    const outcome = safeWrite(root, 'ideas/a/README.md', 'hello\n', null, NOW);
    expect(outcome).toMatchObject({ path: 'ideas/a/README.md', conflict: false, hash: sha256('hello\n'), size: 6 });
    expect(readdirSync(join(root, 'ideas/a'))).toEqual(['README.md']);
  });

  it('replaces a file that still holds what the app read', () => {
    writeFileSync(join(root, 'ideas/x.md'), 'v1');
    const outcome = safeWrite(root, 'ideas/x.md', 'v2', sha256('v1'), NOW);
    expect([outcome.conflict, readFileSync(join(root, 'ideas/x.md'), 'utf8')]).toEqual([false, 'v2']);
  });

  it('keeps a file that changed since it was read and writes the app version beside it', () => {
    writeFileSync(join(root, 'ideas/x.md'), 'researcher edit');
    const first = safeWrite(root, 'ideas/x.md', 'app version', sha256('what the app read'), NOW);
    const second = safeWrite(root, 'ideas/x.md', 'app version 2', sha256('what the app read'), NOW);
    const created = safeWrite(root, 'ideas/x.md', 'app thinks it is new', null, NOW);
    expect([first, second, created].map((o) => [o.path, o.conflict, o.keptPath])).toEqual([
      ['ideas/x.conflict-20261126T101500Z.md', true, 'ideas/x.md'],
      ['ideas/x.conflict-20261126T101500Z-2.md', true, 'ideas/x.md'],
      ['ideas/x.conflict-20261126T101500Z-3.md', true, 'ideas/x.md'],
    ]);
    expect(readFileSync(join(root, 'ideas/x.md'), 'utf8')).toBe('researcher edit');
    expect(readFileSync(join(root, first.path), 'utf8')).toBe('app version');
  });

  it('leaves neither temp files nor the hard link of the swap behind, whatever the outcome', () => {
    writeFileSync(join(root, 'ideas/x.md'), 'v1');
    const outcomes = [
      safeWrite(root, 'ideas/x.md', 'v2', sha256('v1'), NOW),
      safeWrite(root, 'ideas/x.md', 'v3', sha256('v1'), NOW),
      safeWrite(root, 'ideas/x.md', 'v4', null, NOW),
      safeWrite(root, 'ideas/x.md', 'v5', 'any', NOW),
    ].map((o) => o.conflict);
    const files = readdirSync(join(root, 'ideas')).sort();
    expect({ outcomes, files, text: readFileSync(join(root, 'ideas/x.md'), 'utf8') }).toEqual({
      outcomes: [false, true, true, false],
      files: ['x.conflict-20261126T101500Z-2.md', 'x.conflict-20261126T101500Z.md', 'x.md'],
      text: 'v5',
    });
  });

  it('names conflict copies after the original, keeping its extension', () => {
    expect(conflictName('/w/ideas/a/notes/plan.txt', NOW)).toBe('/w/ideas/a/notes/plan.conflict-20261126T101500Z.txt');
  });
});
