import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { nodeEntry } from './node-entry';

const MAIN = join(import.meta.dirname, '..', '..', 'core', 'node', 'cli', 'main.ts');

/**
 * Runs the CLI as a real process without blocking the test: several of them can then run at once
 * against one workspace (what `run-cli.ts`'s `cli` cannot, being synchronous).
 */
export function cliAsync(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeEntry(MAIN), ...args], {
      cwd: options.cwd ?? join(import.meta.dirname, '..', '..'),
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
