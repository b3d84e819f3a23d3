import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'core', 'node', 'cli', 'main.ts');
const WEB = join(ROOT, 'core', 'node', 'web', 'main.ts');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the soak itself sent the kill, so a signal exit is expected. */
  killedByUs: boolean;
}

/** A child process of the soak whose output is kept and whose end can be awaited. */
export class Child {
  readonly process: ChildProcess;
  readonly done: Promise<Finished>;
  stdout = '';
  stderr = '';
  killedByUs = false;

  constructor(script: string, args: readonly string[]) {
    this.process = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    this.process.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    this.process.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      // Long-running processes would otherwise hold every log line of the whole soak.
      this.stderr = (this.stderr + chunk).slice(-20_000);
    });
    this.done = new Promise((resolve) => {
      this.process.on('close', (code, signal) =>
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr, killedByUs: this.killedByUs }),
      );
    });
  }

  get pid(): number {
    return this.process.pid ?? -1;
  }

  kill(signal: NodeJS.Signals): void {
    this.killedByUs = true;
    this.process.kill(signal);
  }

  /** Resident memory now, in MB (Linux); null where /proc is not there or the process is gone. */
  rssMb(): number | null {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
      return kb ? Number(kb) / 1024 : null;
    } catch {
      return null;
    }
  }
}

export const cliProcess = (args: readonly string[]) => new Child(CLI, args);
export const webProcess = (args: readonly string[]) => new Child(WEB, args);

/** Waits until `child` has printed a line matching `pattern` on stdout, or fails after `timeoutMs`. */
export async function waitForOutput(child: Child, pattern: RegExp, timeoutMs = 120_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(child.stdout);
    if (match) return match;
    if (child.process.exitCode !== null || child.process.signalCode !== null)
      throw new Error(`process ended before printing ${pattern}: ${child.stderr.slice(-2000)}`);
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
