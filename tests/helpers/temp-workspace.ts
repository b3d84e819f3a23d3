import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh workspace folder under the system temp dir; `cleanup` removes it. */
export function tempWorkspace(prefix = 'crucible-test-'): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'ideas'));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function writeFile(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

let counter = 0;

/** A README with valid frontmatter; `fields` override or add lines. */
export function readme(title: string, fields: Record<string, string> = {}, body = `Why ${title} matters.`): string {
  counter++;
  const base: Record<string, string> = {
    id: `01JTEST${String(counter).padStart(6, '0')}${'0'.repeat(13)}`,
    title: JSON.stringify(title),
    type: 'research',
    stage: 'SPARK',
    tags: '[testing]',
    summary: JSON.stringify(`${title} in one line.`),
    created: '2026-01-01',
    updated: '2026-01-02',
    ...fields,
  };
  const front = Object.entries(base)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return `---\n${front}\n---\n# ${title}\n\n${body}\n`;
}

/** Polls `check` until it returns a truthy value or the time runs out (then throws with `what`). */
export async function eventually<T>(check: () => T | undefined | null | false, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
