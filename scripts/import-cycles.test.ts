import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImportCycles, findCycles, runtimeImportsOf } from './import-cycles';

/** A throwaway project holding only the given files. */
function project(files: Record<string, string>): { root: string; done: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'crucible-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, done: () => rmSync(root, { recursive: true, force: true }) };
}

describe('run-time import cycles', () => {
  it('finds none in core/ as it is', () => {
    expect(checkImportCycles(process.cwd())).toEqual([]);
  });

  it('counts what loads a module and leaves out what the compiler erases', () => {
    const source = [
      "import type { A } from './type-only';",
      "import { type B } from './inline-type';",
      "import {\n  c,\n  d,\n} from './multi-line';",
      "import './side-effect';",
      "import * as all from './namespace';",
      "export type { E } from './type-re-export';",
      "export { f } from './re-export';",
      "export * from './star';",
      'export const g = \'import x from "./in-a-string"\';',
      "  // import { h } from './commented-out-indented';",
    ].join('\n');
    expect(runtimeImportsOf(source)).toEqual([
      './inline-type',
      './multi-line',
      './side-effect',
      './namespace',
      './re-export',
      './star',
    ]);
  });

  it('names each cycle as the path that closes it, and only the files in it', () => {
    const graph = new Map<string, string[]>([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
      ['f.ts', ['g.ts']],
      ['g.ts', ['f.ts', 'a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
      ['f.ts', 'g.ts', 'f.ts'],
    ]);
  });

  it('fails on a cycle planted in core/ and passes once one side imports only a type', () => {
    const files = {
      'core/x/one.ts': "import { two } from '../y/two';\nexport const one = 1 + two;\n",
      'core/y/two.ts': "import { three } from './three';\nexport const two = three;\n",
      'core/y/three.ts': "import { one } from '../x/one';\nexport const three = 3;\nexport const echo = () => one;\n",
      'core/y/index.ts': "export * from './two';\n",
    };
    const cyclic = project(files);
    const fixed = project({
      ...files,
      'core/y/three.ts': "import type { one } from '../x/one';\nexport const three = 3;\n",
    });
    try {
      expect(checkImportCycles(cyclic.root)).toEqual([
        ['core/x/one.ts', 'core/y/two.ts', 'core/y/three.ts', 'core/x/one.ts'],
      ]);
      expect(checkImportCycles(fixed.root)).toEqual([]);
    } finally {
      cyclic.done();
      fixed.done();
    }
  });
});
