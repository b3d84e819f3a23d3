import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import electronViteConfig, { MAIN_SUBSTITUTES } from '../../electron.vite.config';
import { importsOf } from '../../scripts/layers';

/**
 * A packaged app contains package.json `dependencies` and nothing else from node_modules, so every
 * package the desktop main process can load must be one of them — a development dependency works
 * in `npm run dev` and fails only in the packaged app (as the PDF export once did through
 * playwright-core). Checked without building: the import graph of electron/main.ts as the main build
 * sees it (with the stand-ins of MAIN_SUBSTITUTES), and the packages the build is told to leave
 * external.
 */
const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const dependencies = new Set(Object.keys(pkg.dependencies));
const builtins = new Set(builtinModules);
/** Provided by the Electron runtime itself. */
const RUNTIME = new Set(['electron']);

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

function resolveSource(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, resolve(base, 'index.ts')]) {
    if (existsSync(candidate) && /\.(ts|tsx|js|mjs|cjs|json)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Type-only imports (`import type …`, `export type …`) are erased and load nothing. */
function typeOnly(source: string, line: number): boolean {
  return /^\s*(import|export)\s+type\s/.test(source.split('\n')[line - 1] ?? '');
}

/** Every package the main bundle can load at run time, with one file that imports it. */
function packagesOfMain(): { packages: Map<string, string>; files: Set<string>; unresolved: string[] } {
  const substitutes = new Map(
    Object.entries(MAIN_SUBSTITUTES).map(([from, to]) => [resolve(root, from), resolve(root, to)]),
  );
  const packages = new Map<string, string>();
  const files = new Set<string>();
  const unresolved: string[] = [];
  const pending = [resolve(root, 'electron/main.ts')];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    const source = readFileSync(file, 'utf8');
    for (const { specifier, line } of importsOf(source)) {
      if (typeOnly(source, line)) continue;
      if (specifier.startsWith('.')) {
        const target = resolveSource(file, specifier);
        if (!target) unresolved.push(`${relative(root, file)}:${line} ${specifier}`);
        else pending.push(substitutes.get(target) ?? target);
      } else if (!specifier.startsWith('node:') && !builtins.has(specifier)) {
        const name = packageOf(specifier);
        if (!packages.has(name)) packages.set(name, `${relative(root, file)}:${line}`);
      }
    }
  }
  return { packages, files, unresolved };
}

describe('the desktop main process', () => {
  it('loads only packages a packaged app contains (package.json dependencies, and electron)', () => {
    const { packages, files, unresolved } = packagesOfMain();
    const missing = [...packages].filter(([name]) => !dependencies.has(name) && !RUNTIME.has(name));
    expect({ missing: missing.map(([name, where]) => `${name} (imported at ${where})`), unresolved }).toEqual({
      missing: [],
      unresolved: [],
    });
    // The walk did reach the app and its model SDK; the printer it leaves out is really left out.
    expect([
      files.has(resolve(root, 'core/node/app/create-app.ts')),
      packages.has('@anthropic-ai/sdk'),
      files.has(resolve(root, 'core/node/export/chromium.ts')),
    ]).toEqual([true, true, false]);
  });

  it('is built leaving external only packages of package.json dependencies', () => {
    const config = (electronViteConfig as unknown as () => { main: { build: { externalizeDeps?: unknown } } })();
    const externalize = config.main.build.externalizeDeps;
    const included =
      typeof externalize === 'object' && externalize !== null
        ? ((externalize as { include?: string[] }).include ?? [])
        : [];
    expect([externalize === false, included.filter((name) => !dependencies.has(name))]).toEqual([false, []]);
  });
});
