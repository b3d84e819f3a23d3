import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeWrite } from '../fs/atomic-write';

/**
 * Whether the pipeline is switched on: `.crucible/pipeline.json`. It is state, not a choice kept with
 * the ideas (those are in pipeline.md): a lost file means a stopped pipeline, the safe side. Every
 * process reads it before each step, so `pipeline stop` in one terminal stops the app's pipeline too.
 */
const FILE = ['.crucible', 'pipeline.json'] as const;

export interface PipelineRunState {
  running: boolean;
  /** When it was last switched on or off, and by which process. */
  at: string | null;
  pid: number | null;
}

export function readRunState(root: string): PipelineRunState {
  try {
    const raw = JSON.parse(readFileSync(join(root, ...FILE), 'utf8')) as Partial<PipelineRunState>;
    return {
      running: raw.running === true,
      at: typeof raw.at === 'string' ? raw.at : null,
      pid: typeof raw.pid === 'number' ? raw.pid : null,
    };
  } catch {
    return { running: false, at: null, pid: null };
  }
}

export function writeRunState(root: string, running: boolean, now: Date): void {
  // The workspace's atomic write: a fresh temp name (created exclusively, so no link planted there is
  // written through), flushed, renamed into place: a reader never sees half of it.
  safeWrite(
    root,
    join(...FILE),
    `${JSON.stringify({ running, at: now.toISOString(), pid: process.pid })}\n`,
    'any',
    now,
  );
}
