import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Run-time import cycles in core/. Two modules that import each other load in an order that depends
 * on which one is asked for first, and a value read at load time (a constant, a class to extend, a
 * table built from another module's exports) is then undefined in one of the two orders. Only
 * imports that load a module count: `import type` and `export type` vanish from the output, while
 * `import { type A }` still loads its module under `verbatimModuleSyntax`, so it counts.
 */

/** Module specifiers that a file loads at run time: static imports and re-exports, types excluded. */
export function runtimeImportsOf(source: string): string[] {
  const found: string[] = [];
  // Anchored at a line start: every top-level import of the project is formatted that way, and a
  // line of a template literal that happens to read like one is not worth a parser.
  const statement = /^(import|export)\s+(type\s+)?(?:([\w$*{}\s,]+?)\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    const [, keyword, typeOnly, clause, specifier] = match;
    if (typeOnly) continue;
    // `export const x = …` and the like never reach `from '…'`; only a re-export has a clause here.
    if (keyword === 'export' && !clause) continue;
    found.push(specifier as string);
  }
  return found;
}

/** The file a relative specifier names, workspace-relative with `/`, or null when none exists. */
function resolveImport(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    const abs = join(root, candidate);
    if (existsSync(abs) && statSync(abs).isFile()) return relative(root, abs).split(sep).join('/');
  }
  return null;
}

function sourceFiles(root: string, dir: string, out: string[]): void {
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) sourceFiles(root, rel, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
}

/** Every file under `dir` with the files it loads at run time (within the project only). */
export function importGraph(root: string, dir = 'core'): Map<string, string[]> {
  const base = resolve(root);
  const files: string[] = [];
  sourceFiles(base, dir, files);
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const targets = runtimeImportsOf(readFileSync(join(base, file), 'utf8'))
      .map((specifier) => resolveImport(base, file, specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One cycle per strongly connected group of modules, each as the path that closes it (`a → b → a`),
 * starting from the group's first file in sort order. A group of many files may hold several
 * cycles; the one named is a shortest through that file, and the check runs again after a fix.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        const selfLoop = group.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
        if (group.length > 1 || selfLoop) groups.push(group.sort());
      }
    }
  }
  return groups
    .map((group) => shortestCycle(graph, group))
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** The shortest path from the group's first file back to itself, inside the group. */
function shortestCycle(graph: ReadonlyMap<string, readonly string[]>, group: string[]): string[] {
  const members = new Set(group);
  const first = group[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === first) {
        const path = [node];
        while (path[0] !== first) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, first];
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, node);
      queue.push(target);
    }
  }
  return [first, first];
}

/** The run-time import cycles of core/, each as a path that closes on its first file. */
export function checkImportCycles(root: string): string[][] {
  return findCycles(importGraph(root, 'core'));
}
