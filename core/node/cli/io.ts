import { createInterface } from 'node:readline';

/** Where a command writes; the real process streams, tests collect. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Resolves when the user asks a long-running command (watch) to stop. */
  untilStopped(): Promise<void>;
  /**
   * Asks the person at the terminal and resolves with the line typed (null at the end of input).
   * Absent where nobody can answer (input or output is not a terminal): a command then needs its
   * answer as an option.
   */
  ask?: (question: string) => Promise<string | null>;
}

/** A question on a terminal, the answer read from it. */
async function askTerminal(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await new Promise<string | null>((resolve) => {
      rl.once('close', () => resolve(null));
      rl.question(question, resolve);
    });
  } finally {
    rl.close();
  }
}

export const processIo: CliIo = {
  ...(process.stdin.isTTY && process.stdout.isTTY ? { ask: askTerminal } : {}),
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  untilStopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};
