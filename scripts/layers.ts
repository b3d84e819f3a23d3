import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layer rules of docs/architecture.md, checked on the import statements of every source file.
 * Type checking catches a stray `fs` in core through its tsconfig; this catches the rest (a package
 * such as better-sqlite3 in core, core/node from the renderer, electron outside its shell).
 */
export interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

type Layer = 'core' | 'ports' | 'node' | 'electron' | 'renderer' | 'other';

function layerOf(file: string): Layer {
  if (file.startsWith('core/ports/')) return 'ports';
  if (file.startsWith('core/node/')) return 'node';
  if (file.startsWith('core/')) return 'core';
  if (file.startsWith('electron/')) return 'electron';
  if (file.startsWith('renderer/')) return 'renderer';
  return 'other';
}

const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?[\w*{}\s,]+\s+from\s+['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
];

export function importsOf(source: string): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number; index: number }[] = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      const index = match.index ?? 0;
      found.push({ specifier: match[1] as string, index, line: source.slice(0, index).split('\n').length });
    }
  }
  return found.sort((a, b) => a.index - b.index).map(({ specifier, line }) => ({ specifier, line }));
}

const CORE_PACKAGES = new Set(['zod']);
const TEST_PACKAGES = new Set(['vitest']);
const RENDERER_FORBIDDEN = /^(node:|electron$|better-sqlite3$|chokidar$|gray-matter$|@anthropic-ai\/)/;

/** Why `specifier` may not be imported from `file` (workspace-relative), or null when it may. */
export function ruleFor(file: string, specifier: string): string | null {
  const layer = layerOf(file);
  const isTest = /\.test\.tsx?$/.test(file);
  const relativeImport = specifier.startsWith('.');
  const target = relativeImport ? relative('.', join(dirname(file), specifier)).split(sep).join('/') : null;
  const targetLayer = target ? layerOf(`${target}/`.startsWith('core/node/') ? `${target}/` : target) : null;

  switch (layer) {
    case 'core':
    case 'ports': {
      if (relativeImport) {
        if (!target?.startsWith('core/')) return `${layer === 'ports' ? 'core/ports' : 'core'} may only import from core/`;
        if (targetLayer === 'node') return 'core may not import its Node adapters (core/node)';
        return null;
      }
      if (CORE_PACKAGES.has(specifier) || (isTest && TEST_PACKAGES.has(specifier))) return null;
      return `core is pure TypeScript: "${specifier}" is not allowed there (only zod; Node and packages belong in core/node)`;
    }
    case 'node':
      if (specifier === 'electron') return 'core/node runs in plain Node too: electron belongs in electron/';
      if (target?.startsWith('renderer/') || target?.startsWith('electron/')) return 'core/node may not import the UI or the shell';
      return null;
    case 'electron':
      if (target?.startsWith('renderer/')) return 'the shell talks to the renderer through the contract only';
      return null;
    case 'renderer':
      if (relativeImport) {
        if (target?.startsWith('renderer/')) return null;
        if (target === 'core/contract' || target?.startsWith('core/contract')) return null;
        return 'the renderer may import only core/contract from outside renderer/';
      }
      if (RENDERER_FORBIDDEN.test(specifier)) return `the renderer runs in a sandboxed page: "${specifier}" is not available there`;
      return null;
    default:
      return null;
  }
}

function sourceFiles(root: string, dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(join(root, dir));
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const rel = dir === '' ? name : `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) sourceFiles(root, rel, out);
    else if (/\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
}

export function checkLayers(root: string): Violation[] {
  const files: string[] = [];
  for (const top of ['core', 'electron', 'renderer']) sourceFiles(resolve(root), top, files);
  const violations: Violation[] = [];
  for (const file of files.sort()) {
    const source = readFileSync(join(root, file), 'utf8');
    for (const { specifier, line } of importsOf(source)) {
      const rule = ruleFor(file, specifier);
      if (rule) violations.push({ file, line, specifier, rule });
    }
  }
  return violations;
}

/** A statement being prepared, or a string that starts as SQL does. */
const SQL_PATTERNS = [
  /\.prepare\(/,
  /\.pragma\(/,
  /[`'"]\s*(?:SELECT\s[\s\S]{0,500}?\bFROM\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\s|REPLACE\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|(?:CREATE|DROP|ALTER)\s+(?:TABLE|INDEX|UNIQUE\s+INDEX|VIRTUAL\s+TABLE|TRIGGER|VIEW)\s|PRAGMA\s+\w|WITH\s+(?:RECURSIVE\s+)?\w+\s+AS\s*\()/,
];

/** The source with its comment lines blanked (line numbers kept): a comment may name SQL freely. */
function withoutCommentLines(source: string): string {
  return source
    .split('\n')
    .map((line) => (/^\s*(\/\/|\/\*|\*)/.test(line) ? '' : line))
    .join('\n');
}

/**
 * Where `source` (workspace-relative `file`) holds SQL it may not: the first place per pattern. SQL
 * lives in core/node/sqlite only, in named query modules (plain functions over a database handle);
 * everything else in core/node asks them, with no file excepted.
 */
export function sqlOutsideItsLayer(file: string, source: string): Violation[] {
  if (!file.startsWith('core/node/') || file.startsWith('core/node/sqlite/')) return [];
  const code = withoutCommentLines(source);
  const found: Violation[] = [];
  for (const pattern of SQL_PATTERNS) {
    const match = pattern.exec(code);
    if (!match) continue;
    found.push({
      file,
      line: code.slice(0, match.index).split('\n').length,
      specifier: match[0].split('\n')[0]?.slice(0, 40) ?? '',
      rule: 'SQL belongs in core/node/sqlite: ask a named query module there',
    });
  }
  return found.sort((a, b) => a.line - b.line);
}

export function checkSqlPlacement(root: string): Violation[] {
  const files: string[] = [];
  sourceFiles(resolve(root), 'core/node', files);
  return files.sort().flatMap((file) => sqlOutsideItsLayer(file, readFileSync(join(root, file), 'utf8')));
}
