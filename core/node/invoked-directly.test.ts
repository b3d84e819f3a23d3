import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { invokedDirectly } from './invoked-directly';

describe('invokedDirectly', () => {
  it('is true only for the script the process was started with, through a link too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crucible-entry-'));
    try {
      const script = join(dir, 'main.ts');
      writeFileSync(script, '');
      symlinkSync(script, join(dir, 'linked.ts'));
      const url = pathToFileURL(script).href;
      const cases = {
        same: invokedDirectly(url, ['node', script]),
        linked: invokedDirectly(url, ['node', join(dir, 'linked.ts')]),
        other: invokedDirectly(pathToFileURL(join(dir, 'other.ts')).href, ['node', script]),
        noScript: invokedDirectly(url, ['node']),
        thisTest: invokedDirectly(import.meta.url),
      };
      expect(cases).toEqual({ same: true, linked: true, other: false, noScript: false, thisTest: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
