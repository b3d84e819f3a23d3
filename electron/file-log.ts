import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Log } from '../core/ports/log';

/**
 * The desktop app's log: one line per entry in `<logs>/crucible.log` (Help → Show Log Folder), and
 * on stderr while developing. Errors shown in the window as "internal" point here. Keys never reach
 * it: nothing logs an input or a key store's contents.
 */
export function fileLog(where: () => string, options: { echo: boolean }): Log {
  let broken = false;
  let file: string | null = null;
  const write = (level: string, message: string, data?: Record<string, unknown>) => {
    const line = `${new Date().toISOString()} ${level} ${message}${data ? ` ${JSON.stringify(data)}` : ''}\n`;
    if (options.echo) process.stderr.write(line);
    if (broken) return;
    try {
      // Asked on first use: Electron knows its folders only once it has started.
      file ??= where();
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, line);
    } catch (error) {
      // A log that cannot be written must not take the app down; say so once.
      broken = true;
      process.stderr.write(
        `cannot write the log ${file ?? 'file'}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  };
  return {
    info: (message, data) => write('info', message, data),
    warn: (message, data) => write('warn', message, data),
    error: (message, data) => write('error', message, data),
  };
}
