import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { nodeEntry } from './node-entry';

const MAIN = join(import.meta.dirname, '..', '..', 'core', 'node', 'cli', 'main.ts');

/** The run that process `pid` holds in the workspace's index (its lease), or null. */
export function runHeldBy(ws: string, pid: number): string | null {
  const path = join(ws, '.crucible', 'index.db');
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare('SELECT run_id FROM run_leases WHERE pid = ?').get(pid) as { run_id: string } | undefined;
    return row?.run_id ?? null;
  } catch {
    // The index is being created or migrated: nothing is held yet.
    return null;
  } finally {
    db.close();
  }
}

/**
 * The CLI as a long-running process (a debate, an evaluation), with the simulator slowed down;
 * `main` is another entry that runs the same CLI (one that registers a test-only protocol first).
 */
export function start(
  args: string[],
  latencyMs: number,
  main: string = MAIN,
): { child: ChildProcess; exit: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [...nodeEntry(main), ...args], {
    env: { ...process.env, CRUCIBLE_SIMULATED_LATENCY_MS: String(latencyMs) },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += String(d)));
  child.stderr?.on('data', (d) => (stderr += String(d)));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, exit };
}

export async function eventually<T>(check: () => T | null | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
