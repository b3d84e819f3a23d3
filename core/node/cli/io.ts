/** Where a command writes; the real process streams, tests collect. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Resolves when the user asks a long-running command (watch) to stop. */
  untilStopped(): Promise<void>;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  untilStopped: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};
