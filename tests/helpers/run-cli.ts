import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { nodeEntry } from './node-entry';

const MAIN = join(import.meta.dirname, '..', '..', 'core', 'node', 'cli', 'main.ts');

/** Runs the CLI as a real process, the way `npm run cli -- …` does. */
export function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(process.execPath, [...nodeEntry(MAIN), ...args], {
    cwd: options.cwd ?? join(import.meta.dirname, '..', '..'),
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function cliJson<T = Record<string, unknown>>(args: string[], options?: Parameters<typeof cli>[1]): T {
  const run = cli([...args, '--json'], options);
  if (run.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
